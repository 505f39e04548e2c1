import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { failureStations, listFailures } from "../../../workers/services/faults/failures";
import { createFaultCode, deleteFaultCode, listFaultCodes, updateFaultCode } from "../../../workers/services/faults/fault-codes";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

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

export async function failureList({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations] = await Promise.all([listFailures(ctx, searchParamsObject(request)), failureStations(ctx)]);
  return { page, stations };
}
