import { reservationInput, reservationListQuery } from "../../../domain/schemas/driver-services";
import { cancelReservation, createReservation, listReservations, reservationDetail } from "../../services/driver-services/reservations";
import { idParam, route } from "../app";

const tag = "Station service";

export const routes = [
  route(
    { method: "get", path: "/station-service/reservation", summary: "Reservations, newest first, filtered by point, status and expiry time (from, to)", tag, verb: listReservations, query: reservationListQuery },
    (ctx, { query }) => listReservations(ctx, query),
  ),

  route(
    {
      method: "post",
      path: "/station-service/reservation",
      summary: "Reserve a connector: ReserveNow at once; Accepted makes it reserved, any other answer is 409 with the reply",
      tag,
      verb: createReservation,
      body: reservationInput,
    },
    (ctx, { body }) => createReservation(ctx, body),
  ),

  route({ method: "get", path: "/station-service/reservation/{id}", summary: "A reservation", tag, verb: reservationDetail, params: idParam }, (ctx, { params }) =>
    reservationDetail(ctx, params.id),
  ),

  route(
    { method: "put", path: "/station-service/reservation/{id}/cancel", summary: "Cancel a reservation: CancelReservation, canceling then canceled", tag, verb: cancelReservation, params: idParam },
    (ctx, { params }) => cancelReservation(ctx, params.id),
  ),
];
