import { describe, expect, it } from "vitest";
import {
  admitConnection,
  CONNECTION_WINDOW_MS,
  DEFAULT_CHARGER_LIMITS,
  FLOOD_QUIET_MS,
  floodEnded,
  freshBucket,
  meterJumped,
  noConnections,
  retryAfter,
  takeCall,
  type ConnectionRecord,
} from "../../../domain/ocpp/resilience";

describe("the flood guard (a token bucket per charger)", () => {
  const limits = { messagesPerSecond: 50 };

  it("takes a second's worth at once, refuses the rest, and starts one episode for the flood", () => {
    const bucket = freshBucket(limits, 0);
    const outcomes = Array.from({ length: 60 }, () => takeCall(bucket, limits, 0));
    expect(outcomes.filter((o) => o.taken)).toHaveLength(50);
    expect(outcomes.filter((o) => o.episodeStarted)).toHaveLength(1);
    expect(outcomes[50]).toEqual({ taken: false, episodeStarted: true, episodeEnded: false });
  });

  it("serves a flooding charger at the rate: a refill of 20 ms is one CALL", () => {
    const bucket = freshBucket(limits, 0);
    for (let i = 0; i < 50; i++) takeCall(bucket, limits, 0);
    expect(takeCall(bucket, limits, 10).taken).toBe(false);
    expect(takeCall(bucket, limits, 20).taken).toBe(true);
    expect(takeCall(bucket, limits, 20).taken).toBe(false);
  });

  it("never refuses a charger at or under the rate", () => {
    const bucket = freshBucket(limits, 0);
    for (let t = 0; t < 10_000; t += 20) expect(takeCall(bucket, limits, t).taken).toBe(true);
    expect(bucket.episodeSince).toBeNull();
  });

  it("ends the episode after a quiet minute, at the next CALL or when asked", () => {
    const bucket = freshBucket(limits, 0);
    for (let i = 0; i < 51; i++) takeCall(bucket, limits, 0);
    expect(takeCall(bucket, limits, 1000)).toEqual({ taken: true, episodeStarted: false, episodeEnded: false });
    expect(floodEnded(bucket, FLOOD_QUIET_MS - 1)).toBe(false);
    expect(takeCall(bucket, limits, FLOOD_QUIET_MS + 1).episodeEnded).toBe(true);
    const again = freshBucket(limits, 0);
    for (let i = 0; i < 51; i++) takeCall(again, limits, 0);
    expect(floodEnded(again, FLOOD_QUIET_MS)).toBe(true);
    expect(floodEnded(again, FLOOD_QUIET_MS * 2)).toBe(false);
  });
});

describe("the quarantine window", () => {
  const limits = DEFAULT_CHARGER_LIMITS;
  const connectTimes = (record: ConnectionRecord, times: number[]) => {
    let current = record;
    const verdicts = times.map((t) => {
      const verdict = admitConnection(current, limits, t);
      current = verdict.record;
      return verdict;
    });
    return { verdicts, record: current };
  };

  it("takes 60 connections within an hour and quarantines at the 61st for an hour", () => {
    const { verdicts, record } = connectTimes(noConnections(), Array.from({ length: 61 }, (_, i) => i * 1000));
    expect(verdicts.slice(0, 60).every((v) => v.admitted)).toBe(true);
    const last = verdicts[60];
    expect(last).toMatchObject({ admitted: false, started: true, until: 60_000 + 3_600_000, retryAfterS: 3600 });
    expect(record).toEqual({ recent: [], quarantinedUntil: 60_000 + 3_600_000, connections: 61 });
  });

  it("counts only the last hour: a connection a minute never quarantines", () => {
    const { verdicts } = connectTimes(noConnections(), Array.from({ length: 200 }, (_, i) => i * 61_000));
    expect(verdicts.every((v) => v.admitted)).toBe(true);
    expect(CONNECTION_WINDOW_MS).toBe(3_600_000);
  });

  it("refuses while quarantined with the seconds left, then starts the count afresh", () => {
    const quarantined: ConnectionRecord = { recent: [], quarantinedUntil: 10_000, connections: 61 };
    expect(admitConnection(quarantined, limits, 500)).toMatchObject({ admitted: false, started: false, retryAfterS: 10 });
    const after = admitConnection(quarantined, limits, 10_000);
    expect(after).toEqual({ admitted: true, released: true, record: { recent: [10_000], quarantinedUntil: null, connections: null } });
  });

  it("uses the operator's numbers", () => {
    const strict = { ...limits, connectionsPerHour: 2, quarantineMinutes: 5 };
    let record = noConnections();
    for (const t of [0, 1]) record = admitConnection(record, strict, t).record;
    expect(admitConnection(record, strict, 2)).toMatchObject({ admitted: false, until: 2 + 300_000, retryAfterS: 300 });
  });

  it("answers Retry-After in whole seconds, at least one", () => {
    expect(retryAfter(1000, 999)).toBe(1);
    expect(retryAfter(1000, 1000)).toBe(1);
    expect(retryAfter(2500, 0)).toBe(3);
  });
});

describe("the meter jump rule", () => {
  const minute = 60_000;
  it("flags energy beyond the connector's power over the elapsed time", () => {
    // 11 kW for a minute is 183 Wh; with the margin about 212 Wh.
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 1180, at: minute }, 11_000)).toBe(false);
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 1300, at: minute }, 11_000)).toBe(true);
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 60_000, at: minute }, 11_000)).toBe(true);
  });

  it("leaves a register that stands still or goes backwards to its own rule, and a reading of the same instant its rounding", () => {
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 1000, at: minute }, 11_000)).toBe(false);
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 900, at: minute }, 11_000)).toBe(false);
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 1010, at: 0 }, 11_000)).toBe(false);
    expect(meterJumped({ wh: 1000, at: 0 }, { wh: 1011, at: 0 }, 11_000)).toBe(true);
  });

  it("checks nothing without a known power", () => {
    expect(meterJumped({ wh: 0, at: 0 }, { wh: 1_000_000, at: 1 }, 0)).toBe(false);
  });
});
