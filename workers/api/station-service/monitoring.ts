import { chargingListQuery, connectorListQuery, loadQuery, panelQuery, pileListQuery, stationPickerQuery, transactionParam } from "../../../domain/schemas/monitoring";
import { chargingDetail, listCharging } from "../../services/monitoring/charging";
import { listConnectors, listPiles } from "../../services/monitoring/devices";
import { stationLoad, stationOptions, stationPanel } from "../../services/monitoring/stations";
import { route } from "../app";

/**
 * Real-time monitoring: paged, tenant-filtered first paints that the console keeps current from
 * `/live`. Sub-operators call the same verbs and get their assigned devices only.
 */
const tag = "Monitoring and remote control";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/monitoring/charging",
      summary: "Ongoing transactions, newest first (stationId, serialNumber, idTag)",
      tag,
      verb: listCharging,
      query: chargingListQuery,
    },
    (ctx, { query }) => listCharging(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/charging/{transactionId}",
      summary: "A transaction with its meter curve (energy, power, current, voltage, SoC)",
      tag,
      verb: chargingDetail,
      params: transactionParam,
    },
    (ctx, { params }) => chargingDetail(ctx, params.transactionId),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/chargingPile",
      summary: "Points with their device state (online, offline, fault) and the counts of each",
      tag,
      verb: listPiles,
      query: pileListQuery,
    },
    (ctx, { query }) => listPiles(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/connector",
      summary: "Connectors with their shown status (offline when empty), display class and running transaction",
      tag,
      verb: listConnectors,
      query: connectorListQuery,
    },
    (ctx, { query }) => listConnectors(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/load",
      summary: "A station's points, power limit and the last hour of summed power",
      tag,
      verb: stationLoad,
      query: loadQuery,
    },
    (ctx, { query }) => stationLoad(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/stations",
      summary: "Stations to pick from (at most 50, by rank; name filter)",
      tag,
      verb: stationOptions,
      query: stationPickerQuery,
    },
    (ctx, { query }) => stationOptions(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/panel",
      summary: "The remote-control panel of one station: its points (paged) with connectors and running transactions",
      tag,
      verb: stationPanel,
      query: panelQuery,
    },
    (ctx, { query }) => stationPanel(ctx, query),
  ),
];
