import { describe, expect, it } from "vitest";
import { DEMO_DAY_AND_NIGHT } from "../../db/seed";
import { addressOf, coordinateOf, electricsOf, evseStatusOf, locationOfStation, openingTimesOf } from "../../domain/ocpi/location-of-station";
import { mayCall, roleFromCredentials } from "../../domain/ocpi/roles";
import { tariffOfStrategy, untranslatable } from "../../domain/ocpi/tariff-of-strategy";
import { priceByTariff, type ChargingPeriod } from "../../domain/ocpi/tariff-price";
import { energyBySlot, halfHourTable, priceSession, slotSegments, type SessionFacts, type StrategyPrices, type TaxSettings } from "../../domain/pricing";
import { location as locationSchema } from "../../domain/schemas/ocpi/locations";
import { tariff as tariffSchema } from "../../domain/schemas/ocpi/tariffs";
import { zonedToUtc } from "../../domain/time";

/**
 * What we publish as a CPO (docs/rules/ocpi.md "CPO role"): the role gate's rule, a station as an
 * OCPI Location, and a strategy as the OCPI Tariff a partner prices our sessions by, to the same
 * minor unit as our own engine.
 */
const WARSAW = "Europe/Warsaw";
const local = (text: string) => zonedToUtc(text, WARSAW)!;
const M = 60_000;
const party = { countryCode: "PL", partyId: "PLD", language: "en" };

describe("the role gate's rule", () => {
  it("lets a CPO call our eMSP side, an eMSP our CPO side, and a hub both", () => {
    expect([mayCall("CPO", "EMSP"), mayCall("CPO", "CPO")]).toEqual([true, false]);
    expect([mayCall("EMSP", "EMSP"), mayCall("EMSP", "CPO")]).toEqual([false, true]);
    expect([mayCall("HUB", "EMSP"), mayCall("HUB", "CPO")]).toEqual([true, true]);
  });

  it("takes the role a platform was entered with from its credentials, a hub as a hub, and refuses any other", () => {
    expect(roleFromCredentials("EMSP", [{ role: "CPO" }, { role: "EMSP" }])).toBe("EMSP");
    expect(roleFromCredentials("CPO", [{ role: "HUB" }])).toBe("HUB");
    expect(roleFromCredentials("EMSP", [{ role: "CPO" }])).toBeNull();
    expect(roleFromCredentials("CPO", [{ role: "EMSP" }])).toBeNull();
  });
});

describe("a station as an OCPI Location", () => {
  it("writes coordinates with five decimals from their text, and reads street, postal code and city from the address", () => {
    expect([coordinateOf("52.2297"), coordinateOf("-0.5"), coordinateOf("21.01234567"), coordinateOf(null)]).toEqual(["52.22970", "-0.50000", "21.0123456", "0.00000"]);
    expect(addressOf("ul. Marszałkowska 100, 00-026 Warszawa", "X")).toEqual({ address: "ul. Marszałkowska 100", postal_code: "00-026", city: "Warszawa" });
    expect(addressOf("Friedrichstraße 50, 10117 Berlin", "X")).toEqual({ address: "Friedrichstraße 50", postal_code: "10117", city: "Berlin" });
    expect(addressOf("Main Square", "Station A")).toEqual({ address: "Main Square", city: "Station A" });
  });

  it("reads business hours as opening times, round the clock when it says so, none when it is free text", () => {
    expect(openingTimesOf("00:00-24:00")).toEqual({ twentyfourseven: true });
    expect(openingTimesOf(null)).toEqual({ twentyfourseven: true });
    expect(openingTimesOf("08:00-22:00")?.regular_hours).toHaveLength(7);
    expect(openingTimesOf("08:00-22:00")?.regular_hours?.[0]).toEqual({ weekday: 1, period_begin: "08:00", period_end: "22:00" });
    expect(openingTimesOf("ask at the desk")).toBeUndefined();
  });

  it("maps the charger's states and gives voltage and current from the power", () => {
    const base = { pointEnabled: true, pointOnline: true };
    expect(evseStatusOf({ ...base, status: "Available" })).toBe("AVAILABLE");
    expect(evseStatusOf({ ...base, status: "SuspendedEV" })).toBe("CHARGING");
    expect(evseStatusOf({ ...base, status: "Occupied" })).toBe("CHARGING");
    expect(evseStatusOf({ ...base, status: "Faulted" })).toBe("OUTOFORDER");
    expect(evseStatusOf({ ...base, pointOnline: false, status: "Available" })).toBe("UNKNOWN");
    expect(evseStatusOf({ ...base, pointEnabled: false, status: "Available" })).toBe("INOPERATIVE");
    expect(electricsOf("IEC2", 22_000)).toEqual({ power_type: "AC_3_PHASE", max_voltage: 230, max_amperage: 32, max_electric_power: 22_000 });
    expect(electricsOf("IEC2", 7_400)).toMatchObject({ power_type: "AC_1_PHASE", max_amperage: 33 });
    expect(electricsOf("IEC1", 150_000)).toEqual({ power_type: "DC", max_voltage: 920, max_amperage: 164, max_electric_power: 150_000 });
  });

  it("publishes an EVSE per connector with its eMI3 id, capabilities and tariff, valid by the 2.2.1 schema", () => {
    const connector = { standard: "IEC1" as const, powerW: 60_000, statusAt: Date.parse("2026-11-29T10:00:00Z"), createdAt: 0, pointUpdatedAt: 0, pointEnabled: true, pointOnline: true, tariffId: "7" };
    const location = locationOfStation(
      { countryCode: "PL", partyId: "PLD", country: "POL", timeZone: "Europe/Warsaw" },
      { id: 3, name: "Warszawa Centrum", address: "ul. Marszałkowska 100, 00-026 Warszawa", lat: "52.2297", lng: "21.0122", timeZone: null, businessHours: "00:00-24:00", updatedAt: Date.parse("2026-11-28T10:00:00Z") },
      [
        { ...connector, pointId: 12, connectorNo: 2, status: "Charging" },
        { ...connector, pointId: 12, connectorNo: 1, status: "Available" },
      ],
    );
    expect(locationSchema.safeParse(location).success).toBe(true);
    expect(location).toMatchObject({ id: "3", publish: true, city: "Warszawa", country: "POL", time_zone: "Europe/Warsaw", last_updated: "2026-11-29T10:00:00Z" });
    expect(location.evses?.map((e) => [e.uid, e.evse_id, e.status])).toEqual([
      ["12*1", "PL*PLD*E12*1", "AVAILABLE"],
      ["12*2", "PL*PLD*E12*2", "CHARGING"],
    ]);
    expect(location.evses?.[0].connectors[0]).toMatchObject({ id: "1", standard: "IEC_62196_T2_COMBO", format: "CABLE", power_type: "DC", tariff_ids: ["7"] });
  });
});

