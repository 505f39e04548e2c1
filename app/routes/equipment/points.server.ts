import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { createPoint, deletePoint, enablePoints, setPointStatus, updatePoint } from "../../../workers/services/points/point-admin";
import { listPoints, pointDetail } from "../../../workers/services/points/points";
import { connectorQuota } from "../../../workers/services/points/quota";
import { stationOptions } from "../../../workers/services/stations/stations";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { quotaRefusal } from "../platform/temporary-package.server";
import { searchParamsObject } from "../../lib/search-params";

/** The point list, filtered and paged by the verb, with the station filter and the connector quota. */
export async function loadPoints({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, stations, quota] = await Promise.all([listPoints(ctx, searchParamsObject(request)), stationOptions(ctx), connectorQuota(ctx)]);
  return { page, stations, quota };
}

/** The list's action: delete a point, enable the selected ones, or enable or disable one. */
export async function pointsAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  const intent = String(form.get("intent"));
  try {
    if (intent === "delete") {
      await deletePoint(ctx, bodyId(form.get("id")));
      return { ok: true as const, intent };
    }
    if (intent === "enableSelected") {
      const result = await enablePoints(ctx, { ids: form.getAll("ids") });
      return { ok: true as const, intent, count: result.results.length };
    }
    const result = await setPointStatus(ctx, bodyId(form.get("id")), { status: form.get("status") });
    return { ok: true as const, intent: result.status === "VALID" ? "enabled" : "disabled" };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The point being edited (none when adding), the stations and the quota; `?stationId=` presets the station. */
export async function loadPointForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [point, stations, quota] = await Promise.all([
    params.id ? pointDetail(ctx, { id: routeId(params.id) }) : null,
    stationOptions(ctx),
    connectorQuota(ctx),
  ]);
  const stationId = Number(new URL(request.url).searchParams.get("stationId")) || null;
  return { point, stations, quota, stationId };
}

export async function savePoint({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const point = params.id ? await updatePoint(ctx, routeId(params.id), input) : await createPoint(ctx, input);
    return { ok: true as const, id: point.id };
  } catch (error) {
    // Beyond the quota: the temporary package is offered with its price (docs/rules/platform.md "Temporary package").
    return quotaRefusal(ctx, error);
  }
}
