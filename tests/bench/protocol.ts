/** What tests/bench/ocpp.ts asks of its load processes (tests/bench/load-client.ts), and what they answer. */
import type { OcppVersion } from "../../workers/ocpp/protocol";

export type { OcppVersion };

export interface BenchCharger {
  serial: string;
  key: string;
}

/**
 * The connectors a light charger reports after its boot: 1.6 names the charge point itself as
 * connector 0 (OCPP 1.6 §4.9); 2.0.1 reports each EVSE's connector (OCPP 2.0.1 Part 2 G01), and
 * has no station-wide status.
 */
export const BOOT_STATUSES: Record<OcppVersion, readonly number[]> = { "1.6": [0, 1, 2], "2.0.1": [1, 2] };

/** The message a steady stream of readings is made of in each version (OCPP 2.0.1 Part 2 E02: readings of a transaction ride on TransactionEvent). */
export const READING: Record<OcppVersion, string> = { "1.6": "MeterValues", "2.0.1": "TransactionEvent Updated" };

export type ClientCommand =
  | { kind: "connect"; url: string; chargers: BenchCharger[]; inFlight: number; version: OcppVersion }
  | { kind: "heartbeats"; count: number; inFlight: number }
  /** The first `count` chargers of the process at once (the whole fleet unless open files forbid). */
  | { kind: "burst"; action: "Heartbeat" | "StatusNotification"; count: number }
  | { kind: "steady"; intervalS: number; durationS: number }
  | { kind: "meter"; seconds: number }
  /**
   * Every charger connected now starts the transaction its readings will belong to, where its
   * version puts readings in one (2.0.1: a TransactionEvent Started naming `idToken`); `end` ends it.
   */
  | { kind: "begin"; idToken: string }
  | { kind: "end" }
  | { kind: "transactions"; count: number; inFlight: number; idTag: string }
  /** The fleet connected now is set aside, still connected, and the one set aside before comes back. */
  | { kind: "swap" }
  | { kind: "close" };

export interface ClientReport {
  /** Round trips in ms, where the command measures them (a connect: each charger's connect and boot). */
  samples: number[];
  done: number;
  failed: number;
  firstError?: string;
}
