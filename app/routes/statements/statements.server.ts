import { type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { UserCtx } from "../../../workers/services/context";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { collectionAccount, collectionTotals, updateCollectionAccount } from "../../../workers/services/statements/collection-account";
import { financialStatement, thisMonthPeriod } from "../../../workers/services/statements/statements";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

const STATEMENT_PARAMS = ["from", "to", "groupBy", "stationId", "pointId"] as const;

/**
 * A statement as the screen asked for it (this month by day unless told). A refused filter
 * answers its message beside the filters instead of a page error; a 403 or 404 stays one.
 */
export async function statementPage(ctx: UserCtx, params: Record<string, string>, subOperatorId?: string) {
  const query: Record<string, string | number> = { ...(await thisMonthPeriod(ctx)), groupBy: "day" };
  for (const name of STATEMENT_PARAMS) if (params[name]) query[name] = params[name];
  if (subOperatorId !== undefined) query.subOperatorId = subOperatorId;
  try {
    return { query, statement: await financialStatement(ctx, query), error: null };
  } catch (error) {
    const { status, body } = refusal(error, ctx.lang);
    if (status !== 400) throw error;
    return { query, statement: null, error: { message: body.msg, fields: (body.data as { fields?: Record<string, string> } | null)?.fields ?? {} } };
  }
}

/** /financialManagement/financialStatements, with the station filter. */
export async function loadStatement({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations] = await Promise.all([statementPage(ctx, searchParamsObject(request)), stationOptions(ctx, {})]);
  return { ...page, stations };
}

/** /financialManagement/financialAcount: the accounts and this month's (or the asked period's) collections. */
export async function loadCollectionAccount({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const params = searchParamsObject(request);
  const period = { ...(await thisMonthPeriod(ctx)), ...(params.from ? { from: params.from } : {}), ...(params.to ? { to: params.to } : {}) };
  const account = await collectionAccount(ctx);
  try {
    return { account, period, totals: await collectionTotals(ctx, period), error: null };
  } catch (error) {
    const { status, body } = refusal(error, ctx.lang);
    if (status !== 400) throw error;
    return { account, period, totals: null, error: body.msg };
  }
}

export async function saveCollectionAccount({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    return { ok: true as const, account: await updateCollectionAccount(ctx, await actionJson(request)) };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
