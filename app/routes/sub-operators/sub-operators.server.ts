import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import * as accounts from "../../../workers/services/sub-operators/accounts";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { statementPage } from "../statements/statements.server";
import { searchParamsObject } from "../../lib/search-params";

/** Sub-operator management (docs/rules/platform.md "Sub-operators"). */
export async function loadSubOperators({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return accounts.listSubOperators(ctx, searchParamsObject(request));
}

/** Enable or disable the posted sub-operator (the list and the enable page). */
export async function subOperatorStatusAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const result = await accounts.setSubOperatorStatus(ctx, bodyId(form.get("id")), { status: form.get("status") });
    return { ok: true as const, status: result.status };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadSubOperator({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return accounts.getSubOperator(ctx, routeId(params.id));
}

export async function loadSubOperatorForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { subOperator: params.id ? await accounts.getSubOperator(ctx, routeId(params.id)) : null };
}

/** Creates or edits a sub-operator; a new one's initial password comes back to be shown once. */
export async function saveSubOperator({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    if (params.id) {
      await accounts.updateSubOperator(ctx, routeId(params.id), input);
      return { ok: true as const, provisioned: null };
    }
    const created = await accounts.createSubOperator(ctx, input);
    return { ok: true as const, provisioned: { code: created.code, username: created.admin.username, password: created.admin.initialPassword, mailed: created.admin.mailed } };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The sub-operators' finance list, or one sub-operator's statement when `subOperatorId` names it. */
export async function loadFinance({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const params = searchParamsObject(request);
  if (params.subOperatorId) return { list: null, statement: await statementPage(ctx, params, params.subOperatorId) };
  return { list: await accounts.subOperatorFinance(ctx, params), statement: null };
}

export async function loadOwnInfo({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return accounts.subOperatorInfo(ctx);
}

export async function saveOwnInfo({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    await accounts.updateSubOperatorInfo(ctx, input);
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
