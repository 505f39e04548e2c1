import { stationListQuery } from "../../../domain/schemas/equipment";
import { listStations, STATION_MENUS } from "../../services/stations/stations";
import { route } from "../app";

route(
  { method: "get", path: "/station-service/station", summary: "Stations, highest rank first, paged and filtered", tag: "Station service", access: { menu: STATION_MENUS }, query: stationListQuery },
  (ctx, { query }) => listStations(ctx, query),
);
