import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { carrierInfo } from "../../../workers/services/platform/carrier-info";
import { listOperators } from "../../../workers/services/platform/operators";
import { createPackage, getPackage, listPackageBills, listPackages, ownPackageBills, ownPackages, setBillFlags, voidPackage } from "../../../workers/services/platform/price-packages";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Platform › Price packages (docs/rules/platform.md "Price packages"). */
export async function loadPackages({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listPackages(ctx, searchParamsObject(request));
}

/** The list's action: void the posted package. */
export async function voidPackageAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    await voidPackage(ctx, bodyId(form.get("id")));
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The operators a package may be for, narrowed by a typed code (the picker holds at most 100). */
export async function loadPackageForm({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const code = new URL(request.url).searchParams.get("code") ?? undefined;
  const operators = await listOperators(ctx, { size: 100, code });
  return { operators: operators.records.map((o) => ({ id: o.id, code: o.code, name: o.name })) };
}

export async function savePackage({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const created = await createPackage(ctx, input);
    return { ok: true as const, id: created.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** One package with its bills, paged and filtered by their flags. */
export async function loadPackage({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [pkg, bills] = await Promise.all([getPackage(ctx, routeId(params.id)), listPackageBills(ctx, routeId(params.id), searchParamsObject(request))]);
  return { package: pkg, bills, editable: true };
}

/** The detail's action: set a bill's recorded or settled flag. */
export async function billFlagsAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  const flag = String(form.get("flag"));
  try {
    await setBillFlags(ctx, bodyId(form.get("id")), { [flag]: form.get("value") === "true" });
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** Carrier system › Operator info: the operator's own packages. */
export async function loadCarrierInfo({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [info, packages] = await Promise.all([carrierInfo(ctx), ownPackages(ctx, searchParamsObject(request))]);
  return { operator: { code: ctx.operator.code, name: ctx.operator.name, edition: ctx.operator.edition, authorizedAc: ctx.operator.authorizedAcConnectors, authorizedDc: ctx.operator.authorizedDcConnectors }, info, packages };
}

/** authorizationBillingDetail: one of the operator's own packages and its bills. */
export async function loadOwnBilling({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const own = await ownPackageBills(ctx, routeId(params.id), searchParamsObject(request));
  return { package: own.package, bills: own.bills, editable: false };
}
