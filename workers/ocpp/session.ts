import type { SystemCtx } from "../services/context";
import type { LiveEvent } from "../live/events";
import type { ChargerIdentity } from "./identity";
import type { ChargerChange } from "../services/ocpp/charger-changes";
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
  /** What an OCPP 2.0.1 charger's transactions need kept between events (workers/ocpp/v201/transactions.ts). */
  v201?: V201State;
  /** What an OCPP 2.0.1 charger's events need kept (N07–N08, workers/ocpp/v201/events.ts). */
  events?: EventState;
}

export interface EventState {
  /** The NotifyEvent part last taken (`generatedAt`, `seqNo`): a repeat of it changes nothing twice. */
  last?: { generatedAt: string; seqNo: number };
  /** Connector number → the problems its events report open: source (component.variable) → fault code. */
  problems: Record<string, Record<string, string>>;
}

/** An OCPP 2.0.1 transaction as its events come in (E01–E13). */
export interface Transaction201 {
  /** Ours, once the transaction is in D1 (it needs an id token first: E02 starts on a plug-in). */
  id?: number;
  /** The EVSE, which is the product's connector number (docs/decisions/0078-one-charger-model-two-protocols.md). */
  evseId: number;
  /** The connector of the EVSE it charges on (for UnlockConnector, F05). */
  connectorId?: number;
  startedAt: string;
  meterStartWh?: number;
  idToken?: string;
  remoteStartId?: number;
  reservationId?: number;
  /** The last seqNo taken: an event at or below it is a repeat and changes nothing twice. */
  seqNo: number;
  status?: string;
  /**
   * The running cost the charger was last told (I02), in major units, and when it was priced
   * (server clock); present only while the transaction has a tariff (workers/ocpp/v201/cost.ts).
   */
  cost?: { at: number; totalCost: number };
}

export interface V201State {
  /** By the charger's transaction id, while they run. */
  transactions: Record<string, Transaction201>;
  /** The last transactions that ended, so that a late or repeated Ended changes nothing. */
  ended: string[];
  /** remoteStartId → the id tag of the console's start (F01: the Started event names the remoteStartId). */
  remoteStarts: Record<string, { idTag: string; at: number }>;
  /** The next requestId/remoteStartId this object hands out. */
  nextRequestId: number;
  /**
   * EVSE id → connectorId → the last status of each connector as the charger reports it (G01): an
   * EVSE with several connectors is shown as reported, its product connector status the one that
   * speaks for them all (`evseStatusOf`).
   */
  plugs?: Record<string, Record<string, string>>;
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
  /** The meter readings held back for their pace go now (nothing is sent when none waits). */
  flushReadings(): void;
  /** Last energy register per transaction, cached in memory. */
  lastEnergyWh: Map<number, number>;
  /**
   * Last energy register per transaction with the charger's time of it, in memory only, for the
   * meter-jump review (docs/rules/monitoring.md "Suspect sessions"); absent: not checked.
   */
  lastEnergyAt?: Map<number, { wh: number; at: number; reviewed?: boolean }>;
  /** A connector's power in W as registered, undefined when not known (the meter-jump review is then skipped). */
  connectorPowerW?(connectorId: number): number | undefined;
  /** Runs after the answer has gone out. */
  waitUntil(promise: Promise<unknown>): void;
  /** What decides a boot's answer, from this charger's own storage; D1 only on a miss. */
  registration(): Promise<Registration>;
  /** Hands a change to D1 after the answer, in batches and in order (docs/rules/ocpp.md "Hot path"). */
  record(change: ChargerChange): void;
  /** Meter samples, written with the message log about once a second. */
  writeSamples(samples: Sample[]): void;
}
