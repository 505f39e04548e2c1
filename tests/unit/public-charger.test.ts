import { describe, expect, it } from "vitest";
import { DEMO_DAY_AND_NIGHT } from "../../db/seed";
import { acceptedLanguage } from "../../domain/accept-language";
import { ocpiFormatOf, ocpiPowerTypeOf, ocpiStandardOf } from "../../domain/ocpi/connector-standard";
import { priceSession, priceUnits, type StrategyPrices } from "../../domain/pricing";
import { priceNow, pricePeriods, withVat, type PublicPriceInput } from "../../domain/pricing/public-price";
import { CONNECTOR_STANDARDS } from "../../domain/schemas/equipment";
import { CONNECTOR_TYPES } from "../../domain/schemas/ocpi/locations";

/**
 * The price a public charger page shows (docs/rules/pricing.md "Price shown is price billed") and
 * the OCPI names of our connector standards (docs/rules/public-charger.md "Connector standards").
 * Warsaw is UTC+1 in winter and UTC+2 in summer; each case says the local time it means.
 */
const WARSAW = "Europe/Warsaw";

/** The demo's day and night tariff: energy by four slots, a per-kWh service fee, an idle fee after charging. */
const demo = DEMO_DAY_AND_NIGHT;

const flat: StrategyPrices = {
  electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.39" }] },
  service: { unit: "NONE", slots: [] },
  idle: { before: null, during: null, after: null },
};

const input = (prices: StrategyPrices, tax: PublicPriceInput["tax"] = null): PublicPriceInput => ({ prices, timeZone: WARSAW, tax, currencyDecimals: 2 });

describe("the price now", () => {
  it("is the slot in force at the station's wall clock, energy and per-kWh service together, until the slot ends", () => {
    // 10:00 UTC in January is 11:00 in Warsaw: the day price until 16:00 local, 15:00 UTC.
    const { price } = priceNow(input(demo), Date.parse("2026-01-15T10:00:00Z"));
    expect(price).toEqual({
      energyPerKwh: "1.3500",
      timePerMinute: "0.0000",
      timePerHour: null,
      sessionFee: "0.0000",
      idleFeePerMinute: "0.5000",
      idleGraceMinutes: 30,
      idleFees: [{ kind: "AFTER", perMinute: "0.5000", perHour: null, graceMinutes: 30, cap: "60.00" }],
      vatPercent: "0",
      validUntil: "2026-01-15T15:00:00.000Z",
    });
  });

  it("ends at the local slot boundary in summer too, and across midnight when the next slot has the same price", () => {
    // 19:30 UTC in July is 21:30 in Warsaw: night price 0.65 + 0.20, unchanged until 06:00 local (04:00 UTC).
    const { price } = priceNow(input(demo), Date.parse("2026-07-01T19:30:00Z"));
    expect(price).toMatchObject({ energyPerKwh: "0.8500", validUntil: "2026-07-02T04:00:00.000Z" });
  });

  it("has no end for a price that is the same at every time of day", () => {
    const { price, upcoming } = priceNow(input(flat), Date.parse("2026-03-29T00:30:00Z"));
    expect(price).toMatchObject({ energyPerKwh: "0.3900", validUntil: null, idleFeePerMinute: "0.0000", idleGraceMinutes: 0, idleFees: [] });
    expect(upcoming).toEqual([]);
  });

  it("lists the periods that begin within the next hours, each with its start and end", () => {
    // 12:00 Warsaw (11:00 UTC) in January: day until 16:00, peak until 21:00, then night (until 06:00).
    const periods = pricePeriods(input(demo), Date.parse("2026-01-15T11:00:00Z"), 12);
    expect(periods.map((p) => [p.validFrom, p.validUntil, p.energyPerKwh])).toEqual([
      ["2026-01-15T11:00:00.000Z", "2026-01-15T15:00:00.000Z", "1.3500"],
      ["2026-01-15T15:00:00.000Z", "2026-01-15T20:00:00.000Z", "1.6500"],
      ["2026-01-15T20:00:00.000Z", "2026-01-16T05:00:00.000Z", "0.8500"],
    ]);
    expect(priceNow(input(demo), Date.parse("2026-01-15T11:00:00Z"), 12).upcoming.map((p) => p.validFrom)).toEqual([
      "2026-01-15T15:00:00.000Z",
      "2026-01-15T20:00:00.000Z",
    ]);
  });

  it("cuts the periods where the clock says on the day daylight saving starts", () => {
    // 29 March 2026: 02:00 Warsaw jumps to 03:00; 06:00 local is then 04:00 UTC, not 05:00.
    const { price } = priceNow(input(demo), Date.parse("2026-03-28T23:30:00Z"));
    expect(price.validUntil).toBe("2026-03-29T04:00:00.000Z");
  });

  it("shows the service fee per minute, per started hour or per session as the strategy bills it", () => {
    const service = (unit: "MINUTE" | "HOUR" | "COUNT") => ({ ...flat, service: { unit, slots: [{ start: "00:00", end: "24:00", price: "0.05" }] } });
    const at = Date.parse("2026-01-15T10:00:00Z");
    expect(priceNow(input(service("MINUTE")), at).price).toMatchObject({ energyPerKwh: "0.3900", timePerMinute: "0.0500", timePerHour: null, sessionFee: "0.0000" });
    expect(priceNow(input(service("HOUR")), at).price).toMatchObject({ timePerMinute: null, timePerHour: "0.0500", sessionFee: "0.0000" });
    expect(priceNow(input(service("COUNT")), at).price).toMatchObject({ timePerMinute: "0.0000", timePerHour: null, sessionFee: "0.0500" });
  });

  it("includes VAT: prices that include it as they are, prices it is added to with the rate on top", () => {
    expect(withVat("1.15", { rate: "23", inclusive: true })).toBe("1.1500");
    expect(withVat("1.15", { rate: "23", inclusive: false })).toBe("1.4145");
    expect(withVat("0.3333", { rate: "8.5", inclusive: false })).toBe("0.3616");
    expect(withVat("1.15", { rate: "0", inclusive: false })).toBe("1.1500");
    expect(priceNow(input(demo, { rate: "23", inclusive: false }), Date.parse("2026-01-15T10:00:00Z")).price).toMatchObject({
      energyPerKwh: "1.6605",
      idleFeePerMinute: "0.6150",
      vatPercent: "23",
    });
  });

  it("is what the engine bills for a kWh charged in that period", () => {
    const at = Date.parse("2026-01-15T10:00:00Z");
    const { price } = priceNow(input(demo), at);
    const billed = priceSession({
      prices: demo,
      session: { startAt: at, stopAt: at + 600_000, meterStartWh: 0, meterStopWh: 10_000 },
      timeZone: WARSAW,
      currencyDecimals: 2,
    });
    // 10 kWh at the shown price, in grosze: the price's 10^-4 units × 10 / 100.
    expect(billed.totalCost).toBe(Number((priceUnits(price.energyPerKwh) * 10n) / 100n));
  });
});

