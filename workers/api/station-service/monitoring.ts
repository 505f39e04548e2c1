import { chargingDetail, chargingListQuery, CHARGING_MENUS, listCharging, transactionParam } from "../../services/monitoring/charging";
import { CONNECTOR_MENUS, connectorListQuery, listConnectors, listPiles, PILE_MENUS, pileListQuery } from "../../services/monitoring/devices";
import {
  LOAD_MENUS,
  loadQuery,
  PANEL_MENUS,
  panelQuery,
  STATION_PICKER_MENUS,
  stationLoad,
  stationOptions,
  stationPanel,
  stationPickerQuery,
} from "../../services/monitoring/stations";
import { route } from "../app";

/**
 * Real-time monitoring (SPEC.md §2, §7): paged, tenant-filtered first paints that the console keeps
 * current from `/live`. Sub-operators call the same verbs and get their assigned devices only.
 */
const tag = "Monitoring and remote control";

route(
  { method: "get", path: "/station-service/monitoring/charging", summary: "Ongoing transactions, newest first (stationId, serialNumber, idTag)", tag, access: { menu: CHARGING_MENUS }, query: chargingListQuery },
  (ctx, { query }) => listCharging(ctx, query),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/charging/{transactionId}",
    summary: "A transaction with its meter curve (energy, power, current, voltage, SoC)",
    tag,
    access: { menu: CHARGING_MENUS },
    params: transactionParam,
  },
  (ctx, { params }) => chargingDetail(ctx, params.transactionId),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/chargingPile",
    summary: "Points with their device state (online, offline, fault) and the counts of each",
    tag,
    access: { menu: PILE_MENUS },
    query: pileListQuery,
  },
  (ctx, { query }) => listPiles(ctx, query),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/connector",
    summary: "Connectors with their shown status (offline when empty), display class and running transaction",
    tag,
    access: { menu: CONNECTOR_MENUS },
    query: connectorListQuery,
  },
  (ctx, { query }) => listConnectors(ctx, query),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/load",
    summary: "A station's points, power limit and the last hour of summed power",
    tag,
    access: { menu: LOAD_MENUS },
    query: loadQuery,
  },
  (ctx, { query }) => stationLoad(ctx, query),
);

route(
  { method: "get", path: "/station-service/monitoring/stations", summary: "Stations to pick from (at most 50, by rank; name filter)", tag, access: { menu: STATION_PICKER_MENUS }, query: stationPickerQuery },
  (ctx, { query }) => stationOptions(ctx, query),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/panel",
    summary: "The remote-control panel of one station: its points (paged) with connectors and running transactions",
    tag,
    access: { menu: PANEL_MENUS },
    query: panelQuery,
  },
  (ctx, { query }) => stationPanel(ctx, query),
);
