import { isChargerAction } from "../../domain/ocpp";
import type { HANDLERS } from "./handlers";

/**
 * How a charger's call is answered (docs/rules/ocpp.md "Hot path"; decision 0015): "own-state"
 * answers from the charger's object and queues its D1 changes in the outbox; "after-writes" writes
 * D1 itself, so the outbox is drained first and D1 sees a charger's changes in the order it sent
 * them (a status never lands before the stop that preceded it).
 */
export type AnswerPath = "own-state" | "after-writes";

/**
 * One entry per action of the handler table, so that a handler added without deciding its path
 * does not compile.
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
};

/** Whether this incoming action skips the outbox drain; an action no handler takes waits like any writer. */
export function answersFromOwnState(action: string): boolean {
  return isChargerAction(action) && ANSWER_PATHS[action] === "own-state";
}