describe("connector standards as OCPI names them", () => {
  it("maps each of our nine standards to an OCPI 2.2.1 connector type, format and power type", () => {
    expect(CONNECTOR_STANDARDS.map((s) => [s, ocpiStandardOf(s), ocpiFormatOf(s), ocpiPowerTypeOf(s, 11_000)])).toEqual([
      ["SAE1", "IEC_62196_T1_COMBO", "CABLE", "DC"],
      ["SAE2", "IEC_62196_T1", "CABLE", "AC_1_PHASE"],
      ["IIS", "CHADEMO", "CABLE", "DC"],
      ["IEC1", "IEC_62196_T2_COMBO", "CABLE", "DC"],
      ["IEC2", "IEC_62196_T2", "CABLE", "AC_3_PHASE"],
      ["IEC3", "IEC_62196_T2", "SOCKET", "AC_3_PHASE"],
      ["GBT1", "GBT_DC", "CABLE", "DC"],
      ["GBT2", "GBT_AC", "CABLE", "AC_1_PHASE"],
      ["GBT3", "GBT_AC", "SOCKET", "AC_1_PHASE"],
    ]);
    for (const s of CONNECTOR_STANDARDS) expect(CONNECTOR_TYPES).toContain(ocpiStandardOf(s));
  });

  it("takes a Type 2 connector of at most 7.4 kW as single-phase", () => {
    expect(ocpiPowerTypeOf("IEC2", 7_400)).toBe("AC_1_PHASE");
    expect(ocpiPowerTypeOf("IEC3", 3_700)).toBe("AC_1_PHASE");
    expect(ocpiPowerTypeOf("IEC2", 22_000)).toBe("AC_3_PHASE");
  });
});

describe("the page's language from the browser", () => {
  it("takes the first of the browser's languages by weight that is one of the six", () => {
    expect(acceptedLanguage("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(acceptedLanguage("fr-FR,fr;q=0.9,pl;q=0.8,en;q=0.7")).toBe("pl");
    expect(acceptedLanguage("en;q=0.5, pt-BR")).toBe("pt_BR");
    expect(acceptedLanguage("zh-TW,zh;q=0.9")).toBe("zh_TW");
    expect(acceptedLanguage("fr, *;q=0.1")).toBeUndefined();
    expect(acceptedLanguage("de;q=0, en;q=0.1")).toBe("en");
    expect(acceptedLanguage(null)).toBeUndefined();
  });
});
