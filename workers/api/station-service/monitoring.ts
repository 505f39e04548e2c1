import { chargingListQuery, connectorListQuery, loadQuery, panelQuery, pileListQuery, stationPickerQuery, transactionParam } from "../../../domain/schemas/monitoring";
import { chargingDetail, listCharging } from "../../services/monitoring/charging";
import { listConnectors, listPiles } from "../../services/monitoring/devices";
import { stationLoad, stationOptions, stationPanel } from "../../services/monitoring/stations";
import { resource } from "../resource";

/**
 * Real-time monitoring: paged, tenant-filtered first paints that the console keeps current from
 * `/live`. Sub-operators call the same verbs and get their assigned devices only.
 */
const tag = "Monitoring and remote control";
const monitoring = resource(tag, "/station-service/monitoring");
const charging = resource(tag, "/station-service/monitoring/charging", transactionParam);

export const routes = [
  charging.list("Ongoing transactions, newest first (stationId, serialNumber, idTag)", listCharging, chargingListQuery),
  charging.detail("A transaction with its meter curve (energy, power, current, voltage, SoC)", chargingDetail),
  monitoring.get("/chargingPile", "Points with their device state (online, offline, fault) and the counts of each", listPiles, pileListQuery),
  monitoring.get("/connector", "Connectors with their shown status (offline when empty), display class and running transaction", listConnectors, connectorListQuery),
  monitoring.get("/load", "A station's points, power limit and the last hour of summed power", stationLoad, loadQuery),
  monitoring.get("/stations", "Stations to pick from (at most 50, by rank; name filter)", stationOptions, stationPickerQuery),
  monitoring.get("/panel", "The remote-control panel of one station: its points (paged) with connectors and running transactions", stationPanel, panelQuery),
];
