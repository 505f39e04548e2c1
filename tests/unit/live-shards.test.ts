import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveEvent } from "../../workers/live/events";
import { HubPusher } from "../../workers/live/hub-pusher";
import { LARGE_OPERATOR_POINTS, liveShardOf, RELAY_SHARDS } from "../../workers/live/shards";

vi.mock("../../workers/http/report-error", () => ({ reportError: vi.fn() }));

const meter = (pointId: number, connectorId: number, energyWh: number): LiveEvent => ({
  type: "meter",
  pointId,
  serialNumber: `P${pointId}`,
  connectorId,
  transactionId: 1,
  energyWh,
  at: 0,
});
const status = (pointId: number, value: string): LiveEvent => ({ type: "connector", pointId, serialNumber: `P${pointId}`, connectorId: 1, status: value, errorCode: "NoError", at: 0 });
const label = (e: LiveEvent) => (e.type === "meter" ? `${e.pointId}/${e.connectorId}:${e.energyWh}` : `${e.pointId}:${e.type}`);

/** A pusher whose sink records each batch, and whose work is awaited by `settled`. */
function pusher(intervalMs = 0) {
  const batches: string[][] = [];
  const work: Promise<unknown>[] = [];
  const p = new HubPusher(
    () => async (events) => {
      batches.push(events.map(label));
    },
    (promise) => work.push(promise),
    intervalMs,
  );
  return { p, batches, settled: () => Promise.all(work) };
}

afterEach(() => vi.useRealTimers());

describe("live shards", () => {
  it("keeps a small operator on its own hub and spreads a large one's stations over the relays", () => {
    expect(liveShardOf(LARGE_OPERATOR_POINTS - 1, 12)).toBe(0);
    const shards = new Set(Array.from({ length: 100 }, (_, stationId) => liveShardOf(LARGE_OPERATOR_POINTS, stationId)));
    expect([...shards].sort((a, b) => a - b)).toEqual(Array.from({ length: RELAY_SHARDS }, (_, i) => i + 1));
    expect(liveShardOf(5000, 17)).toBe(liveShardOf(5000, 17));
  });
});

describe("HubPusher", () => {
  it("sends what queued during a send in one batch, in order", async () => {
    const { p, batches, settled } = pusher();
    p.push(status(1, "a"));
    p.push(status(2, "b"), status(1, "c"));
    await settled();
    expect(batches.flat()).toEqual(["1:connector", "2:connector", "1:connector"]);
    expect(batches.length).toBeLessThanOrEqual(2);
  });

  it("replaces a waiting meter reading of the same connector, unless something of its point came between", async () => {
    vi.useFakeTimers();
    const { p, batches, settled } = pusher(250);
    p.push(meter(1, 1, 100), meter(1, 2, 5), meter(2, 1, 7), meter(1, 1, 200));
    p.push(status(1, "Charging"), meter(1, 1, 300), meter(1, 1, 400));
    await vi.advanceTimersByTimeAsync(250);
    await settled();
    expect(batches).toEqual([["1/2:5", "2/1:7", "1/1:200", "1:connector", "1/1:400"]]);
  });

  it("with an interval, waits that long before each batch", async () => {
    vi.useFakeTimers();
    const { p, batches } = pusher(250);
    p.push(status(1, "a"));
    await vi.advanceTimersByTimeAsync(200);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(batches).toEqual([["1:connector"]]);
  });
});
