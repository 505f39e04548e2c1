import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { pointChoices } from "../../../workers/services/driver-services/pickers";
import { cancelReservation, createReservation, listReservations } from "../../../workers/services/driver-services/reservations";
import { operatorInfo } from "../../../workers/services/operators/public-info";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId } from "../../lib/input.server";
import { localPeriodParams, searchParamsObject } from "../../lib/search-params";

/**
 * Reservations and the points the form may pick (docs/rules/driver-services.md "Reservations"); the
 * form's customer picker searches through the API. The expiry filter is typed in the operator's
 * time zone, as the list shows times (docs/rules/lists.md "Filters and sorting"); a range the verb
 * refuses gives an empty page with its message. A sub-operator (`/suboperators/reservation`)
 * watches its devices' reservations: reserving and cancelling are the operator's.
 */
export async function loadReservations({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const mayReserve = ctx.operator.sub !== 1;
  const raw = searchParamsObject(request);
  const [{ timeZone }, targets] = await Promise.all([operatorInfo(ctx), pointChoices(ctx)]);
  try {
    const page = await listReservations(ctx, { ...raw, ...localPeriodParams(raw, timeZone) });
    return { ...page, points: targets.points, mayReserve, filterError: null };
  } catch (error) {
    const empty = { records: [], total: 0, current: 1, size: 10 } as Awaited<ReturnType<typeof listReservations>>;
    return { ...empty, points: targets.points, mayReserve, filterError: refusal(error, ctx.lang).body.msg };
  }
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
