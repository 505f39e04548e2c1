import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import {
  createLoadBalancing,
  deleteLoadBalancing,
  deliverLoadBalancing,
  listLoadBalancing,
  loadBalancingChoices,
  loadBalancingDetail,
  setLoadBalancingStatus,
  updateLoadBalancing,
} from "../../../workers/services/load-balancing/load-balancing";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Equipment › Load balancing: the list, the form and the detail reach the same verbs as the API. */
export async function loadBalancingList({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [page, choices] = await Promise.all([listLoadBalancing(ctx, searchParamsObject(request)), loadBalancingChoices(ctx, null)]);
  return { page, stations: choices.stations };
}

/** The configuration being edited (none when adding) and the locations and points to choose from. */
export async function loadBalancingForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const config = params.id ? await loadBalancingDetail(ctx, routeId(params.id)) : null;
  const asked = Number(new URL(request.url).searchParams.get("stationId")) || null;
  const stationId = asked ?? config?.stationId ?? null;
  return { config, stationId, ...(await loadBalancingChoices(ctx, stationId)) };
}

export async function saveLoadBalancing({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const saved = params.id ? await updateLoadBalancing(ctx, routeId(params.id), input) : await createLoadBalancing(ctx, input);
    return { ok: true as const, id: saved.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadBalancingPage({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return loadBalancingDetail(ctx, routeId(params.id));
}

/** Deliver, enable or disable, delete: one action per intent, from the list or the detail. */
export async function loadBalancingAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const id = params.id ? routeId(params.id) : bodyId(form.get("id"));
    switch (form.get("intent")) {
      case "deliver":
        await deliverLoadBalancing(ctx, id);
        return { ok: true as const, intent: "deliver" };
      case "status":
        await setLoadBalancingStatus(ctx, id, { status: form.get("status") });
        return { ok: true as const, intent: "status" };
      default:
        await deleteLoadBalancing(ctx, id);
        return { ok: true as const, intent: "delete" };
    }
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
