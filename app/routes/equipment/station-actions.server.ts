import type { UserCtx } from "../../../workers/services/context";
import { deleteStation, setStationStatus } from "../../../workers/services/stations/stations";

/** The list's and the detail page's action: enable, disable or delete the posted station. */
export async function runStationAction(ctx: UserCtx, form: FormData) {
  const id = Number(form.get("id"));
  if (form.get("intent") === "delete") {
    await deleteStation(ctx, id);
    return { ok: true as const, intent: "delete" as const, status: null };
  }
  const result = await setStationStatus(ctx, id, { status: form.get("status") });
  return { ok: true as const, intent: "status" as const, status: result.status };
}

export type StationActionResult = Awaited<ReturnType<typeof runStationAction>>;
