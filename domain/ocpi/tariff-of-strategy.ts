import { divideHalfUp, fixed, percentUnits, priceUnits, PRICE_DECIMALS, PRICE_SCALE } from "../pricing/decimal";
import { halfHourTable, HALF_HOURS, textOfMinute } from "../pricing/slots";
import type { IdleFee, StrategyPrices } from "../pricing/strategy";
import type { TaxSettings } from "../pricing/engine";
import type { OcpiTariff } from "../schemas/ocpi/tariffs";
import { ocpiTime } from "./wire";

/**
 * A charging strategy as the OCPI 2.2.1 Tariff partners read (docs/rules/ocpi.md "Tariffs we
 * publish", §11.3.1). Pure: the strategy's 48 half-hours become elements restricted by
 * `start_time`/`end_time` (one element per stretch of the day where every price is the same; our
 * prices are the same every day of the week, so no `day_of_week` is needed), each with:
 * - ENERGY: the electricity price per kWh, plus the service fee when it is per kWh (step 1 Wh);
 * - TIME: the service fee per minute or hour of charging, per hour, step 60 or 3600 s;
 * - FLAT: the service fee once per session (COUNT), at the price of the element in force at the start;
 * - PARKING_TIME: the idle fee after charging, per hour, step 60 or 3600 s.
 * Prices are excl. VAT with the operator's rate as `vat` (§11.4.2): an operator whose prices
 * include tax publishes them divided by (1 + rate), to four decimals.
 */

export interface StrategyFacts {
  id: number;
  name: string;
  currency: string;
  prices: StrategyPrices;
  updatedAt: number;
}

export interface TariffParty {
  countryCode: string;
  partyId: string;
  /** The console's language, for `tariff_alt_text`. */
  language: string;
}

type Component = OcpiTariff["elements"][number]["price_components"][number];

/** A price without the tax an inclusive operator put in it, four decimals, half up. */
function netPrice(price: bigint, tax: TaxSettings | null): bigint {
  const rate = tax ? percentUnits(tax.rate) : undefined;
  if (!tax?.inclusive || !rate) return price;
  return divideHalfUp(price * 100n * PRICE_SCALE, 100n * PRICE_SCALE + rate);
}

/** A scaled price as the JSON number OCPI carries (the text of at most four decimals, read once). */
const numberOf = (units: bigint) => Number(fixed(units, PRICE_DECIMALS));

const perHour = (fee: { unit: "MINUTE" | "HOUR" }, price: bigint) => (fee.unit === "MINUTE" ? price * 60n : price);
const stepOf = (fee: { unit: "MINUTE" | "HOUR" }) => (fee.unit === "MINUTE" ? 60 : 3600);

/** The components in force in one half-hour. */
function componentsAt(prices: StrategyPrices, halfHour: number, tax: TaxSettings | null): Component[] {
  const vat = tax && percentUnits(tax.rate) ? { vat: Number(tax.rate) } : {};
  const electricity = prices.electricity.slots[halfHourTable(prices.electricity.slots)[halfHour]];
  const { unit, slots } = prices.service;
  const service = unit !== "NONE" && slots.length > 0 ? slots[halfHourTable(slots)[halfHour]] : undefined;
  let energy = priceUnits(electricity.price);
  const components: Component[] = [];
  if (service && unit === "KWH") energy += priceUnits(service.price);
  components.push({ type: "ENERGY", price: numberOf(netPrice(energy, tax)), ...vat, step_size: 1 });
  if (service && (unit === "MINUTE" || unit === "HOUR")) {
    components.push({ type: "TIME", price: numberOf(netPrice(perHour({ unit }, priceUnits(service.price)), tax)), ...vat, step_size: stepOf({ unit }) });
  }
  if (service && unit === "COUNT") components.push({ type: "FLAT", price: numberOf(netPrice(priceUnits(service.price), tax)), ...vat, step_size: 1 });
  const idle: IdleFee | null = prices.idle.after;
  if (idle) components.push({ type: "PARKING_TIME", price: numberOf(netPrice(perHour(idle, priceUnits(idle.price)), tax)), ...vat, step_size: stepOf(idle) });
  return components;
}

/** What the strategy says that OCPI cannot: free idle minutes, an idle cap, the idle fee while charging, the reservation fee. */
export function untranslatable(prices: StrategyPrices): ("freeMinutes" | "idleCap" | "idleDuring" | "reservation")[] {
  const out: ("freeMinutes" | "idleCap" | "idleDuring" | "reservation")[] = [];
  if (prices.idle.after && prices.idle.after.freeMinutes > 0) out.push("freeMinutes");
  if (prices.idle.after?.capAmount != null) out.push("idleCap");
  if (prices.idle.during) out.push("idleDuring");
  if (prices.idle.before) out.push("reservation");
  return out;
}

export function tariffOfStrategy(party: TariffParty, strategy: StrategyFacts, tax: TaxSettings | null): OcpiTariff {
  const halves = Array.from({ length: HALF_HOURS }, (_, h) => componentsAt(strategy.prices, h, tax));
  const same = (a: Component[], b: Component[]) => JSON.stringify(a) === JSON.stringify(b);
  const stretches: { from: number; to: number; components: Component[] }[] = [];
  halves.forEach((components, h) => {
    const last = stretches[stretches.length - 1];
    if (last && same(last.components, components)) last.to = h + 1;
    else stretches.push({ from: h, to: h + 1, components });
  });
  const elements = stretches.map(({ from, to, components }) => {
    if (from === 0 && to === HALF_HOURS) return { price_components: components };
    // end_time is exclusive; midnight is 00:00 (OCPI 2.2.1 §11.4.6).
    return { price_components: components, restrictions: { start_time: textOfMinute(from * 30), end_time: to === HALF_HOURS ? "00:00" : textOfMinute(to * 30) } };
  });
  return {
    country_code: party.countryCode,
    party_id: party.partyId,
    id: String(strategy.id),
    currency: strategy.currency,
    type: "REGULAR",
    tariff_alt_text: [{ language: party.language, text: strategy.name.slice(0, 512) }],
    elements,
    last_updated: ocpiTime(strategy.updatedAt),
  };
}
