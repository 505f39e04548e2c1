import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { customerChoices } from "../../../workers/services/driver-services/pickers";
import { createVehicle, deleteVehicle, listVehicles, updateVehicle, vehicleDetail } from "../../../workers/services/driver-services/vehicles";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The vehicle list and the customers its form may pick (docs/rules/driver-services.md "Vehicles"). */
export async function loadVehicles({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const query = searchParamsObject(request);
  const [page, customers] = await Promise.all([listVehicles(ctx, query), customerChoices(ctx, { keyword: query.owner })]);
  return { ...page, customers };
}

/** The list's action: create, edit (`id` given) or delete (`intent: "delete"`) a vehicle. */
export async function vehicleAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, id, ...input } = await actionJson<{ intent?: string; id?: number } & Record<string, unknown>>(request);
    if (intent === "delete") await deleteVehicle(ctx, bodyId(id));
    else if (id) await updateVehicle(ctx, bodyId(id), input);
    else await createVehicle(ctx, input);
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadVehicle({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return vehicleDetail(ctx, routeId(params.id));
}
