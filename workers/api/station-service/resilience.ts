import { closeSuspectInput, suspectListQuery, suspectParam } from "../../../domain/schemas/resilience";
import { closeSuspectSession, listSuspectSessions, suspectSessionReading } from "../../services/monitoring/suspect-sessions";
import { liftQuarantine } from "../../services/points/quarantine";
import { route } from "../app";
import { resource } from "../resource";

/** A misbehaving charger's quarantine and stuck sessions (docs/rules/ocpp.md, docs/rules/monitoring.md "Suspect sessions"). */
const tag = "Monitoring and remote control";
const stationService = resource(tag, "/station-service");

export const routes = [
  stationService.delete("/point/{id}/quarantine", "Lift a charger's reconnect quarantine; its connections are counted afresh", liftQuarantine),
  stationService.get("/charge/suspect", "Suspect sessions (no stop past the threshold, connector free, meter flagged), oldest first", listSuspectSessions, suspectListQuery),

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
