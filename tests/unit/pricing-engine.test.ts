import { describe, expect, it } from "vitest";
import {
  energyBySlot,
  priceSession,
  registerSeries,
  sampleSession,
  slotProblem,
  slotSegments,
  halfHourTable,
  type PricingInput,
  type SessionFacts,
  type StrategyPrices,
} from "../../domain/pricing";

/**
 * The pricing engine, table by table (docs/rules/pricing.md "The engine"). Times are written in
 * UTC; Warsaw is UTC+1 in winter and UTC+2 in summer, so each case says the local time it means.
 */
const WARSAW = "Europe/Warsaw";
const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;
const M = 60_000;

const flat = (price: string): StrategyPrices => ({
  electricity: { slots: [{ start: "00:00", end: "24:00", price }] },
  service: { unit: "NONE", slots: [] },
  idle: { before: null, during: null, after: null },
});

/** Night 00:00–06:00 at 0.40, day 06:00–22:00 at 1.20, evening 22:00–24:00 at 0.80. */
const timeOfUse: StrategyPrices = {
  ...flat("0"),
  electricity: {
    slots: [
      { start: "00:00", end: "06:00", price: "0.4000" },
      { start: "06:00", end: "22:00", price: "1.2000" },
      { start: "22:00", end: "24:00", price: "0.8000" },
    ],
  },
};

const session = (from: string, to: string, wh: number, extra: Partial<SessionFacts> = {}): SessionFacts => ({
  startAt: at(from),
  stopAt: at(to),
  meterStartWh: 1000,
  meterStopWh: 1000 + wh,
  ...extra,
});

const price = (prices: StrategyPrices, facts: SessionFacts, extra: Partial<PricingInput> = {}) =>
  priceSession({ prices, session: facts, timeZone: WARSAW, currencyDecimals: 2, ...extra });

describe("electricity by slot, in the station's local time", () => {
  it.each([
    ["a flat price", flat("0.5000"), "2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", 10_000, 500],
    // 05:30–06:30 local: half the energy at night, half by day.
    ["across a slot boundary", timeOfUse, "2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 10_000, 5 * 40 + 5 * 120],
    // 06:00–07:00 local: a session that starts on the boundary is all day price.
    ["starting on a boundary", timeOfUse, "2025-01-15T05:00:00Z", "2025-01-15T06:00:00Z", 10_000, 10 * 120],
    // 23:00–01:00 local: evening then night, across midnight.
    ["across midnight", timeOfUse, "2025-01-15T22:00:00Z", "2025-01-16T00:00:00Z", 8_000, 4 * 80 + 4 * 40],
    // 21:00 local to 07:00 the next morning: day, evening, night, day.
    ["through a whole night", timeOfUse, "2025-01-15T20:00:00Z", "2025-01-16T06:00:00Z", 10_000, 120 + 160 + 240 + 120],
  ])("%s", (_, prices, from, to, wh, expected) => {
    const priced = price(prices, session(from, to, wh));
    expect(priced.electricCost).toBe(expected);
    expect(priced.totalCost).toBe(expected);
    expect(priced.energyWh).toBe(wh);
  });

  it("follows the meter samples instead of assuming a steady rate", () => {
    // 05:00–07:00 local: 1 kWh before 06:00, 4 kWh after.
    const facts = session("2025-01-15T04:00:00Z", "2025-01-15T06:00:00Z", 5_000, { samples: [{ at: at("2025-01-15T05:00:00Z"), wh: 2_000 }] });
    const priced = price(timeOfUse, facts);
    expect(priced.lines.map((l) => [l.start, l.quantity, l.amount])).toEqual([
      ["00:00", "1.000", 40],
      ["06:00", "4.000", 480],
    ]);
    expect(priced.electricCost).toBe(520);
  });

  it("interpolates linearly between samples that straddle a boundary", () => {
    // Samples at 05:45 and 06:15 local: the 600 Wh between them are split 300/300 at 06:00.
    const facts = session("2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 1_200, {
      samples: [
        { at: at("2025-01-15T04:45:00Z"), wh: 1_300 },
        { at: at("2025-01-15T05:15:00Z"), wh: 1_900 },
      ],
    });
    const bySlot = energyBySlot(facts, timeOfUse.electricity.slots, WARSAW);
    expect(Object.fromEntries(bySlot)).toEqual({ 0: 300 + 300, 1: 300 + 300 });
  });

  it("splits whole watt-hours that add up exactly", () => {
    const facts = session("2025-01-15T04:50:00Z", "2025-01-15T05:20:00Z", 1_001);
    const bySlot = energyBySlot(facts, timeOfUse.electricity.slots, WARSAW);
    expect(bySlot.get(0)).toBe(334);
    expect(bySlot.get(1)).toBe(667);
  });
});

