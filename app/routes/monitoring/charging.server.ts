import type { LoaderFunctionArgs } from "react-router";
import { mayOperateChargers } from "../../../tenants/permissions";
import { chargingDetail, listCharging } from "../../../workers/services/monitoring/charging";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** Ongoing sessions, paged by the verb, with the station filter and the server's clock. */
export async function loadCharging({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations] = await Promise.all([listCharging(ctx, searchParamsObject(request)), stationOptions(ctx, {})]);
  return { page, stations, now: ctx.now() };
}

/** One session, the server's clock, and whether this user may stop it. */
export async function loadChargingDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { session: await chargingDetail(ctx, params.id), now: ctx.now(), mayOperate: mayOperateChargers(ctx.actor.menu) };
}
