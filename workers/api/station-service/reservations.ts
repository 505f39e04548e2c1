import { reservationInput, reservationListQuery } from "../../../domain/schemas/driver-services";
import { cancelReservation, createReservation, listReservations, reservationDetail } from "../../services/driver-services/reservations";
import { resource } from "../resource";

const reservation = resource("Station service", "/station-service/reservation");

export const routes = [
  reservation.list("Reservations, newest first, filtered by point, status and expiry time (from, to)", listReservations, reservationListQuery),
  reservation.create("Reserve a connector: ReserveNow at once; Accepted makes it reserved, any other answer is 409 with the reply", createReservation, reservationInput),
  reservation.detail("A reservation", reservationDetail),
  reservation.put("/{id}/cancel", "Cancel a reservation: CancelReservation, canceling then canceled", cancelReservation),
];
