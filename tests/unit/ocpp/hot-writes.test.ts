import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HOT_FLUSH_MS, HotWrites } from "../../../workers/ocpp/hot-writes";
import type { ChargerStore, LogEntry, Sample } from "../../../workers/ocpp/store";

/** A store that records the statements the hot writes would run, in order. */
function recordingStore() {
  const statements: string[] = [];
  const store = {
    insertSamples: (samples: Sample[]) => statements.push(`samples:${samples.length}`),
    appendLog: (entries: LogEntry[]) => statements.push(`log:${entries.length}`),
    settlePendingCall: (id: string) => statements.push(`settle:${id}`),
  } as unknown as ChargerStore;
  return { store, statements };
}

const frame = (n: number): LogEntry => ({ at: n, direction: "IN", type: "CALL", action: "MeterValues", messageId: String(n), message: "[]" });
const sample = { transactionId: 1, connectorId: 1, flagged: false } as Sample;

describe("the hot writes of a charger (docs/performance.md)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("stores a MeterValues' samples at once in one statement, and the log frames of a burst together once a second", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    for (let i = 0; i < 5; i++) {
      hot.frame(frame(i));
      hot.addSamples([sample, sample, sample, sample]);
    }
    expect(statements).toEqual(["samples:4", "samples:4", "samples:4", "samples:4", "samples:4"]);
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements.slice(5)).toEqual(["log:5"]);
  });

  it("removes an answered call's stored row with the next flush, not before", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    hot.settledCall("abc");
    expect(statements).toEqual([]);
    hot.flush();
    expect(statements).toEqual(["log:0", "settle:abc"]);
    hot.flush();
    expect(statements).toHaveLength(2);
  });
});
