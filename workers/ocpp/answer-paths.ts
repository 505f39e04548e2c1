import { isChargerAction } from "../../domain/ocpp";
import { isChargerAction201 } from "../../domain/ocpp/v201/actions";
import type { HANDLERS } from "./handlers";
import type { HANDLERS_201 } from "./v201/handlers";
import type { Ocpp201Request } from "../../domain/ocpp/v201/schemas";

/**
 * How a charger's call is answered (docs/rules/ocpp.md "Hot path"; decision 0015): "own-state"
 * answers from the charger's object and queues its D1 changes in the outbox; "after-writes" writes
 * D1 itself, so the outbox is drained first and D1 sees a charger's changes in the order it sent
 * them (a status never lands before the stop that preceded it).
 */
export type AnswerPath = "own-state" | "after-writes";

/**
 * One entry per action of each codec's handler table, so that a handler added without deciding its
 * path does not compile. A 2.0.1 TransactionEvent decides by its content: an Updated that only
 * adds readings is a MeterValues of 1.6, the others start, authorise or stop in D1.
 */
export const ANSWER_PATHS: { readonly [A in keyof typeof HANDLERS]: AnswerPath } = {
  BootNotification: "own-state",
  Heartbeat: "own-state",
  MeterValues: "own-state",
  StatusNotification: "own-state",
  Authorize: "after-writes",
  DataTransfer: "after-writes",
  DiagnosticsStatusNotification: "after-writes",
  FirmwareStatusNotification: "after-writes",
  StartTransaction: "after-writes",
  StopTransaction: "after-writes",
  LogStatusNotification: "after-writes",
  SecurityEventNotification: "after-writes",
  SignCertificate: "after-writes",
  SignedFirmwareStatusNotification: "after-writes",
};

export const ANSWER_PATHS_201: { readonly [A in keyof typeof HANDLERS_201]-?: AnswerPath | ((payload: unknown) => AnswerPath) } = {
  BootNotification: "own-state",
  Heartbeat: "own-state",
  MeterValues: "own-state",
  StatusNotification: "own-state",
  TransactionEvent: (payload) => (onlyReadings(payload) ? "own-state" : "after-writes"),
  Authorize: "after-writes",
  DataTransfer: "after-writes",
  FirmwareStatusNotification: "after-writes",
  LogStatusNotification: "after-writes",
  SecurityEventNotification: "after-writes",
  NotifyEvent: "own-state",
  ReservationStatusUpdate: "after-writes",
  NotifyReport: "own-state",
  SignCertificate: "after-writes",
  ReportChargingProfiles: "after-writes",
  NotifyChargingLimit: "after-writes",
  ClearedChargingLimit: "after-writes",
  NotifyDisplayMessages: "after-writes",
};

/** Whether a 2.0.1 TransactionEvent only adds readings: an Updated naming no id token (nothing to start, authorise or stop in D1). */
export function onlyReadings(request: unknown): boolean {
  const event = request as Partial<Ocpp201Request<"TransactionEvent">> | null;
  return event?.eventType === "Updated" && event.idToken === undefined;
}

/** Whether this incoming 1.6 action skips the outbox drain; an action no handler takes waits like any writer. */
export function answersFromOwnState(action: string): boolean {
  return isChargerAction(action) && ANSWER_PATHS[action] === "own-state";
}

/** The same for a 2.0.1 action and its payload. */
export function answersFromOwnState201(action: string, payload: unknown): boolean {
  if (!isChargerAction201(action) || !Object.hasOwn(ANSWER_PATHS_201, action)) return false;
  const path = ANSWER_PATHS_201[action as keyof typeof ANSWER_PATHS_201];
  return (typeof path === "function" ? path(payload) : path) === "own-state";
}
