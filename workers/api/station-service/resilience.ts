import { closeSuspectInput, suspectListQuery, suspectParam } from "../../../domain/schemas/resilience";
import { closeSuspectSession, listSuspectSessions, suspectSessionReading } from "../../services/monitoring/suspect-sessions";
import { liftQuarantine } from "../../services/points/quarantine";
import { resource } from "../resource";

/** A misbehaving charger's quarantine and stuck sessions (docs/rules/ocpp.md, docs/rules/monitoring.md "Suspect sessions"). */
const tag = "Monitoring and remote control";
const stationService = resource(tag, "/station-service");
const suspect = resource(tag, "/station-service/charge/suspect", suspectParam);

export const routes = [
  stationService.delete("/point/{id}/quarantine", "Lift a charger's reconnect quarantine; its connections are counted afresh", liftQuarantine),
  suspect.list("Suspect sessions (no stop past the threshold, connector free, meter flagged), oldest first", listSuspectSessions, suspectListQuery),
  suspect.detail("The charger's last register reading of a suspect session, offered for its close", suspectSessionReading),
  suspect.post("/{transactionId}/close", "Close a suspect session with a meter reading (billed once; the charger is asked for its status)", closeSuspectSession, closeSuspectInput),
];
