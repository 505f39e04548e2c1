import { geocodeQuery, stationInput, stationListQuery, stationStatusInput } from "../../../domain/schemas/stations";
import { geocodeAddress } from "../../services/stations/geocode";
import {
  stationConnectorQuota,
  createStation,
  deleteStation,
  listStations,
  setStationStatus,
  stationDetail,
  STATION_MENUS,
  updateStation,
} from "../../services/stations/stations";
import { idParam, route } from "../app";

const tag = "Station service";
const read = { menu: STATION_MENUS };
const write = { menu: ["equipment.station"] };

route(
  {
    method: "get",
    path: "/station-service/station",
    summary: "Stations, highest rank first, paged and filtered (name, address, status, parkingFee)",
    tag,
    access: read,
    query: stationListQuery,
  },
  (ctx, { query }) => listStations(ctx, query),
);

route(
  {
    method: "post",
    path: "/station-service/station",
    summary: "Create a station (disabled until it has a point); without lat/lng the address is geocoded",
    tag,
    access: write,
    body: stationInput,
  },
  (ctx, { body }) => createStation(ctx, body),
);

// Fixed paths before `{id}`, which would otherwise take them.
route(
  {
    method: "get",
    path: "/station-service/station/connector-quota",
    summary: "Authorised AC/DC connectors of the operator with used, remaining and enabled counts",
    tag,
    access: read,
  },
  (ctx) => stationConnectorQuota(ctx),
);

route(
  {
    method: "get",
    path: "/station-service/station/geocode",
    summary: "Coordinates of an address through the operator's map provider (parameter settings › map)",
    tag,
    access: write,
    query: geocodeQuery,
  },
  (ctx, { query }) => geocodeAddress(ctx, query),
);

route(
  { method: "get", path: "/station-service/station/{id}", summary: "A station with its point and connector counts", tag, access: read, params: idParam },
  (ctx, { params }) => stationDetail(ctx, params.id),
);

route(
  {
    method: "put",
    path: "/station-service/station/{id}",
    summary: "Update a station; while enabled its address, coordinates, time zone and power limit are locked",
    tag,
    access: write,
    params: idParam,
    body: stationInput,
  },
  (ctx, { params, body }) => updateStation(ctx, params.id, body),
);

route(
  { method: "delete", path: "/station-service/station/{id}", summary: "Delete a disabled station without points", tag, access: write, params: idParam },
  async (ctx, { params }) => {
    await deleteStation(ctx, params.id);
    return null;
  },
);

route(
  {
    method: "put",
    path: "/station-service/station/{id}/valid",
    summary: "Enable (needs a point) or disable (disables its points; chargers get ChangeAvailability Inoperative)",
    tag,
    access: write,
    params: idParam,
    body: stationStatusInput,
  },
  (ctx, { params, body }) => setStationStatus(ctx, params.id, body),
);
