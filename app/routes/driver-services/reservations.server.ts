import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { customerChoices, pointChoices } from "../../../workers/services/driver-services/pickers";
import { cancelReservation, createReservation, listReservations } from "../../../workers/services/driver-services/reservations";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/**
 * Reservations, the points and customers the form may pick (docs/rules/driver-services.md
 * "Reservations"). A sub-operator (`/suboperators/reservation`) watches its devices' reservations:
 * reserving and cancelling are the operator's.
 */
export async function loadReservations({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const mayReserve = ctx.operator.sub !== 1;
  const [page, targets, customers] = await Promise.all([
    listReservations(ctx, searchParamsObject(request)),
    pointChoices(ctx),
    mayReserve ? customerChoices(ctx, {}) : Promise.resolve([]),
  ]);
  return { ...page, points: targets.points, customers, mayReserve };
}

/** Reserve (ReserveNow) or cancel (`intent: "cancel"`, CancelReservation). */
export async function reservationAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, id, ...input } = await actionJson<{ intent?: string; id?: number } & Record<string, unknown>>(request);
    if (intent === "cancel") await cancelReservation(ctx, bodyId(id));
    else await createReservation(ctx, input);
    return { ok: true as const, intent: intent ?? "reserve" };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
