import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import * as offlineLists from "../../../workers/services/driver-services/offline-lists";
import { pointChoices } from "../../../workers/services/driver-services/pickers";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Offline lists (docs/rules/driver-services.md "Offline lists"). */
export async function loadOfflineLists({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return offlineLists.listOfflineLists(ctx, searchParamsObject(request));
}

export async function deleteOfflineListAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    await offlineLists.deleteOfflineList(ctx, bodyId(form.get("id")));
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The list being edited (none when adding); its pickers search customers and groups through the API. */
export async function loadOfflineListForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { list: params.id ? await offlineLists.offlineListDetail(ctx, routeId(params.id)) : null };
}

export async function saveOfflineList({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const list = params.id ? await offlineLists.updateOfflineList(ctx, routeId(params.id), input) : await offlineLists.createOfflineList(ctx, input);
    return { ok: true as const, id: list.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The detail page: the list, its points (with those behind) and its deliveries, and what a push may target. */
export async function loadOfflineListDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const id = routeId(params.id);
  const query = searchParamsObject(request);
  const [list, points, items, targets] = await Promise.all([
    offlineLists.offlineListDetail(ctx, id),
    offlineLists.offlineListPoints(ctx, id, { current: query.pointsPage ?? 1, size: 10 }),
    offlineLists.listPushItems(ctx, id, query),
    pointChoices(ctx),
  ]);
  return { list, points, items, targets };
}

/** The detail page's actions: push to points and stations, or retry a failed item. */
export async function offlineListDetailAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, itemId, ...input } = await actionJson<{ intent: "push" | "retry"; itemId?: number } & Record<string, unknown>>(request);
    if (intent === "retry") await offlineLists.retryPushItem(ctx, routeId(params.id), bodyId(itemId));
    else await offlineLists.pushOfflineList(ctx, routeId(params.id), input);
    return { ok: true as const, intent };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
