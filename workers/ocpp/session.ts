import type { SystemCtx } from "../services/context";
import type { LiveEvent } from "../live/events";
import type { ChargerIdentity } from "./identity";
import type { ChargerChange } from "../services/ocpp/charger-records";
import type { Registration } from "./registration";
import type { ChargerStore, Sample } from "./store";

/**
 * What a charger's Durable Object keeps between messages. It lives in DO storage (written on
 * changes only) and in memory as a cache; nothing here is needed from memory after a wake-up
 * that storage cannot give back (docs/rules/ocpp.md "Hot path").
 */
export interface ChargerState {
  /** connectorId → last status and error code reported. */
  connectors: Record<string, { status: string; errorCode: string }>;
  /** connectorId → the transaction running on it. */
  activeTransactions: Record<string, number>;
  heartbeatIntervalS: number;
  accepted: boolean;
}

export const initialState = (): ChargerState => ({
  connectors: {},
  activeTransactions: {},
  heartbeatIntervalS: 300,
  accepted: false,
});

/** The handlers' view of their charger: identity, records, its own storage and the live view. */
export interface ChargerSession {
  identity: ChargerIdentity;
  env: Env;
  /** The charger as the system actor: every record goes through a verb with it. */
  ctx: SystemCtx;
  store: ChargerStore;
  state: ChargerState;
  /** Writes `state` to storage: call after a change, never on the hot path. */
  saveState(): void;
  now(): number;
  /** Sends an event to the operator's live view after the charger has had its answer. */
  publish(event: LiveEvent): void;
  /** Meter readings are coalesced to about one push a second per charger. */
  publishMeter(event: Extract<LiveEvent, { type: "meter" }>): void;
  /** Last energy register per transaction, cached in memory. */
  lastEnergyWh: Map<number, number>;
  /** Runs after the answer has gone out. */
  waitUntil(promise: Promise<unknown>): void;
  /** What decides a boot's answer, from this charger's own storage; D1 only on a miss. */
  registration(): Promise<Registration>;
  /** Hands a change to D1 after the answer, in batches and in order (docs/rules/ocpp.md "Hot path"). */
  record(change: ChargerChange): void;
  /** Meter samples, written with the message log about once a second. */
  writeSamples(samples: Sample[]): void;
}