/**
 * Charging periods as a CPO writes them in a CDR (OCPI 2.2.1 §10.4.6): one per stretch of one
 * slot of `cuts`, with the energy the engine puts in that slot; parking after the stop.
 */
function periodsOf(session: SessionFacts, cuts: StrategyPrices["electricity"]["slots"]): ChargingPeriod[] {
  const energy = energyBySlot(session, cuts, WARSAW);
  const seen = new Set<number>();
  const periods: ChargingPeriod[] = slotSegments(halfHourTable(cuts), session.startAt, session.stopAt, WARSAW).map((s) => {
    const first = !seen.has(s.slot);
    seen.add(s.slot);
    return { startAt: s.from, energyWh: first ? (energy.get(s.slot) ?? 0) : 0, timeS: (s.to - s.from) / 1000 };
  });
  if (session.unplugAt && session.unplugAt > session.stopAt) periods.push({ startAt: session.stopAt, parkingS: (session.unplugAt - session.stopAt) / 1000 });
  return periods;
}

const CASES: { name: string; prices: StrategyPrices; session: SessionFacts; tax?: TaxSettings; total: number }[] = [
  {
    name: "time of use with a service fee per kWh and an idle fee per minute, across a slot boundary",
    // The demo's day and night slots (1.15 PLN/kWh until 16:00, 1.45 after) and its 0.20 PLN/kWh service fee.
    prices: {
      electricity: DEMO_DAY_AND_NIGHT.electricity,
      service: DEMO_DAY_AND_NIGHT.service,
      idle: { before: null, during: null, after: { unit: "MINUTE", price: "0.5000", freeMinutes: 0 } },
    },
    // 15:30–17:00 Warsaw, 18 kWh evenly: 6 kWh before 16:00, 12 after; unplugged 20½ minutes later.
    session: { startAt: local("2026-11-10T15:30"), stopAt: local("2026-11-10T17:00"), meterStartWh: 0, meterStopWh: 18_000, unplugAt: local("2026-11-10T17:00") + 20.5 * M },
    total: 690 + 1740 + 360 + 1050,
  },
  {
    name: "a service fee per started minute, charged by TIME in steps of 60 s",
    prices: { electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.9000" }] }, service: { unit: "MINUTE", slots: [{ start: "00:00", end: "24:00", price: "0.0500" }] }, idle: { before: null, during: null, after: null } },
    session: { startAt: local("2026-11-10T08:00"), stopAt: local("2026-11-10T08:00") + 45.5 * M, meterStartWh: 1_000, meterStopWh: 16_500 },
    total: 1395 + 230,
  },
  {
    name: "a session fee by the slot in force at the start, and energy split where the fee's slots change",
    prices: {
      electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] },
      service: { unit: "COUNT", slots: [{ start: "00:00", end: "12:00", price: "2.0000" }, { start: "12:00", end: "24:00", price: "3.0000" }] },
      idle: { before: null, during: null, after: null },
    },
    session: { startAt: local("2026-11-10T11:50"), stopAt: local("2026-11-10T12:20"), meterStartWh: 0, meterStopWh: 6_000 },
    total: 600 + 200,
  },
  {
    name: "tax on top of the prices, VAT on the total",
    prices: { electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] }, service: { unit: "NONE", slots: [] }, idle: { before: null, during: null, after: null } },
    session: { startAt: local("2026-11-10T22:00"), stopAt: local("2026-11-11T01:00"), meterStartWh: 0, meterStopWh: 10_000 },
    tax: { rate: "23", inclusive: false },
    total: 1230,
  },
  {
    name: "night and evening across midnight",
    prices: {
      electricity: { slots: [{ start: "00:00", end: "06:00", price: "0.4000" }, { start: "06:00", end: "22:00", price: "1.2000" }, { start: "22:00", end: "24:00", price: "0.8000" }] },
      service: { unit: "HOUR", slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] },
      idle: { before: null, during: null, after: null },
    },
    // 23:00–01:00 Warsaw, 20 kWh: 10 at 0.80, 10 at 0.40; two started hours of service.
    session: { startAt: local("2026-11-10T23:00"), stopAt: local("2026-11-11T01:00"), meterStartWh: 0, meterStopWh: 20_000 },
    total: 800 + 400 + 200,
  },
];

