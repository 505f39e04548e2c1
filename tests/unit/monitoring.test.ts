import { describe, expect, it } from "vitest";
import { canStart, canStop, CONNECTOR_STATUSES, deviceState, displayClass, shownStatus } from "../../domain/connector-status";
import { calendarOf, localMidnight, utcToZoned, zonedToUtc } from "../../domain/time";
import { lastRegisterWh, meterCurve, powerHistory, thin, type StoredSample } from "../../workers/services/monitoring/meter-curve";

describe("connector display classes", () => {
  it.each([
    ["Available", "success"],
    ["Preparing", "success"],
    ["Charging", "success"],
    ["Finishing", "success"],
    ["Reserved", "success"],
    ["SuspendedEVSE", "danger"],
    ["SuspendedEV", "danger"],
    ["Unavailable", "danger"],
    ["Faulted", "danger"],
    ["OtherError", "danger"],
    [null, "info"],
    ["", "info"],
  ] as const)("draws %s as %s", (status, expected) => {
    expect(displayClass(status)).toBe(expected);
  });

  it("offers a start only from Available or Preparing and a stop only while Charging", () => {
    expect(CONNECTOR_STATUSES.filter(canStart)).toEqual(["Available", "Preparing"]);
    expect(CONNECTOR_STATUSES.filter(canStop)).toEqual(["Charging"]);
    expect(canStart(null)).toBe(false);
    expect(canStop(null)).toBe(false);
  });

  it("shows no status for the connectors of an offline point", () => {
    expect(shownStatus(false, "Charging")).toBeNull();
    expect(shownStatus(true, "Charging")).toBe("Charging");
    expect(shownStatus(true, null)).toBeNull();
  });

  it("calls a point offline, in fault when a connector is Faulted, online otherwise", () => {
    expect(deviceState(false, ["Faulted"])).toBe("offline");
    expect(deviceState(true, ["Available", "Faulted"])).toBe("fault");
    expect(deviceState(true, ["Available", "Charging", null])).toBe("online");
  });
});

describe("days in the operator's time zone", () => {
  it("finds local midnight across daylight saving time", () => {
    expect(new Date(localMidnight(2026, 1, 15, "Europe/Warsaw")).toISOString()).toBe("2026-01-14T23:00:00.000Z");
    expect(new Date(localMidnight(2026, 7, 15, "Europe/Warsaw")).toISOString()).toBe("2026-07-14T22:00:00.000Z");
    expect(new Date(localMidnight(2026, 3, 29, "Europe/Warsaw")).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(new Date(localMidnight(2026, 3, 30, "Europe/Warsaw")).toISOString()).toBe("2026-03-29T22:00:00.000Z");
    expect(new Date(localMidnight(2026, 5, 1, "Asia/Kolkata")).toISOString()).toBe("2026-04-30T18:30:00.000Z");
  });

  it("starts today and the month at local midnight and lists the last days oldest first", () => {
    // 00:30 in Warsaw on 1 May is still 30 April in UTC.
    const now = Date.parse("2026-04-30T22:30:00Z");
    const { todayStart, monthStart, dayStarts } = calendarOf(now, "Europe/Warsaw", 3);
    expect(new Date(todayStart).toISOString()).toBe("2026-04-30T22:00:00.000Z");
    expect(monthStart).toBe(todayStart);
    expect(dayStarts.map((d) => d.key)).toEqual(["2026-04-29", "2026-04-30", "2026-05-01"]);
  });

  it("reads and writes the wall-clock times of a datetime-local field", () => {
    expect(new Date(zonedToUtc("2026-07-01T08:30", "Europe/Warsaw")!).toISOString()).toBe("2026-07-01T06:30:00.000Z");
    expect(zonedToUtc("yesterday", "Europe/Warsaw")).toBeUndefined();
    expect(utcToZoned(Date.parse("2026-07-01T06:30:00Z"), "Europe/Warsaw")).toBe("2026-07-01T08:30");
  });
});

const sample = (ts: string, measurand: string, value: number, unit: string, phase: string | null = null, flagged = 0): StoredSample => ({
  ts,
  measurand,
  value,
  unit,
  phase,
  flagged,
});

describe("meter curves", () => {
  const t1 = "2026-05-01T10:00:00.000Z";
  const t2 = "2026-05-01T10:01:00.000Z";
  const t3 = "2026-05-01T10:02:00.000Z";

  it("gives one point per instant with energy since the start and summed phases", () => {
    const samples = [
      sample(t2, "Energy.Active.Import.Register", 10_900, "Wh"),
      sample(t2, "Power.Active.Import", 3000, "W", "L1"),
      sample(t2, "Power.Active.Import", 3100, "W", "L2"),
      sample(t1, "Energy.Active.Import.Register", 10_000, "Wh"),
      sample(t1, "SoC", 40, "Percent"),
    ];
    expect(meterCurve(samples, 10_000)).toEqual([
      { at: t1, energyWh: 0, soc: 40 },
      { at: t2, energyWh: 900, powerW: 6100 },
    ]);
  });

  it("leaves out a register that went backwards and knows the last good one", () => {
    const samples = [
      sample(t1, "Energy.Active.Import.Register", 500, "Wh"),
      sample(t2, "Energy.Active.Import.Register", 900, "Wh"),
      sample(t3, "Energy.Active.Import.Register", 100, "Wh", null, 1),
    ];
    expect(meterCurve(samples, 0).map((p) => p.energyWh)).toEqual([500, 900]);
    expect(lastRegisterWh(samples)).toBe(900);
  });

  it("thins a long session evenly and keeps its ends", () => {
    const list = Array.from({ length: 1001 }, (_, i) => i);
    const thinned = thin(list, 11);
    expect(thinned).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(thin([1, 2, 3], 11)).toEqual([1, 2, 3]);
  });

  it("sums a station's sessions step by step, each with its latest reading", () => {
    const from = Date.parse(t1);
    const a = { samples: [sample(t1, "Power.Active.Import", 7000, "W"), sample(t3, "Power.Active.Import", 9000, "W")] };
    const b = { samples: [sample(t2, "Power.Active.Import", 11_000, "W")] };
    const history = powerHistory([a, b], from - 60_000, from + 150_000, 60_000);
    expect(history.map((h) => h.powerW)).toEqual([0, 7000, 18_000, 20_000, 20_000]);
    expect(history.at(-1)!.at).toBe(new Date(from + 150_000).toISOString());
  });
});
