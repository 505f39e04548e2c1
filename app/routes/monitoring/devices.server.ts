import type { LoaderFunctionArgs } from "react-router";
import { listConnectors, listPiles } from "../../../workers/services/monitoring/devices";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** Every connector with its status, paged by the verb, with the station filter. */
export async function loadConnectors({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations] = await Promise.all([listConnectors(ctx, searchParamsObject(request)), stationOptions(ctx, {})]);
  return { page, stations };
}

/** Every charging point with its device state, paged by the verb, with the station filter. */
export async function loadPiles({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations] = await Promise.all([listPiles(ctx, searchParamsObject(request)), stationOptions(ctx, {})]);
  return { page, stations };
}
