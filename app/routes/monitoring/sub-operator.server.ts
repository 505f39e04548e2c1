import type { LoaderFunctionArgs } from "react-router";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { listSubPoints, listSubStations, subPointDetail, subStationDetail } from "../../../workers/services/sub-operators/views";
import { requireCtx } from "../../lib/ctx.server";
import { routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The points assigned to the sub-operator (the verb keeps to them), with the station filter. */
export async function loadSubPoints({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations] = await Promise.all([listSubPoints(ctx, searchParamsObject(request)), stationOptions(ctx, {})]);
  return { page, stations };
}

export async function loadSubPoint({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return subPointDetail(ctx, routeId(params.id));
}

export async function loadSubStations({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listSubStations(ctx, searchParamsObject(request));
}

export async function loadSubStation({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return subStationDetail(ctx, routeId(params.id), searchParamsObject(request));
}
