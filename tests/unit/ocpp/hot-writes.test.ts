import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HOT_FLUSH_MS, HotWrites, parkedBytes } from "../../../workers/ocpp/hot-writes";
import type { ChargerStore, LogEntry, Sample, SentCall } from "../../../workers/ocpp/store";

/** A store that records the statements the hot writes would run, in order. */
function recordingStore() {
  const statements: string[] = [];
  const store = {
    insertSamples: (samples: Sample[]) => statements.push(`samples:${samples.length}`),
    appendLog: (entries: LogEntry[]) => statements.push(`log:${entries.length}`),
    settlePendingCall: (id: string) => statements.push(`settle:${id}`),
    addPendingCall: (call: SentCall) => statements.push(`call:${call.id}`),
  } as unknown as ChargerStore;
  return { store, statements };
}

const frame = (n: number): LogEntry => ({ at: n, direction: "IN", type: "CALL", action: "MeterValues", messageId: String(n), message: "[]" });
const sample = { transactionId: 1, connectorId: 1, flagged: false } as Sample;

describe("the hot writes of a charger (docs/performance.md)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("stores a MeterValues' samples at once in one row, and its frames right after its answer, in the same commit", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    for (let i = 0; i < 3; i++) {
      hot.frame(frame(2 * i));
      hot.addSamples([sample, sample, sample, sample]);
      hot.frame(frame(2 * i + 1));
      hot.answered();
    }
    expect(statements).toEqual(["samples:4", "log:2", "samples:4", "log:2", "samples:4", "log:2"]);
    // Nothing is left for the timer.
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toHaveLength(6);
  });

  it("keeps the frames of answers that write nothing (Heartbeats) for one multi-row insert a second later", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    for (let i = 0; i < 5; i++) {
      hot.frame(frame(2 * i));
      hot.frame(frame(2 * i + 1));
      hot.answered();
    }
    expect(statements).toEqual([]);
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual(["log:10"]);
  });

  it("parks a queued change's frames with the socket when they fit, and sends them with the change when they do not", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    hot.frame(frame(1));
    hot.wrote();
    hot.frame(frame(2));
    hot.answered(() => true);
    expect(statements).toEqual([]);
    hot.frame(frame(3));
    hot.wrote();
    hot.answered(() => false);
    expect(statements).toEqual(["log:3"]);
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

  it("writes a sent call's row with the next flush, and never when its answer comes first", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    hot.sentCall({ id: "fast", action: "RemoteStartTransaction", deadline: 1 });
    hot.settledCall("fast");
    hot.sentCall({ id: "slow", action: "RemoteStartTransaction", deadline: 1 });
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual(["log:0", "call:slow"]);
    hot.settledCall("slow");
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual(["log:0", "call:slow", "log:0", "settle:slow"]);
  });

  it("parks the frames of answers that write nothing with the socket, and lets go of them once storage has them", () => {
    const { store, statements } = recordingStore();
    const parked: (readonly LogEntry[])[] = [];
    let released = 0;
    const hot = new HotWrites(store, () => released++);
    const park = (frames: readonly LogEntry[], bytes: number) => (parked.push([...frames]), bytes <= 4 * parkedBytes(frame(0)));
    for (let i = 0; i < 2; i++) {
      hot.frame(frame(2 * i));
      hot.frame(frame(2 * i + 1));
      hot.answered(park);
    }
    // Parked, not written, and nothing waits for the timer.
    expect(parked.map((p) => p.length)).toEqual([2, 4]);
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual([]);
    // Too many to park: the timer takes them to storage, and the socket lets go of what it held.
    hot.frame(frame(4));
    hot.frame(frame(5));
    hot.answered(park);
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual(["log:6"]);
    expect(released).toBe(1);
  });

  it("arms no timer for the frames of a message being answered, and one when they can neither join a write nor be parked", () => {
    const { store, statements } = recordingStore();
    const hot = new HotWrites(store);
    // The fake clock's own count: spying on the global setTimeout would outlive the fake timers.
    hot.frame(frame(1), true);
    hot.frame(frame(2), true);
    hot.answered(() => true);
    expect(vi.getTimerCount()).toBe(0);
    hot.frame(frame(3), true);
    hot.frame(frame(4), true);
    hot.answered(() => false);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual(["log:4"]);
    // A frame no answer follows (a charger's reply to a call) arms the timer itself.
    hot.frame(frame(5));
    vi.advanceTimersByTime(HOT_FLUSH_MS);
    expect(statements).toEqual(["log:4", "log:1"]);
  });

  it("tells parking what the frames waiting take in an attachment, counting characters beyond Latin-1 twice", () => {
    const ascii = { ...frame(1), message: "x".repeat(100) };
    const wide = { ...frame(1), message: "ż".repeat(100) };
    expect(parkedBytes(wide) - parkedBytes(ascii)).toBe(100);
    const { store } = recordingStore();
    const hot = new HotWrites(store);
    const told: number[] = [];
    hot.frame(ascii, true);
    hot.answered((_frames, bytes) => (told.push(bytes), true));
    hot.restore([wide]);
    hot.frame(ascii, true);
    hot.answered((_frames, bytes) => (told.push(bytes), true));
    expect(told).toEqual([parkedBytes(ascii), 2 * parkedBytes(ascii) + parkedBytes(wide)]);
    hot.flush();
    hot.frame(ascii, true);
    hot.answered((_frames, bytes) => (told.push(bytes), true));
    expect(told[2]).toBe(parkedBytes(ascii));
  });

  it("puts frames parked before a hibernation back first, and writes them with the next write", () => {
    const { store, statements } = recordingStore();
    const written: LogEntry[][] = [];
    (store as unknown as { appendLog: (e: LogEntry[]) => void }).appendLog = (entries) => (written.push(entries), statements.push(`log:${entries.length}`));
    let released = 0;
    const hot = new HotWrites(store, () => released++);
    hot.frame(frame(10));
    hot.restore([frame(1), frame(2)]);
    hot.addSamples([sample]);
    hot.answered(() => true);
    expect(statements).toEqual(["samples:1", "log:3"]);
    expect(written[0].map((e) => e.at)).toEqual([1, 2, 10]);
    expect(released).toBe(1);
  });
});
