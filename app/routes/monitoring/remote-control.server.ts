import type { LoaderFunctionArgs } from "react-router";
import { stationOptions, stationPanel } from "../../../workers/services/monitoring/stations";
import { defaultRemoteIdTag } from "../../../workers/services/remote/remote-control";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** The panels of the chosen station (`?stationId=`, else the first), and the id tag a remote start offers first. */
export async function loadRemoteControl({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [stations, remoteIdTag] = await Promise.all([stationOptions(ctx, {}), defaultRemoteIdTag(ctx)]);
  // Without a chosen station the verb opens the first; with none at all there is no panel to show.
  const panel = stations.length > 0 ? await stationPanel(ctx, searchParamsObject(request)) : null;
  return { stations, panel, remoteIdTag };
}
