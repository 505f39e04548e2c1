import { describe, expect, it } from "vitest";
import {
  OCPP_REQUESTS,
  checkRequest,
  liveReadings,
  normaliseMeterValues,
  parseFrame,
  registerWentBackwards,
  type MeterSample,
  type OcppRequest,
  type SampledValue,
} from "../../../domain/ocpp";

const T = "2026-11-21T10:00:00Z";
const T_UTC = "2026-11-21T10:00:00.000Z";

/** One meterValue at T holding the given sampled values. */
const at = (...sampledValue: SampledValue[]): OcppRequest<"MeterValues">["meterValue"] => [{ timestamp: T, sampledValue }];

/** A normalised sample, as normaliseMeterValues would produce it, for liveReadings. */
function sample(overrides: Partial<MeterSample> & Pick<MeterSample, "measurand" | "value" | "unit">): MeterSample {
  return { timestamp: T_UTC, context: "Sample.Periodic", ...overrides };
}

describe("normaliseMeterValues", () => {
  it("fills in OCPP's defaults: energy register, periodic sample, Wh", () => {
    expect(normaliseMeterValues(at({ value: "1234" }))).toEqual([
      { timestamp: T_UTC, measurand: "Energy.Active.Import.Register", context: "Sample.Periodic", value: 1234, unit: "Wh" },
    ]);
  });

  it.each([
    ["kWh", "12.345", 12345, "Wh"],
    ["kWh", "1.234", 1234, "Wh"],
    ["kWh", "0.1", 100, "Wh"],
    ["kWh", "1.5e3", 1500000, "Wh"],
    ["Wh", "12345.6", 12345.6, "Wh"],
    ["kW", "7.4", 7400, "W"],
    ["kvarh", "2.5", 2500, "varh"],
    ["kvar", "0.3", 300, "var"],
    ["kVA", "11.04", 11040, "VA"],
    ["A", "16", 16, "A"],
    ["Celcius", "21.5", 21.5, "Celsius"],
    ["K", "294.65", 294.65, "K"],
  ] as const)("turns %s %s into %d %s", (unit, value, expected, expectedUnit) => {
    const [normalised] = normaliseMeterValues(at({ value, unit }));
    expect(normalised).toMatchObject({ value: expected, unit: expectedUnit });
  });

  it.each([
    ["Energy.Active.Import.Register", "Wh"],
    ["Energy.Active.Export.Interval", "Wh"],
    ["Energy.Reactive.Import.Register", "varh"],
    ["Power.Active.Import", "W"],
    ["Power.Offered", "W"],
    ["Power.Reactive.Export", "var"],
    ["Power.Factor", ""],
    ["Current.Import", "A"],
    ["Current.Offered", "A"],
    ["Voltage", "V"],
    ["Frequency", "Hz"],
    ["Temperature", "Celsius"],
    ["SoC", "Percent"],
    ["RPM", "RPM"],
  ] as const)("takes the base unit of %s when none is given: %s", (measurand, unit) => {
    expect(normaliseMeterValues(at({ value: "1", measurand }))[0]?.unit).toBe(unit);
  });

  it("keeps phase, location and context, and leaves absent ones out", () => {
    const [phased, plain] = normaliseMeterValues(
      at(
        { value: "230.1", measurand: "Voltage", phase: "L1-N", location: "Outlet", context: "Transaction.Begin" },
        { value: "12", measurand: "Current.Import", context: "Sample.Clock" },
      ),
    );
    expect(phased).toEqual({
      timestamp: T_UTC,
      measurand: "Voltage",
      phase: "L1-N",
      location: "Outlet",
      context: "Transaction.Begin",
      value: 230.1,
      unit: "V",
    });
    expect(plain).toEqual({ timestamp: T_UTC, measurand: "Current.Import", context: "Sample.Clock", value: 12, unit: "A" });
    expect(plain).not.toHaveProperty("phase");
    expect(plain).not.toHaveProperty("location");
  });

  it.each(["Transaction.Begin", "Transaction.End", "Sample.Clock", "Interruption.Begin", "Trigger", "Other"] as const)(
    "keeps the %s context",
    (context) => {
      expect(normaliseMeterValues(at({ value: "1", context }))[0]?.context).toBe(context);
    },
  );

  it("turns timestamps with an offset into UTC", () => {
    const samples = normaliseMeterValues([
      { timestamp: "2026-11-21T12:00:00+02:00", sampledValue: [{ value: "1" }] },
      { timestamp: "2026-11-21T04:30:00.25-05:30", sampledValue: [{ value: "2" }] },
    ]);
    expect(samples.map((s) => s.timestamp)).toEqual([T_UTC, "2026-11-21T10:00:00.250Z"]);
  });

  it("drops SignedData readings, which are not numbers", () => {
    const samples = normaliseMeterValues(at({ value: "1200", format: "SignedData" }, { value: "1200", format: "Raw" }));
    expect(samples).toHaveLength(1);
    expect(samples[0]?.value).toBe(1200);
  });

  it.each(["", " ", "abc", "1,5", "0x10", "NaN", "Infinity", "12kWh", "1e999"])(
    "drops the unreadable value %j and keeps the rest",
    (value) => {
      const samples = normaliseMeterValues(at({ value }, { value: "42", measurand: "SoC" }));
      expect(samples).toEqual([expect.objectContaining({ measurand: "SoC", value: 42 })]);
    },
  );

  it.each([
    [" 12 ", 12],
    ["-3.5", -3.5],
    ["+7", 7],
    [".5", 0.5],
    ["10.", 10],
    ["2E2", 200],
  ])("reads the decimal %j", (value, expected) => {
    expect(normaliseMeterValues(at({ value }))[0]?.value).toBe(expected);
  });

  it("reads the transactionData of a StopTransaction the same way", () => {
    const stop = OCPP_REQUESTS.StopTransaction.parse({
      meterStop: 20000,
      timestamp: T,
      transactionId: 1,
      transactionData: [{ timestamp: T, sampledValue: [{ value: "20", unit: "kWh", context: "Transaction.End" }] }],
    });
    expect(normaliseMeterValues(stop.transactionData ?? [])).toEqual([
      { timestamp: T_UTC, measurand: "Energy.Active.Import.Register", context: "Transaction.End", value: 20000, unit: "Wh" },
    ]);
  });

  it("keeps the energy register beside a frequency in Hertz (errata v4.0), lower-case t and z included", () => {
    const request = checkRequest("MeterValues", {
      connectorId: 1,
      meterValue: [
        {
          timestamp: "2026-11-21t10:00:00z",
          sampledValue: [
            { value: "50.02", measurand: "Frequency", unit: "Hertz" },
            { value: "2.5", unit: "kWh" },
          ],
        },
      ],
    });
    expect(request.ok).toBe(true);
    if (!request.ok) return;
    expect(normaliseMeterValues(request.value.meterValue)).toEqual([
      { timestamp: T_UTC, measurand: "Frequency", context: "Sample.Periodic", value: 50.02, unit: "Hz" },
      { timestamp: T_UTC, measurand: "Energy.Active.Import.Register", context: "Sample.Periodic", value: 2500, unit: "Wh" },
    ]);
  });

  it("goes from a charger's frame to live readings", () => {
    const parsed = parseFrame(
      JSON.stringify([
        2,
        "m7",
        "MeterValues",
        {
          connectorId: 1,
          transactionId: 12,
          meterValue: [
            {
              timestamp: "2026-11-21T11:00:05+01:00",
              sampledValue: [
                { value: "15.234", unit: "kWh" },
                { value: "11.04", measurand: "Power.Active.Import", unit: "kW" },
                { value: "16.0", measurand: "Current.Import", phase: "L1" },
                { value: "16.1", measurand: "Current.Import", phase: "L2" },
                { value: "15.9", measurand: "Current.Import", phase: "L3" },
                { value: "62", measurand: "SoC", location: "EV" },
              ],
            },
          ],
        },
      ]),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok || parsed.frame[0] !== 2) return;
    const request = checkRequest("MeterValues", parsed.frame[3]);
    expect(request.ok).toBe(true);
    if (!request.ok) return;
    const live = liveReadings(normaliseMeterValues(request.value.meterValue));
    expect(live).toEqual({ energyWh: 15234, powerW: 11040, currentA: expect.closeTo(48, 9), soc: 62 });
  });
});

