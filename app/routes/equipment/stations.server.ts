import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { setStationPublished } from "../../../workers/services/ocpi/cpo-locations";
import { listPoints } from "../../../workers/services/points/points";
import { defaultRemoteIdTag } from "../../../workers/services/remote/remote-control";
import {
  deleteStation,
  listStations,
  setStationStatus,
  stationConnectorQuota,
  stationDetail,
  stationOptions,
} from "../../../workers/services/stations/stations";
import type { UserCtx } from "../../../workers/services/context";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The station list, ranked, filtered and paged by the verb, with the connector quota. */
export async function loadStations({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, quota] = await Promise.all([listStations(ctx, searchParamsObject(request)), stationConnectorQuota(ctx)]);
  return { page, quota };
}

/** A station, its points, and the other stations (to show beside it on the map). */
export async function loadStationDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const id = routeId(params.id);
  const station = await stationDetail(ctx, id);
  const [points, others] = await Promise.all([listPoints(ctx, { stationId: id, size: 100 }), stationOptions(ctx)]);
  return { station, points: points.records, others: others.filter((o) => o.id !== id) };
}

/** The stations to start a session at, and the id tag a remote start offers first. */
export async function loadStationStart({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [stations, remoteIdTag] = await Promise.all([stationOptions(ctx), defaultRemoteIdTag(ctx)]);
  return { stations, remoteIdTag };
}

async function runStationAction(ctx: UserCtx, form: FormData) {
  const id = bodyId(form.get("id"));
  if (form.get("intent") === "delete") {
    await deleteStation(ctx, id);
    return { ok: true as const, intent: "delete" as const, status: null };
  }
  // Published to roaming partners or withdrawn (docs/rules/ocpi.md "Locations we publish").
  if (form.get("intent") === "publish") {
    await setStationPublished(ctx, id, { publish: form.get("publish") === "true" });
    return { ok: true as const, intent: "publish" as const, status: null };
  }
  const result = await setStationStatus(ctx, id, { status: form.get("status") });
  return { ok: true as const, intent: "status" as const, status: result.status };
}

export type StationActionResult = Awaited<ReturnType<typeof runStationAction>>;

/** The list's and the detail page's action: enable, disable or delete the posted station. */
export async function stationAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    return await runStationAction(ctx, await actionForm(request));
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
