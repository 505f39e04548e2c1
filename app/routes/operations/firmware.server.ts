import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import {
  createFirmware,
  deleteFirmware,
  firmwareChoices,
  firmwareDetail,
  issueFirmware,
  listFirmware,
  updateFirmware,
} from "../../../workers/services/firmware/firmware";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Operation and maintenance › Firmware updates: the screens reach the same verbs as the API. */
export async function firmwareList({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listFirmware(ctx, searchParamsObject(request));
}

export async function firmwareForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { firmware: params.id ? await firmwareDetail(ctx, routeId(params.id)) : null };
}

export async function saveFirmware({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    const saved = params.id ? await updateFirmware(ctx, routeId(params.id), input) : await createFirmware(ctx, input);
    return { ok: true as const, id: saved.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** A version with its rollout, and the devices the issue dialog offers (the points of `?stationId=`). */
export async function firmwarePage({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const stationId = Number(new URL(request.url).searchParams.get("stationId")) || null;
  const [firmware, choices] = await Promise.all([firmwareDetail(ctx, routeId(params.id)), firmwareChoices(ctx, stationId)]);
  return { firmware, stationId, ...choices };
}

/** Issue to points, or delete: from the list or the detail. */
export async function firmwareAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const id = params.id ? routeId(params.id) : bodyId(form.get("id"));
    if (form.get("intent") === "issue") {
      const waveSize = String(form.get("waveSize") ?? "");
      await issueFirmware(ctx, id, { pointIds: form.getAll("pointId"), ...(waveSize && { waveSize }) });
      return { ok: true as const, intent: "issue" };
    }
    await deleteFirmware(ctx, id);
    return { ok: true as const, intent: "delete" };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
