import type { LoaderFunctionArgs } from "react-router";
import { getOperationLog, listOperationLogs, operationLogFacets } from "../../../workers/services/content/operation-log";
import { operatorInfo } from "../../../workers/services/operators/public-info";
import { refusal, requireCtx } from "../../lib/ctx.server";
import { routeId } from "../../lib/input.server";
import { localPeriodParams, searchParamsObject } from "../../lib/search-params";

/**
 * A page of the operation log with the filters' choices; the times are typed in the operator's
 * time zone. A filter the verb refuses gives an empty page with its message.
 */
export async function loadOperationLogs({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [{ timeZone }, facets] = await Promise.all([operatorInfo(ctx), operationLogFacets(ctx)]);
  const raw = searchParamsObject(request);
  try {
    return { page: await listOperationLogs(ctx, { ...raw, ...localPeriodParams(raw, timeZone) }), facets, filterError: null };
  } catch (error) {
    const empty = { records: [], total: 0, current: 1, size: 10 } as Awaited<ReturnType<typeof listOperationLogs>>;
    return { page: empty, facets, filterError: refusal(error, ctx.lang).body.msg };
  }
}

export async function loadOperationLog({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return getOperationLog(ctx, routeId(params.id));
}
