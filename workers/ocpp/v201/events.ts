import { problemOf } from "../../../domain/ocpp/v201/events";
import type { EventDataType, Ocpp201Request } from "../../../domain/ocpp/v201/schemas";
import { recordPointEvent } from "../../services/ocpp/point-events";
import type { ChargerSession, EventState } from "../session";

/**
 * OCPP 2.0.1 events (Part 2 N07–N08) in the charger model: a problem an event reports raises the
 * alarm a 1.6 charger's error code raises, on the event's EVSE (the product's connector number; 0
 * the station), and its clearing closes it; work orders follow as they follow any alarm
 * (docs/rules/maintenance.md "Automatic work orders"). Alarms go through the charger's ordered
 * changes like a status, so the answer never waits for D1 (docs/rules/ocpp.md "Hot path"); the
 * other events are kept as the point's events once the answer has left.
 */

function eventState(session: ChargerSession): EventState {
  session.state.events ??= { problems: {} };
  return session.state.events;
}

/**
 * The error code a 2.0.1 connector reports with a status: the status's own, unless an event left
 * a problem open on it. 2.0.1's statuses carry no error code, and a 1.6 NoError closes every alarm
 * of the connector: an open problem must outlive a status that says nothing of it.
 */
export function errorCodeOn(session: ChargerSession, connectorId: number, errorCode: string): string {
  const open = session.state.events?.problems[String(connectorId)];
  const problem = open && Object.values(open)[0];
  return problem ?? errorCode;
}

/**
 * N07–N08 NotifyEvent. A report may come in parts (`tbc`), each taken as it comes; a part at or
 * below the last `seqNo` taken of the same report (`generatedAt`) is a repeat and changes nothing.
 */
export function notifyEvent(session: ChargerSession, request: Ocpp201Request<"NotifyEvent">) {
  const state = eventState(session);
  if (state.last?.generatedAt === request.generatedAt && request.seqNo <= state.last.seqNo) return;
  state.last = { generatedAt: request.generatedAt, seqNo: request.seqNo };
  const others: EventDataType[] = [];
  for (const event of request.eventData) {
    const problem = problemOf(event);
    if (!problem) {
      others.push(event);
      continue;
    }
    const key = String(problem.connectorId);
    const open = { ...state.problems[key] };
    if (problem.raised) open[problem.source] = problem.faultCode;
    else delete open[problem.source];
    if (Object.keys(open).length > 0) state.problems[key] = open;
    else delete state.problems[key];
    // Two problems of one code on one connector share its alarm: it closes when the last of them clears.
    if (!problem.raised && Object.values(open).includes(problem.faultCode)) continue;
    session.record({
      kind: "alarm",
      alarm: { connectorId: problem.connectorId, type: problem.faultCode, raised: problem.raised, message: problem.message, at: Date.parse(event.timestamp) },
    });
  }
  session.saveState();
  if (others.length > 0) {
    const detail = { generatedAt: request.generatedAt, seqNo: request.seqNo, ...(request.tbc && { tbc: true }), eventData: others };
    session.waitUntil(recordPointEvent(session.ctx, session.identity.pointId, "Event", null, detail));
  }
}
