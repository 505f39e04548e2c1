import type { LoaderFunctionArgs } from "react-router";
import { isOperatorRemoteTag } from "../../../domain/remote-start-tag";
import { mayOperateChargers } from "../../../tenants/permissions";
import { remoteStartTag } from "../../../workers/services/charge-records/remote-start-tag";
import { chargingDetail, listCharging } from "../../../workers/services/monitoring/charging";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { listSuspectSessions } from "../../../workers/services/monitoring/suspect-sessions";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** Ongoing sessions, paged by the verb, with the station filter and the server's clock. */
export async function loadCharging({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations, suspects, remoteTag] = await Promise.all([
    listCharging(ctx, searchParamsObject(request)),
    stationOptions(ctx, {}),
    // The flag of stuck sessions (docs/rules/monitoring.md "Suspect sessions"): how many, for the link to their list.
    listSuspectSessions(ctx, { size: 1 }).then((p) => p.total),
    // Sessions the operator's own tag started say so (docs/rules/console.md "Names").
    remoteStartTag(ctx),
  ]);
  return { page, stations, now: ctx.now(), suspects, remoteTag };
}

/** One session, the server's clock, whether this user may stop it, and whether the operator's own tag started it. */
export async function loadChargingDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [session, remoteTag] = await Promise.all([chargingDetail(ctx, params.id), remoteStartTag(ctx)]);
  return { session, now: ctx.now(), mayOperate: mayOperateChargers(ctx.actor.menu), remoteStart: isOperatorRemoteTag(session.idTag, remoteTag) };
}