describe("a strategy as the OCPI Tariff partners price our sessions by", () => {
  it("cuts the day where a price changes, with ENERGY, TIME, FLAT and PARKING_TIME components", () => {
    const tariff = tariffOfStrategy(party, { id: 7, name: "Taryfa", currency: "PLN", prices: CASES[0].prices, updatedAt: Date.parse("2026-11-01T00:00:00Z") }, null);
    expect(tariffSchema.safeParse(tariff).success).toBe(true);
    expect(tariff).toMatchObject({ id: "7", currency: "PLN", type: "REGULAR", tariff_alt_text: [{ language: "en", text: "Taryfa" }], last_updated: "2026-11-01T00:00:00Z" });
    expect(tariff.elements.map((e) => [e.restrictions?.start_time, e.restrictions?.end_time, e.price_components.map((c) => `${c.type} ${c.price}/${c.step_size}`).join(", ")])).toEqual([
      ["00:00", "06:00", "ENERGY 0.85/1, PARKING_TIME 30/60"],
      ["06:00", "16:00", "ENERGY 1.35/1, PARKING_TIME 30/60"],
      ["16:00", "21:00", "ENERGY 1.65/1, PARKING_TIME 30/60"],
      ["21:00", "00:00", "ENERGY 0.85/1, PARKING_TIME 30/60"],
    ]);
    const flat = tariffOfStrategy(party, { id: 8, name: "Flat", currency: "PLN", prices: CASES[2].prices, updatedAt: 0 }, { rate: "23", inclusive: false });
    expect(flat.elements[0].price_components).toEqual([
      { type: "ENERGY", price: 1, vat: 23, step_size: 1 },
      { type: "FLAT", price: 2, vat: 23, step_size: 1 },
    ]);
  });

  it("publishes prices that include tax without it", () => {
    const tariff = tariffOfStrategy(party, { id: 9, name: "Gross", currency: "PLN", prices: CASES[3].prices, updatedAt: 0 }, { rate: "23", inclusive: true });
    expect(tariff.elements[0].price_components[0]).toEqual({ type: "ENERGY", price: 0.813, vat: 23, step_size: 1 });
  });

  it("names what OCPI cannot say: free idle minutes, an idle cap, the idle fee while charging, a reservation fee", () => {
    const fee = { unit: "MINUTE" as const, price: "0.5000", freeMinutes: 30 };
    expect(untranslatable({ ...CASES[0].prices, idle: { before: fee, during: fee, after: { ...fee, capAmount: 6000 } } })).toEqual(["freeMinutes", "idleCap", "idleDuring", "reservation"]);
    expect(untranslatable(CASES[0].prices)).toEqual([]);
  });

  for (const c of CASES) {
    it(`prices a session to the same minor unit as our engine: ${c.name}`, () => {
      const engine = priceSession({ prices: c.prices, session: c.session, timeZone: WARSAW, currencyDecimals: 2, tax: c.tax ?? null });
      const tariff = tariffOfStrategy(party, { id: 1, name: c.name.slice(0, 40), currency: "PLN", prices: c.prices, updatedAt: 0 }, c.tax ?? null);
      // The periods cut where either the electricity or the service price changes, as the tariff's elements do.
      const cuts = tariff.elements.length > c.prices.electricity.slots.length ? c.prices.service.slots : c.prices.electricity.slots;
      const partner = priceByTariff(tariff, periodsOf(c.session, cuts), WARSAW, 2);
      expect(engine.totalCost).toBe(c.total);
      expect(partner.inclVat).toBe(engine.totalCost);
      expect(partner.exclVat).toBe(engine.netCost);
    });
  }
});
