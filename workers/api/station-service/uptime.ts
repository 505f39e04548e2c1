import { outageExclusionInput, outageQuery, reliabilityQuery, uptimeQuery } from "../../../domain/schemas/uptime";
import { excludeOutage, listOutages, listUptime, reliabilitySummary } from "../../services/uptime/uptime";
import { resource } from "../resource";

/** Uptime as 23 CFR 680.116 counts it, outages and the charging success rate (docs/rules/monitoring.md "Uptime"). */
const tag = "Reliability";
const outages = resource(tag, "/station-service/uptime/outages");
const uptime = resource(tag, "/station-service/uptime");

export const routes = [
  uptime.list("Uptime per port over a period in the operator's time (from, to exclusive, stationId; by=day|month adds periods)", listUptime, uptimeQuery),
  outages.list("Outages of a period, newest first, with their cause, exclusion and work orders", listOutages, outageQuery),
  uptime.get("/summary", "Ports below the minimum uptime and the charging success rate of a period", reliabilitySummary, reliabilityQuery),
  outages.put("/{id}/exclusion", "Put an outage down to a cause outside the operator's control (reason null: count it again)", excludeOutage, outageExclusionInput),
];