describe("liveReadings", () => {
  it("is empty when there is nothing to read", () => {
    expect(liveReadings([])).toEqual({});
  });

  it("prefers the total to the per-phase values", () => {
    const live = liveReadings([
      sample({ measurand: "Power.Active.Import", phase: "L1", value: 3000, unit: "W" }),
      sample({ measurand: "Power.Active.Import", value: 7400, unit: "W" }),
      sample({ measurand: "Power.Active.Import", phase: "L2", value: 3000, unit: "W" }),
    ]);
    expect(live.powerW).toBe(7400);
  });

  it("adds up power and current per phase when no total is given, without the neutral", () => {
    const live = liveReadings([
      sample({ measurand: "Power.Active.Import", phase: "L1-N", value: 3680, unit: "W" }),
      sample({ measurand: "Power.Active.Import", phase: "L2-N", value: 3680, unit: "W" }),
      sample({ measurand: "Power.Active.Import", phase: "L3-N", value: 3680, unit: "W" }),
      sample({ measurand: "Current.Import", phase: "L1", value: 16, unit: "A" }),
      sample({ measurand: "Current.Import", phase: "L2", value: 15, unit: "A" }),
      sample({ measurand: "Current.Import", phase: "N", value: 1, unit: "A" }),
    ]);
    expect(live).toEqual({ powerW: 11040, currentA: 31 });
  });

  it("averages line-to-neutral voltages, and uses line-to-line ones only when there are no others", () => {
    const neutral = liveReadings([
      sample({ measurand: "Voltage", phase: "L1-N", value: 229, unit: "V" }),
      sample({ measurand: "Voltage", phase: "L2-N", value: 231, unit: "V" }),
      sample({ measurand: "Voltage", phase: "L1-L2", value: 400, unit: "V" }),
    ]);
    expect(neutral.voltageV).toBe(230);
    const lineToLine = liveReadings([
      sample({ measurand: "Voltage", phase: "L1-L2", value: 398, unit: "V" }),
      sample({ measurand: "Voltage", phase: "L2-L3", value: 402, unit: "V" }),
    ]);
    expect(lineToLine.voltageV).toBe(400);
  });

  it("takes the latest reading of each measurand", () => {
    const live = liveReadings([
      sample({ measurand: "Energy.Active.Import.Register", value: 2000, unit: "Wh", timestamp: "2026-11-21T10:01:00.000Z" }),
      sample({ measurand: "Energy.Active.Import.Register", value: 1000, unit: "Wh", timestamp: "2026-11-21T10:00:00.000Z" }),
      sample({ measurand: "SoC", value: 40, unit: "Percent", timestamp: "2026-11-21T10:00:00.000Z" }),
      sample({ measurand: "SoC", value: 41, unit: "Percent", timestamp: "2026-11-21T10:00:30.000Z" }),
      sample({ measurand: "Power.Active.Import", phase: "L1", value: 1000, unit: "W", timestamp: "2026-11-21T10:00:00.000Z" }),
      sample({ measurand: "Power.Active.Import", phase: "L1", value: 1500, unit: "W", timestamp: "2026-11-21T10:00:30.000Z" }),
      sample({ measurand: "Power.Active.Import", phase: "L2", value: 1400, unit: "W", timestamp: "2026-11-21T10:00:30.000Z" }),
    ]);
    expect(live).toEqual({ energyWh: 2000, soc: 41, powerW: 2900 });
  });

  it("reads energy from the total import register only", () => {
    const live = liveReadings([
      sample({ measurand: "Energy.Active.Import.Register", phase: "L1", value: 500, unit: "Wh" }),
      sample({ measurand: "Energy.Active.Export.Register", value: 900, unit: "Wh" }),
      sample({ measurand: "Energy.Active.Import.Interval", value: 100, unit: "Wh" }),
    ]);
    expect(live.energyWh).toBeUndefined();
  });

  it("ignores readings in a unit that does not fit the measurand", () => {
    const live = liveReadings([
      sample({ measurand: "Energy.Active.Import.Register", value: 12, unit: "varh" }),
      sample({ measurand: "Power.Active.Import", value: 5, unit: "VA" }),
    ]);
    expect(live).toEqual({});
  });

  it("accepts samples read back from storage, with plain strings", () => {
    const stored = [{ timestamp: T_UTC, measurand: "Energy.Active.Import.Register", unit: "Wh", value: 77 }];
    expect(liveReadings(stored)).toEqual({ energyWh: 77 });
  });
});

describe("registerWentBackwards", () => {
  it.each([
    [undefined, 0, false],
    [1000, 1000, false],
    [1000, 1001, false],
    [1000, 999, true],
    [1000, 0, true],
  ])("from %s Wh to %d Wh: %s", (previous, next, expected) => {
    expect(registerWentBackwards(previous, next)).toBe(expected);
  });
});
