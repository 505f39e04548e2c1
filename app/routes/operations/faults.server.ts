import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { failureStations, listFailures } from "../../../workers/services/faults/failures";
import { createFaultCode, deleteFaultCode, listFaultCodes, updateFaultCode } from "../../../workers/services/faults/fault-codes";
import { operatorInfo } from "../../../workers/services/operators/public-info";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";
import { exportQueryOf, localPeriodParams, searchParamsObject } from "../../lib/search-params";

/** The fault-code catalogue and the failures screen reach the same verbs as the API. */
export async function faultCodeList({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listFaultCodes(ctx, searchParamsObject(request));
}

/** Save (add a vendor code, or edit any) or delete (a vendor code; an OCPP code goes back to its defaults). */
export async function faultCodeAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, code, ...input } = await actionJson<{ intent: string; code: string; isNew?: boolean }>(request);
    if (intent === "delete") await deleteFaultCode(ctx, code);
    else if (input.isNew) await createFaultCode(ctx, { code, ...input });
    else await updateFaultCode(ctx, code, input);
    return { ok: true as const, intent };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/**
 * A page of failures: the period is typed in the operator's time zone through the list's date-range
 * picker and handed to the verb as UTC instants; the export asks the API for the same filter. A
 * filter the verb refuses gives an empty page with its message (docs/rules/operations.md "Failures").
 */
export async function failureList({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [{ timeZone }, stations] = await Promise.all([operatorInfo(ctx), failureStations(ctx)]);
  const raw = searchParamsObject(request);
  const filter = { ...raw, ...localPeriodParams(raw, timeZone) };
  const exportQuery = exportQueryOf(filter);
  try {
    return { page: await listFailures(ctx, filter), stations, exportQuery, filterError: null };
  } catch (error) {
    const empty = { records: [], total: 0, current: 1, size: 10, from: null, to: null } as unknown as Awaited<ReturnType<typeof listFailures>>;
    return { page: empty, stations, exportQuery, filterError: refusal(error, ctx.lang).body.msg };
  }
}
