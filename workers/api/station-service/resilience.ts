import { closeSuspectInput, suspectListQuery, suspectParam } from "../../../domain/schemas/resilience";
import { closeSuspectSession, listSuspectSessions, suspectSessionReading } from "../../services/monitoring/suspect-sessions";
import { liftQuarantine } from "../../services/points/quarantine";
import { idParam, route } from "../app";

/** A misbehaving charger's quarantine and stuck sessions (docs/rules/ocpp.md, docs/rules/monitoring.md "Suspect sessions"). */
const tag = "Monitoring and remote control";

export const routes = [
  route(
    {
      method: "delete",
      path: "/station-service/point/{id}/quarantine",
      summary: "Lift a charger's reconnect quarantine; its connections are counted afresh",
      tag,
      verb: liftQuarantine,
      params: idParam,
    },
    (ctx, { params }) => liftQuarantine(ctx, params.id),
  ),

  route(
    {
      method: "get",
      path: "/station-service/charge/suspect",
      summary: "Suspect sessions (no stop past the threshold, connector free, meter flagged), oldest first",
      tag,
      verb: listSuspectSessions,
      query: suspectListQuery,
    },
    (ctx, { query }) => listSuspectSessions(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/charge/suspect/{transactionId}",
      summary: "The charger's last register reading of a suspect session, offered for its close",
      tag,
      verb: suspectSessionReading,
      params: suspectParam,
    },
    (ctx, { params }) => suspectSessionReading(ctx, params.transactionId),
  ),

  route(
    {
      method: "post",
      path: "/station-service/charge/suspect/{transactionId}/close",
      summary: "Close a suspect session with a meter reading (billed once; the charger is asked for its status)",
      tag,
      verb: closeSuspectSession,
      params: suspectParam,
      body: closeSuspectInput,
    },
    (ctx, { params, body }) => closeSuspectSession(ctx, params.transactionId, body),
  ),
];
