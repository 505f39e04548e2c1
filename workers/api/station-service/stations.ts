import { geocodeQuery, stationInput, stationListQuery, stationStatusInput } from "../../../domain/schemas/stations";
import { geocodeAddress } from "../../services/stations/geocode";
import {
  createStation,
  deleteStation,
  listStations,
  setStationStatus,
  stationConnectorQuota,
  stationDetail,
  updateStation,
} from "../../services/stations/stations";
import { idParam, route } from "../app";

const tag = "Station service";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/station",
      summary: "Stations, highest rank first, paged and filtered (name, address, status, parkingFee)",
      tag,
      verb: listStations,
      query: stationListQuery,
    },
    (ctx, { query }) => listStations(ctx, query),
  ),

  route(
    {
      method: "post",
      path: "/station-service/station",
      summary: "Create a station (disabled until it has a point); without lat/lng the address is geocoded",
      tag,
      verb: createStation,
      body: stationInput,
    },
    (ctx, { body }) => createStation(ctx, body),
  ),

  // Fixed paths before `{id}`, which would otherwise take them.
  route(
    {
      method: "get",
      path: "/station-service/station/connector-quota",
      summary: "Authorised AC/DC connectors of the operator with used, remaining and enabled counts",
      tag,
      verb: stationConnectorQuota,
    },
    (ctx) => stationConnectorQuota(ctx),
  ),

  route(
    {
      method: "get",
      path: "/station-service/station/geocode",
      summary: "Coordinates of an address through the operator's map provider (parameter settings › map)",
      tag,
      verb: geocodeAddress,
      query: geocodeQuery,
    },
    (ctx, { query }) => geocodeAddress(ctx, query),
  ),

  route(
    { method: "get", path: "/station-service/station/{id}", summary: "A station with its point and connector counts", tag, verb: stationDetail, params: idParam },
    (ctx, { params }) => stationDetail(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/station-service/station/{id}",
      summary: "Update a station; while enabled its address, coordinates, time zone and power limit are locked",
      tag,
      verb: updateStation,
      params: idParam,
      body: stationInput,
    },
    (ctx, { params, body }) => updateStation(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: "/station-service/station/{id}", summary: "Delete a disabled station without points", tag, verb: deleteStation, params: idParam },
    (ctx, { params }) => deleteStation(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/station-service/station/{id}/valid",
      summary: "Enable (needs a point) or disable (disables its points; chargers get ChangeAvailability Inoperative)",
      tag,
      verb: setStationStatus,
      params: idParam,
      body: stationStatusInput,
    },
    (ctx, { params, body }) => setStationStatus(ctx, params.id, body),
  ),
];
