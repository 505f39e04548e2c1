import { outageExclusionInput, outageQuery, reliabilityQuery, uptimeQuery } from "../../../domain/schemas/uptime";
import { excludeOutage, listOutages, listUptime, reliabilitySummary } from "../../services/uptime/uptime";
import { idParam, route } from "../app";

/** Uptime as 23 CFR 680.116 counts it, outages and the charging success rate (docs/rules/monitoring.md "Uptime"). */
const tag = "Reliability";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/uptime",
      summary: "Uptime per port over a period in the operator's time (from, to exclusive, stationId; by=day|month adds periods)",
      tag,
      verb: listUptime,
      query: uptimeQuery,
    },
    (ctx, { query }) => listUptime(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/uptime/outages",
      summary: "Outages of a period, newest first, with their cause, exclusion and work orders",
      tag,
      verb: listOutages,
      query: outageQuery,
    },
    (ctx, { query }) => listOutages(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/uptime/summary",
      summary: "Ports below the minimum uptime and the charging success rate of a period",
      tag,
      verb: reliabilitySummary,
      query: reliabilityQuery,
    },
    (ctx, { query }) => reliabilitySummary(ctx, query),
  ),

  route(
    {
      method: "put",
      path: "/station-service/uptime/outages/{id}/exclusion",
      summary: "Put an outage down to a cause outside the operator's control (reason null: count it again)",
      tag,
      verb: excludeOutage,
      params: idParam,
      body: outageExclusionInput,
    },
    (ctx, { params, body }) => excludeOutage(ctx, params.id, body),
  ),
];
