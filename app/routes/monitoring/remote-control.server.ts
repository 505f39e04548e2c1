import type { LoaderFunctionArgs } from "react-router";
import { stationOptions, stationPanel } from "../../../workers/services/monitoring/stations";
import { defaultRemoteIdTag } from "../../../workers/services/remote/remote-control";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** The panels of the chosen station (`?stationId=`, else the first), and the id tag a remote start offers first. */
export async function loadRemoteControl({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [stations, remoteIdTag] = await Promise.all([stationOptions(ctx, {}), defaultRemoteIdTag(ctx)]);
  const query = searchParamsObject(request);
  const stationId = Number(query.stationId) || stations[0]?.id;
  const panel = stationId ? await stationPanel(ctx, { ...query, stationId }) : null;
  return { stations, panel, remoteIdTag };
}
