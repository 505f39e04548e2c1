import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { listChargeRecords } from "../../../workers/services/charge-records/charge-records";
import { createVehicle, deleteVehicle, listVehicles, updateVehicle, vehicleDetail } from "../../../workers/services/driver-services/vehicles";
import { admits } from "../../../workers/services/verb";
import { listBills } from "../../../workers/services/wallets/bills";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** How many of the owner's latest records and bills the vehicle's page shows. */
const OWNER_ROWS = 10;

/** The vehicle list (docs/rules/driver-services.md "Vehicles"); the form's owner picker searches through the API. */
export async function loadVehicles({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listVehicles(ctx, searchParamsObject(request));
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

/**
 * The vehicle's bills page: the vehicle, and its owner's last ten charge records and bills, each
 * only for a user whose menus admit that list (docs/rules/driver-services.md "Vehicles").
 */
export async function loadVehicleBills({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const vehicle = await vehicleDetail(ctx, routeId(params.id));
  const query = { customerId: String(vehicle.customerId), size: String(OWNER_ROWS) };
  const [records, bills] = await Promise.all([
    admits(listChargeRecords.access, ctx) ? listChargeRecords(ctx, query) : null,
    admits(listBills.access, ctx) ? listBills(ctx, query) : null,
  ]);
  return { vehicle, records, bills };
}
