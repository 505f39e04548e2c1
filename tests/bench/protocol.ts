/** What tests/bench/ocpp.ts asks of its load processes (tests/bench/load-client.ts), and what they answer. */
export interface BenchCharger {
  serial: string;
  key: string;
}

export type ClientCommand =
  | { kind: "connect"; url: string; chargers: BenchCharger[]; inFlight: number }
  | { kind: "heartbeats"; count: number; inFlight: number }
  /** The first `count` chargers of the process at once (the whole fleet unless open files forbid). */
  | { kind: "burst"; action: "Heartbeat" | "StatusNotification"; count: number }
  | { kind: "steady"; intervalS: number; durationS: number }
  | { kind: "meter"; seconds: number }
  | { kind: "transactions"; count: number; inFlight: number; idTag: string }
  /** The fleet connected now is set aside, still connected, and the one set aside before comes back. */
  | { kind: "swap" }
  | { kind: "close" };

export interface ClientReport {
  /** Round trips in ms, where the command measures them. */
  samples: number[];
  done: number;
  failed: number;
  firstError?: string;
}