describe("daylight saving in Europe/Warsaw", () => {
  it("prices the spring change by real time: 01:00 CET to 04:00 CEST is two hours, one each side of 03:00", () => {
    const prices: StrategyPrices = {
      ...flat("0"),
      electricity: {
        slots: [
          { start: "00:00", end: "03:00", price: "1.0000" },
          { start: "03:00", end: "24:00", price: "2.0000" },
        ],
      },
    };
    const priced = price(prices, session("2025-03-30T00:00:00Z", "2025-03-30T02:00:00Z", 2_000));
    expect(priced.lines.map((l) => [l.start, l.quantity])).toEqual([
      ["00:00", "1.000"],
      ["03:00", "1.000"],
    ]);
    expect(priced.electricCost).toBe(100 + 200);
  });

  it("prices the autumn change by real time: the repeated hour 02:00–03:00 is priced twice", () => {
    const prices: StrategyPrices = {
      ...flat("0"),
      electricity: {
        slots: [
          { start: "00:00", end: "02:00", price: "1.0000" },
          { start: "02:00", end: "03:00", price: "3.0000" },
          { start: "03:00", end: "24:00", price: "2.0000" },
        ],
      },
    };
    // 01:00 CEST (23:00 UTC) to 03:00 CET (02:00 UTC): three real hours.
    const priced = price(prices, session("2025-10-25T23:00:00Z", "2025-10-26T02:00:00Z", 3_000));
    expect(priced.lines.map((l) => [l.start, l.quantity])).toEqual([
      ["00:00", "1.000"],
      ["02:00", "2.000"],
    ]);
    expect(priced.electricCost).toBe(100 + 600);
  });

  it("cuts the day at local boundaries on both change days", () => {
    const table = halfHourTable(timeOfUse.electricity.slots);
    const spring = slotSegments(table, at("2025-03-29T23:00:00Z"), at("2025-03-30T22:00:00Z"), WARSAW);
    // Local midnight to midnight of a 23-hour day: night ends at 06:00 CEST = 04:00 UTC.
    expect(spring.map((s) => [new Date(s.from).toISOString(), s.slot])).toEqual([
      ["2025-03-29T23:00:00.000Z", 0],
      ["2025-03-30T04:00:00.000Z", 1],
      ["2025-03-30T20:00:00.000Z", 2],
    ]);
    const autumn = slotSegments(table, at("2025-10-25T22:00:00Z"), at("2025-10-26T23:00:00Z"), WARSAW);
    // A 25-hour day: night ends at 06:00 CET = 05:00 UTC, evening starts at 22:00 CET = 21:00 UTC.
    expect(autumn.map((s) => [new Date(s.from).toISOString(), s.slot])).toEqual([
      ["2025-10-25T22:00:00.000Z", 0],
      ["2025-10-26T05:00:00.000Z", 1],
      ["2025-10-26T21:00:00.000Z", 2],
    ]);
  });
});

