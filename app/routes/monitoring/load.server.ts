import type { LoaderFunctionArgs } from "react-router";
import { stationLoad, stationOptions } from "../../../workers/services/monitoring/stations";
import { requireCtx } from "../../lib/ctx.server";

/** The last hour of the chosen station's load (`?stationId=`, else the first station). */
export async function loadStationLoad({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const stations = await stationOptions(ctx, {});
  const stationId = Number(new URL(request.url).searchParams.get("stationId")) || stations[0]?.id;
  return { stations, load: stationId ? await stationLoad(ctx, { stationId }) : null };
}
