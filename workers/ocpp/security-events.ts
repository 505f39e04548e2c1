import { recordSecurityEvent, type SecurityEventFacts } from "../services/ocpp/security-records";
import type { ChargerSession } from "./session";

/**
 * A security event from a charger of either protocol (1.6 security extension §4.5
 * SecurityEventNotification, 2.0.1 A04): kept as a point event, a critical one raised as an alarm
 * (domain/ocpp/security-events.ts) and shown live once D1 has it. Not on the hot path: a charger
 * sends a handful, at boot and when something happens to it.
 */
export async function securityEvent(session: ChargerSession, event: SecurityEventFacts): Promise<void> {
  const raised = await recordSecurityEvent(session.ctx, session.identity.pointId, event);
  if (!raised) return;
  const { pointId, serialNumber } = session.identity;
  session.publish({ type: "alarm", pointId, serialNumber, connectorId: raised.connectorId, level: raised.level, alarmType: raised.type, at: raised.at });
}