describe("service fees, every unit", () => {
  const withService = (unit: StrategyPrices["service"]["unit"]): StrategyPrices => ({
    ...flat("0"),
    service: {
      unit,
      slots: [
        { start: "00:00", end: "06:00", price: "0.1000" },
        { start: "06:00", end: "24:00", price: "0.3000" },
      ],
    },
  });

  it.each([
    // 05:30–06:30 local, 10 kWh, 60 minutes.
    ["NONE", "2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 0],
    ["COUNT: once, at the price in force at the start", "2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 10],
    ["KWH: per kWh by slot (time-sharing)", "2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 5 * 10 + 5 * 30],
    ["MINUTE: each started minute at the slot it begins in", "2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 30 * 10 + 30 * 30],
    ["HOUR: each started hour at the slot it begins in", "2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 10],
  ])("%s", (label, from, to, expected) => {
    const unit = label.split(":")[0] as StrategyPrices["service"]["unit"];
    const priced = price(withService(unit), session(from, to, 10_000));
    expect(priced.serviceCost).toBe(expected);
    expect(priced.electricCost).toBe(0);
  });

  it("counts every started minute of a three-day session at its slot's price", () => {
    // Three local days from midnight: 3 × 6 h at night (0.10) and 3 × 18 h by day (0.30).
    const start = at("2025-01-14T23:00:00Z");
    const priced = price(withService("MINUTE"), { startAt: start, stopAt: start + 72 * H, meterStartWh: 0, meterStopWh: 0 });
    expect(priced.lines.map((l) => [l.start, l.quantity])).toEqual([
      ["00:00", String(3 * 360)],
      ["06:00", String(3 * 1080)],
    ]);
    expect(priced.serviceCost).toBe(3 * 360 * 10 + 3 * 1080 * 30);
  });

  it.each([
    ["MINUTE", 61 * M + 1000, 62 * 30],
    ["MINUTE", 60 * M, 60 * 30],
    ["HOUR", 61 * M, 2 * 30],
    ["HOUR", 60 * M, 30],
    ["HOUR", 0, 0],
  ])("bills %s per started unit: %i ms is %i", (unit, ms, expected) => {
    const start = at("2025-01-15T09:00:00Z");
    const priced = price(withService(unit as "MINUTE"), { startAt: start, stopAt: start + ms, meterStartWh: 0, meterStopWh: 100 });
    expect(priced.serviceCost).toBe(expected);
  });
});

describe("idle fees", () => {
  const idle = (overrides: Partial<StrategyPrices["idle"]>): StrategyPrices => ({ ...flat("0"), idle: { before: null, during: null, after: null, ...overrides } });
  const start = at("2025-01-15T09:00:00Z");
  const stop = start + 2 * H;
  const base: SessionFacts = { startAt: start, stopAt: stop, meterStartWh: 0, meterStopWh: 5_000 };

  it("charges a reservation from its start until the session starts, less free minutes, per started minute", () => {
    const priced = price(idle({ before: { unit: "MINUTE", price: "0.5000", freeMinutes: 5 } }), { ...base, reservationStartAt: start - 20 * M - 30_000 });
    // 20.5 minutes − 5 free = 15.5 → 16 started minutes × 0.50.
    expect(priced.reservationCost).toBe(800);
    expect(priced.occupancyCost).toBe(0);
    expect(priced.lines.find((l) => l.kind === "RESERVATION")).toMatchObject({ quantity: "16", unit: "MINUTE", freeMinutes: 5, idleSeconds: 1230 });
  });

  it("charges the suspended minutes inside the session", () => {
    const statuses = [
      { at: start - M, status: "Preparing" },
      { at: start, status: "Charging" },
      { at: start + 10 * M, status: "SuspendedEV" },
      { at: start + 20 * M, status: "Charging" },
      { at: start + 90 * M, status: "SuspendedEVSE" },
      { at: stop + 5 * M, status: "Finishing" },
    ];
    // 10 + 30 = 40 suspended minutes inside the session (the last 5 fall after the stop); 2 free.
    const priced = price(idle({ during: { unit: "MINUTE", price: "0.1000", freeMinutes: 2 } }), { ...base, statuses });
    expect(priced.occupancyCost).toBe(38 * 10);
  });

  it("counts a suspension that began before the session as starting with it", () => {
    const statuses = [{ at: start - 10 * M, status: "SuspendedEVSE" }, { at: start + 15 * M, status: "Charging" }];
    const priced = price(idle({ during: { unit: "HOUR", price: "6.0000", freeMinutes: 0 } }), { ...base, statuses });
    expect(priced.occupancyCost).toBe(600);
  });

  it.each([
    ["per started hour, less free minutes", { unit: "HOUR" as const, price: "10.0000", freeMinutes: 10 }, 2 * H + 10 * M, 2_000, false],
    ["per started minute", { unit: "MINUTE" as const, price: "0.2500", freeMinutes: 0 }, 10 * M + 1, 11 * 25, false],
    ["nothing within the free minutes", { unit: "MINUTE" as const, price: "1.0000", freeMinutes: 30 }, 29 * M, 0, false],
    ["capped at capAmount", { unit: "MINUTE" as const, price: "1.0000", freeMinutes: 0, capAmount: 5_000 }, 100 * M, 5_000, true],
    ["under the cap", { unit: "MINUTE" as const, price: "1.0000", freeMinutes: 0, capAmount: 5_000 }, 20 * M, 2_000, false],
  ])("charges from the stop until the unplug %s", (_, after, idleMs, expected, capped) => {
    const priced = price(idle({ after }), { ...base, unplugAt: stop + idleMs });
    expect(priced.occupancyCost).toBe(expected);
    expect(priced.provisional).toBe(false);
    if ("capAmount" in after) expect(priced.lines.find((l) => l.kind === "IDLE_AFTER")?.capped).toBe(capped);
  });

  it("is provisional while the car is still plugged in, with no idle-after fee yet", () => {
    const priced = price(idle({ after: { unit: "MINUTE", price: "1.0000", freeMinutes: 0 } }), { ...base, unplugAt: null });
    expect(priced.provisional).toBe(true);
    expect(priced.occupancyCost).toBe(0);
    expect(price(flat("1.0000"), base).provisional).toBe(false);
  });
});

describe("tax", () => {
  const facts = session("2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", 10_000);

  it("adds nothing by default", () => {
    const priced = price(flat("1.0000"), facts);
    expect(priced).toMatchObject({ taxCost: 0, netCost: 1_000, grossCost: 1_000, totalCost: 1_000 });
  });

  it("adds exclusive tax on top of the net cost, as its own line", () => {
    const priced = price(flat("1.0000"), facts, { tax: { rate: "23", inclusive: false } });
    expect(priced).toMatchObject({ electricCost: 1_000, taxCost: 230, netCost: 1_000, grossCost: 1_230, totalCost: 1_230 });
    expect(priced.lines.at(-1)).toMatchObject({ kind: "TAX", quantity: "23", base: 1_000, amount: 230 });
  });

  it("takes inclusive tax out of prices that already contain it", () => {
    const priced = price(flat("1.2300"), facts, { tax: { rate: "23", inclusive: true } });
    expect(priced).toMatchObject({ electricCost: 1_230, taxCost: 230, netCost: 1_000, grossCost: 1_230, totalCost: 1_230 });
  });

  it.each([
    [false, "8.5", 1_000, 85],
    [false, "7", 1_007, 70], // 70.49 → 70
    [true, "19", 1_007, 161], // 1007 × 19 / 119 = 160.78 → 161
  ])("rounds tax once, half-up (inclusive %s, %s %% of %i)", (inclusive, rate, wh, expected) => {
    const priced = price(flat("1.0000"), session("2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", wh * 10), { tax: { rate, inclusive } });
    expect(priced.taxCost).toBe(expected);
    expect(priced.totalCost).toBe(inclusive ? wh : wh + expected);
  });

  it("applies a discount before tax", () => {
    const priced = price(flat("1.0000"), facts, { tax: { rate: "20", inclusive: false }, discountPercent: "10" });
    expect(priced).toMatchObject({ discountCost: 100, netCost: 900, taxCost: 180, totalCost: 1_080 });
  });
});

describe("rounding", () => {
  it.each([
    ["half a minor unit rounds up", "0.0050", 1_000, 2, 1],
    ["just under half rounds down", "0.0049", 1_000, 2, 0],
    ["never rounded twice (1.49 is 1, not 1.5 then 2)", "0.0149", 1_000, 2, 1],
    ["a currency without decimals", "12.5000", 1_000, 0, 13],
    ["a currency with three decimals", "0.0005", 1_000, 3, 1],
    ["a fraction of a kWh", "0.9999", 1_234, 2, 123],
  ])("%s", (_, unitPrice, wh, decimals, expected) => {
    const priced = priceSession({
      prices: flat(unitPrice),
      session: session("2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", wh),
      timeZone: WARSAW,
      currencyDecimals: decimals,
    });
    expect(priced.electricCost).toBe(expected);
  });

  it("rounds each cost line once, and the total is the sum of the rounded lines", () => {
    const prices: StrategyPrices = {
      ...flat("0"),
      electricity: {
        slots: [
          { start: "00:00", end: "06:00", price: "0.0050" },
          { start: "06:00", end: "24:00", price: "0.0050" },
        ],
      },
    };
    // 1 kWh each side of 06:00: each line is half a grosz and rounds to 1, so the total is 2.
    const priced = price(prices, session("2025-01-15T04:30:00Z", "2025-01-15T05:30:00Z", 2_000));
    expect(priced.lines.map((l) => l.amount)).toEqual([1, 1]);
    expect(priced.totalCost).toBe(2);
  });
});

describe("what the meter says", () => {
  it("prices a session without energy at zero, while a once-per-session fee still applies", () => {
    const prices: StrategyPrices = { ...timeOfUse, service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "2.0000" }] } };
    const priced = price(prices, session("2025-01-15T09:00:00Z", "2025-01-15T09:05:00Z", 0));
    expect(priced).toMatchObject({ energyWh: 0, electricCost: 0, serviceCost: 200, totalCost: 200 });
    expect(priced.lines.filter((l) => l.kind === "ELECTRICITY")).toEqual([]);
  });

  it("never prices a register that went backwards below zero", () => {
    const backwards = session("2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", -500);
    expect(price(flat("1.0000"), backwards)).toMatchObject({ energyWh: 0, electricCost: 0, totalCost: 0 });
  });

  it("adds nothing while a register that dipped climbs back to its highest reading", () => {
    const facts = session("2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", 700, {
      samples: [
        { at: at("2025-01-15T09:15:00Z"), wh: 1_400 },
        { at: at("2025-01-15T09:30:00Z"), wh: 600 },
        { at: at("2025-01-15T09:45:00Z"), wh: 1_500 },
      ],
    });
    expect(registerSeries(facts).map((s) => s.wh)).toEqual([1_000, 1_400, 1_400, 1_500, 1_700]);
    expect(price(flat("1.0000"), facts)).toMatchObject({ energyWh: 700, electricCost: 70 });
  });

  it("ignores samples outside the session and never prices more than the stop reading", () => {
    const facts = session("2025-01-15T09:00:00Z", "2025-01-15T10:00:00Z", 1_000, {
      samples: [
        { at: at("2025-01-15T08:00:00Z"), wh: 50 },
        { at: at("2025-01-15T09:30:00Z"), wh: 9_000 },
        { at: at("2025-01-15T11:00:00Z"), wh: 99_000 },
      ],
    });
    expect(price(flat("1.0000"), facts)).toMatchObject({ energyWh: 1_000, electricCost: 100 });
  });

  it("gives a zero-length session's energy to the slot of its start", () => {
    const priced = price(timeOfUse, session("2025-01-15T05:30:00Z", "2025-01-15T05:30:00Z", 1_000));
    expect(priced.lines).toMatchObject([{ start: "06:00", quantity: "1.000", amount: 120 }]);
  });
});

describe("slots", () => {
  it.each([
    [[], "atLeastOne"],
    [[{ start: "00:00", price: "1" }], "incomplete"],
    [[{ start: "00:00", end: "08:15" }], "halfHour"],
    [[{ start: "00:00", end: "25:00" }], "halfHour"],
    [[{ start: "08:00", end: "08:00" }], "startAfterEnd"],
    [
      [
        { start: "00:00", end: "08:00" },
        { start: "09:00", end: "24:00" },
      ],
      "contiguous",
    ],
    [[{ start: "00:00", end: "23:30" }], "cover"],
    [[{ start: "00:30", end: "24:00" }], "cover"],
  ])("refuses %j: %s", (slots, problem) => {
    expect(slotProblem(slots)?.problem).toBe(problem);
  });

  it("accepts one flat slot and 48 half-hours", () => {
    expect(slotProblem([{ start: "00:00", end: "24:00" }])).toBeUndefined();
    const halves = Array.from({ length: 48 }, (_, i) => ({
      start: `${String(Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`,
      end: `${String(Math.floor((i + 1) / 2)).padStart(2, "0")}:${(i + 1) % 2 ? "30" : "00"}`,
    }));
    expect(slotProblem(halves)).toBeUndefined();
  });
});

describe("the editor's sample session", () => {
  it("prices energy, start, duration and idle minutes as the billing would", () => {
    const prices: StrategyPrices = {
      ...timeOfUse,
      idle: {
        before: { unit: "MINUTE", price: "0.1000", freeMinutes: 0 },
        during: { unit: "MINUTE", price: "0.2000", freeMinutes: 0 },
        after: { unit: "MINUTE", price: "0.3000", freeMinutes: 10 },
      },
    };
    // 20 kWh from 05:00 local for 120 minutes, the last 20 suspended: 100 minutes of flow, 1 h before 06:00.
    const facts = sampleSession({ energyKwh: "20", startTime: "2025-01-15T05:00", durationMinutes: 120, idleBeforeMinutes: 15, idleDuringMinutes: 20, idleAfterMinutes: 40 }, WARSAW)!;
    expect(new Date(facts.startAt).toISOString()).toBe("2025-01-15T04:00:00.000Z");
    const priced = price(prices, facts);
    expect(priced.electricCost).toBe(12_000 * 0.04 + 8_000 * 0.12);
    expect(priced).toMatchObject({ reservationCost: 150, occupancyCost: 20 * 20 + 30 * 30 });
    expect(sampleSession({ energyKwh: "1.2345", startTime: "2025-01-15T05:00", durationMinutes: 1, idleBeforeMinutes: 0, idleDuringMinutes: 0, idleAfterMinutes: 0 }, WARSAW)).toBeUndefined();
  });
});
