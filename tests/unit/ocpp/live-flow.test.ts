import { describe, expect, it, vi } from "vitest";
import { liveOnline, liveStatus } from "../../../app/components/live/live-state";
import { LiveStore, type LiveEvent } from "../../../app/lib/live";
import { endsFlow, withoutFlow } from "../../../domain/ocpp";

const point = { pointId: 7, serialNumber: "CP-7" };
const meter: LiveEvent = { type: "meter", ...point, connectorId: 1, transactionId: 41, energyWh: 12_500, powerW: 102_000, currentA: 148.7, voltageV: 400, soc: 20, at: 1 };
const status = (value: string): LiveEvent => ({ type: "connector", ...point, connectorId: 1, status: value, errorCode: "NoError", at: 2 });
const stop: LiveEvent = { type: "transaction", ...point, connectorId: 1, transactionId: 41, phase: "stop", meterWh: 12_600, at: 3 };

describe("endsFlow and withoutFlow", () => {
  it.each([
    [stop, true],
    [{ ...stop, phase: "start" }, false],
    [status("Finishing"), true],
    [status("Available"), true],
    [status("Faulted"), true],
    [status("Charging"), false],
    [status("SuspendedEV"), false],
    [status("SuspendedEVSE"), false],
    [meter, false],
  ] as const)("%o ends the flow readings: %s", (event, expected) => {
    expect(endsFlow(event)).toBe(expected);
  });

  it("drops power, current, voltage and SoC and keeps the energy register", () => {
    expect(withoutFlow({ energyWh: 1, powerW: 2, currentA: 3, voltageV: 4, soc: 5, transactionId: 9 })).toEqual({ energyWh: 1, transactionId: 9 });
  });
});

describe("the console's live store", () => {
  const connectorAfter = (...events: LiveEvent[]) => {
    const store = new LiveStore();
    store.applySnapshot(events);
    return store.getSnapshot().get(point.pointId)?.connectors[1];
  };

  it("clears power, current, voltage and SoC when the transaction stops", () => {
    const connector = connectorAfter(status("Charging"), meter, stop);
    expect(connector).toMatchObject({ energyWh: 12_500, transactionId: null });
    expect(connector).not.toHaveProperty("powerW");
    expect(connector).not.toHaveProperty("currentA");
    expect(connector).not.toHaveProperty("voltageV");
    expect(connector).not.toHaveProperty("soc");
  });

  it("clears them when the connector leaves Charging, SuspendedEV and SuspendedEVSE, and keeps them while suspended", () => {
    expect(connectorAfter(status("Charging"), meter, status("SuspendedEV"))).toMatchObject({ powerW: 102_000, soc: 20 });
    const finishing = connectorAfter(status("Charging"), meter, status("Finishing"));
    expect(finishing).toMatchObject({ status: "Finishing", energyWh: 12_500 });
    expect(finishing).not.toHaveProperty("powerW");
  });

  it("keeps every other point as it was when an event names one, so only that point's panel renders again", () => {
    const store = new LiveStore();
    const other = { pointId: 8, serialNumber: "CP-8" };
    store.applySnapshot([status("Charging"), { ...status("Available"), ...other }]);
    const before = store.getSnapshot();
    store.apply(meter);
    const after = store.getSnapshot();
    expect(after).not.toBe(before);
    expect(after.get(other.pointId)).toBe(before.get(other.pointId));
    expect(after.get(point.pointId)).not.toBe(before.get(point.pointId));
    store.setConnected(true);
    expect(store.getSnapshot().get(point.pointId)).toBe(after.get(point.pointId));
  });

  it("tells its readers once a frame however many events came, each event's listeners at once, and reads the present at any time", () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    try {
      const store = new LiveStore();
      let renders = 0;
      const heard: LiveEvent[] = [];
      store.subscribe(() => renders++);
      store.onEvent((event) => heard.push(event));
      const unchanged = store.getSnapshot();
      expect(store.getSnapshot()).toBe(unchanged);
      const storm = Array.from({ length: 100 }, (_, i): LiveEvent => ({ ...status(i % 2 ? "Charging" : "Available"), pointId: i, serialNumber: `CP-${i}` }));
      for (const event of storm) store.apply(event);
      expect(heard).toHaveLength(100);
      expect(renders).toBe(0);
      expect(frames).toHaveLength(1);
      expect(store.getSnapshot().size).toBe(100);
      expect(store.getSnapshot().get(99)?.connectors[1]?.status).toBe("Charging");
      frames.shift()!(0);
      expect(renders).toBe(1);
      store.apply(meter);
      expect(frames).toHaveLength(1);
      frames.shift()!(0);
      expect(renders).toBe(2);
      expect(store.getSnapshot().get(point.pointId)?.connectors[1]?.powerW).toBe(102_000);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("takes a point's connection from its online events only: a status that lands after the charger left does not bring it back", () => {
    const store = new LiveStore();
    // Heard only through a status, the point's connection is the loader's to say.
    store.apply(status("Available"));
    expect(store.getSnapshot().get(point.pointId)?.online).toBeUndefined();
    expect(liveOnline(store.getSnapshot().get(point.pointId), true)).toBe(true);
    store.apply({ type: "point", ...point, online: true, at: 10 });
    store.apply({ type: "point", ...point, online: false, at: 11 });
    // The charger's last status, landed in D1 and sent by the writer after the socket closed.
    store.apply(status("Charging"));
    const live = store.getSnapshot().get(point.pointId);
    expect(live?.online).toBe(false);
    expect(liveOnline(live, true)).toBe(false);
    expect(liveStatus(live, true, 1, "Available")).toBeNull();
  });
});
