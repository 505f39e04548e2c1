import type { StartFacts } from "../services/ocpp/transactions";
import { useReservation } from "../services/driver-services/reservations";
import type { ChargerSession } from "./session";

/**
 * A start that names a reservation uses it (OCPP 1.6 §5.13, 2.0.1 H01 `reservationId` of the
 * TransactionEvent): the reservation is
 * finished when the start is on its connector with its tag or a tag of the same parent
 * (docs/rules/driver-services.md "Reservations"). A start is a state change, so this D1 write
 * is allowed here (docs/rules/ocpp.md "Hot path").
 */
export async function useReservationOnStart(session: ChargerSession, request: Pick<StartFacts, "reservationId" | "connectorId" | "idTag">, transactionId: number) {
  if (request.reservationId === undefined) return;
  await useReservation(session.ctx, session.identity.pointId, {
    reservationId: request.reservationId,
    connectorId: request.connectorId,
    idTag: request.idTag,
    transactionId,
  });
}
