/**
 * A charger that misbehaves, in pure rules (docs/rules/ocpp.md "A charger that floods",
 * "A charger that keeps reconnecting") and the meter rule of a stuck session
 * (docs/rules/monitoring.md "Suspect sessions"). The ChargePoint Durable Object keeps the state
 * these rules read and write in its memory and storage: nothing here touches D1.
 */

/** An operator's limits for its chargers (parameter settings `resilience`). */
export interface ChargerLimits {
  /** CALLs a charger may send per second before the excess is refused. */
  messagesPerSecond: number;
  /** Connections within an hour a charger may open; one more quarantines it. */
  connectionsPerHour: number;
  /** How long a quarantine lasts. */
  quarantineMinutes: number;
}

/** The limits of an operator who never set them. */
export const DEFAULT_CHARGER_LIMITS: ChargerLimits = { messagesPerSecond: 50, connectionsPerHour: 60, quarantineMinutes: 60 };

/** How long a transaction may run without a stop before it is listed as suspect, unless the operator set otherwise. */
export const DEFAULT_STUCK_SESSION_HOURS = 24;

/** The window connections are counted in. */
export const CONNECTION_WINDOW_MS = 60 * 60 * 1000;

/** A flood episode ends once this long has passed without a refused CALL. */
export const FLOOD_QUIET_MS = 60 * 1000;

/**
 * A token bucket per charger: it holds at most one second's worth of CALLs and refills at
 * `messagesPerSecond`, so a charger is never refused below the rate and never served above it
 * for long. `episodeSince` is when the current flood began (null: none).
 */
export interface FloodBucket {
  tokens: number;
  at: number;
  episodeSince: number | null;
  lastRefusedAt: number;
}

export const freshBucket = (limits: Pick<ChargerLimits, "messagesPerSecond">, now: number): FloodBucket => ({
  tokens: limits.messagesPerSecond,
  at: now,
  episodeSince: null,
  lastRefusedAt: 0,
});

/**
 * One CALL arrives at `now`: whether it is taken, and whether it began or ended a flood episode
 * (each raises or clears one alarm). An episode ends at the first CALL taken after
 * FLOOD_QUIET_MS without a refusal, or by `floodEnded` when no CALL comes.
 */
export function takeCall(
  bucket: FloodBucket,
  limits: Pick<ChargerLimits, "messagesPerSecond">,
  now: number,
): { taken: boolean; episodeStarted: boolean; episodeEnded: boolean } {
  const rate = limits.messagesPerSecond;
  const elapsed = Math.max(0, now - bucket.at);
  bucket.tokens = Math.min(rate, bucket.tokens + (elapsed * rate) / 1000);
  bucket.at = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    const episodeEnded = floodEnded(bucket, now);
    return { taken: true, episodeStarted: false, episodeEnded };
  }
  bucket.lastRefusedAt = now;
  if (bucket.episodeSince !== null) return { taken: false, episodeStarted: false, episodeEnded: false };
  bucket.episodeSince = now;
  return { taken: false, episodeStarted: true, episodeEnded: false };
}

/** Whether the bucket's flood episode is over at `now` (and ends it): FLOOD_QUIET_MS without a refusal. */
export function floodEnded(bucket: FloodBucket, now: number): boolean {
  if (bucket.episodeSince === null || now - bucket.lastRefusedAt < FLOOD_QUIET_MS) return false;
  bucket.episodeSince = null;
  return true;
}

/** What a charger's object keeps of its connections (in its storage, which survives an eviction). */
export interface ConnectionRecord {
  /** When the connections within the last CONNECTION_WINDOW_MS were accepted, oldest first. */
  recent: number[];
  /** Until when the charger is quarantined (ms), null when it is not. */
  quarantinedUntil: number | null;
  /** How many connections within the window caused the quarantine. */
  connections: number | null;
}

export const noConnections = (): ConnectionRecord => ({ recent: [], quarantinedUntil: null, connections: null });

export type ConnectionVerdict =
  /** Taken; `released`: a quarantine had ended (its mirror and alarm are cleared). */
  | { admitted: true; record: ConnectionRecord; released: boolean }
  /** Refused: quarantined until `until`; `started`: this connection began the quarantine. */
  | { admitted: false; record: ConnectionRecord; until: number; retryAfterS: number; started: boolean };

/**
 * A charger asks to connect at `now` (its key already accepted). While quarantined it is refused;
 * otherwise the connection is counted, and the one that makes more than `connectionsPerHour`
 * within the hour is refused and starts a quarantine of `quarantineMinutes`. The count starts
 * afresh after a quarantine (whether it ran out or was lifted).
 */
export function admitConnection(record: ConnectionRecord, limits: ChargerLimits, now: number): ConnectionVerdict {
  if (record.quarantinedUntil !== null && record.quarantinedUntil > now) {
    return { admitted: false, record, until: record.quarantinedUntil, retryAfterS: retryAfter(record.quarantinedUntil, now), started: false };
  }
  const released = record.quarantinedUntil !== null;
  const recent = [...(released ? [] : record.recent.filter((at) => now - at < CONNECTION_WINDOW_MS)), now];
  if (recent.length > limits.connectionsPerHour) {
    const until = now + limits.quarantineMinutes * 60_000;
    return { admitted: false, record: { recent: [], quarantinedUntil: until, connections: recent.length }, until, retryAfterS: retryAfter(until, now), started: true };
  }
  return { admitted: true, record: { recent, quarantinedUntil: null, connections: null }, released };
}

/** Whole seconds until `until`, at least 1 (RFC 9110 §10.2.3 `Retry-After: delay-seconds`). */
export function retryAfter(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/**
 * Whether an energy register reading is more than the connector could have delivered since the
 * previous one: `powerW` over the elapsed time, with a 10 % margin and 10 Wh for rounding of the
 * register (a reading of the same instant may not move). A register that went backwards is
 * `registerWentBackwards`'s (domain/ocpp/meter-values.ts).
 */
export function meterJumped(previous: { wh: number; at: number }, next: { wh: number; at: number }, powerW: number): boolean {
  if (!(powerW > 0) || next.wh <= previous.wh) return false;
  const hours = Math.max(0, next.at - previous.at) / 3_600_000;
  const possibleWh = powerW * hours * 1.1 + 10;
  return next.wh - previous.wh > possibleWh;
}
