import type { LoaderFunctionArgs } from "react-router";
import { diagnosisChoices, listDiagnostics } from "../../../workers/services/points/diagnostics";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** Every point's diagnostics requests, and the devices the request form picks from (`?stationId=`). */
export async function diagnosticsPage({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const query = searchParamsObject(request);
  const stationId = Number(query.stationId) || null;
  const { stationId: _, ...list } = query;
  const [page, choices] = await Promise.all([listDiagnostics(ctx, list), diagnosisChoices(ctx, stationId)]);
  return { page, stationId, ...choices };
}
