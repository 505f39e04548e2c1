import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import type { UserCtx } from "../../../workers/services/context";
import { once } from "../../../workers/services/idempotency";
import { billDetail, listBills } from "../../../workers/services/wallets/bills";
import { setMemberLevel } from "../../../workers/services/wallets/membership";
import { listRecharges, recharge } from "../../../workers/services/wallets/recharges";
import { filterCustomer, walletSettings } from "../../../workers/services/wallets/wallet-facts";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionJson, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The customer a list is filtered by, for the filter to show its name (nothing for another operator's id). */
async function filteredCustomer(ctx: UserCtx, query: Record<string, string>) {
  const id = Number(query.customerId);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  return filterCustomer(ctx, id);
}

/** A list page from its verb; a filter the verb refuses gives an empty page with its message. */
async function listPage<T>(ctx: UserCtx, query: Record<string, string>, list: (ctx: UserCtx, query: Record<string, string>) => Promise<{ records: T[]; total: number; current: number; size: number }>) {
  try {
    const page = await list(ctx, query);
    return { page, filterError: null, customer: await filteredCustomer(ctx, query) };
  } catch (error) {
    return { page: { records: [] as T[], total: 0, current: 1, size: 10 }, filterError: refusal(error, ctx.lang).body.msg, customer: null };
  }
}

/** User recharge: the recharge records, the minimum top-up for the dialog's hint and the amounts it offers. */
export async function loadRecharges({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [list, settings] = await Promise.all([listPage(ctx, searchParamsObject(request), listRecharges), walletSettings(ctx)]);
  return { ...list, minimumRecharge: settings.minimumRecharge, rechargePresets: settings.rechargePresets };
}

/** Tops up or deducts (the dialog posts the API's JSON body, once per idempotency key: docs/rules/input.md "Idempotency keys"). */
export async function rechargeAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const body = await actionJson(request);
    return (await once(ctx, request, body, async () => ({ ok: true as const, recharge: await recharge(ctx, body) }))).value;
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** Bills or expense records: the same list, each screen with its own menu. */
export async function loadBills({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listPage(ctx, searchParamsObject(request), listBills);
}

export async function loadBill({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return billDetail(ctx, routeId(params.id));
}

/** Changes the customer's level (the control posts `{level, months}`, once per idempotency key). */
export async function memberLevelAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const id = routeId(params.id);
    const body = await actionJson(request);
    return (await once(ctx, request, body, async () => ({ ok: true as const, customer: await setMemberLevel(ctx, id, body) }))).value;
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The customer page: the customer's detail with what its membership control offers. */
export async function loadCustomerWallet<T extends object>(args: LoaderFunctionArgs, detail: (args: LoaderFunctionArgs) => Promise<T>) {
  const ctx = await requireCtx(args.request, args.context);
  // What the membership control offers: each paid level's monthly fee.
  const [data, settings] = await Promise.all([detail(args), walletSettings(ctx)]);
  return { ...data, membershipFees: settings.membershipFees };
}
