import { divideHalfUp, fixed, formatPrice, percentUnits, pow10, PRICE_DECIMALS, priceUnits } from "./decimal";
import type { TaxSettings } from "./engine";
import { halfHourTable, HALF_HOURS, slotSegments } from "./slots";
import type { IdleAfterFee, IdleFee, StrategyPrices } from "./strategy";

/**
 * The price a driver is shown before charging at a public charger page (docs/rules/pricing.md
 * "Price shown is price billed"): read from the strategy version a session started now would
 * record, by the same slots the engine bills with, at the station's wall clock. Pure: the public
 * JSON, the page and the tests all ask here.
 */

/** One idle fee as shown: per minute, or per started hour when the strategy bills it so. */
export interface PublicIdleFee {
  kind: "BEFORE" | "DURING" | "AFTER";
  perMinute: string | null;
  perHour: string | null;
  graceMinutes: number;
  /** The most it may cost, in major units; null without a cap. */
  cap: string | null;
}

/**
 * The price of a connector for one period, every amount a decimal text in the currency's major
 * unit with four decimals, VAT included.
 */
export interface PublicPrice {
  /** Energy and a per-kWh service fee together: what one kWh costs. */
  energyPerKwh: string;
  /** A per-minute service fee; null when the strategy bills charging time per started hour. */
  timePerMinute: string | null;
  /** A per-hour service fee (each started hour); null otherwise. */
  timePerHour: string | null;
  sessionFee: string;
  /** The idle fee after charging (until the car is unplugged), per minute; null when billed per hour. */
  idleFeePerMinute: string | null;
  idleGraceMinutes: number;
  /** Every idle fee of the strategy, the one after charging included. */
  idleFees: PublicIdleFee[];
  vatPercent: string;
  /** When this price ends (ISO instant); null when it does not change at any time of day. */
  validUntil: string | null;
}

export interface PricePeriod extends PublicPrice {
  validFrom: string;
}

export interface PublicPriceInput {
  prices: StrategyPrices;
  /** The station's time zone, else the operator's (the engine's). */
  timeZone: string;
  tax: TaxSettings | null;
  currencyDecimals: number;
}

/** How far a driver sees ahead: the periods that begin within the next hours. */
export const UPCOMING_HOURS = 12;
/** A price unchanged this long is unchanged at every time of day, a daylight-saving day included. */
const WHOLE_DAY_MS = 26 * 3_600_000;
const HOUR_MS = 3_600_000;

const ZERO = formatPrice("0");

/** A unit price with VAT: as it is when the prices include it, else with the rate added, to four decimals half-up. */
export function withVat(price: string, tax: TaxSettings | null): string {
  const rate = tax ? percentUnits(tax.rate) : undefined;
  if (!tax || tax.inclusive || !rate) return formatPrice(price);
  const hundred = 100n * pow10(PRICE_DECIMALS);
  return fixed(divideHalfUp(priceUnits(price) * (hundred + rate), hundred), PRICE_DECIMALS);
}

const sum = (a: string, b: string) => fixed(priceUnits(a) + priceUnits(b), PRICE_DECIMALS);

function idleFee(kind: PublicIdleFee["kind"], fee: IdleFee | IdleAfterFee | null, input: PublicPriceInput): PublicIdleFee | undefined {
  if (!fee) return undefined;
  const price = withVat(fee.price, input.tax);
  const cap = "capAmount" in fee && fee.capAmount != null ? fixed(BigInt(fee.capAmount), input.currencyDecimals) : null;
  return {
    kind,
    perMinute: fee.unit === "MINUTE" ? price : null,
    perHour: fee.unit === "HOUR" ? price : null,
    graceMinutes: fee.freeMinutes,
    cap,
  };
}

/** The time-dependent part of the price in each of the 48 half-hours of the day. */
function halfHourPrices(input: PublicPriceInput) {
  const { prices, tax } = input;
  const energy = halfHourTable(prices.electricity.slots);
  const service = prices.service.unit === "NONE" || prices.service.slots.length === 0 ? undefined : halfHourTable(prices.service.slots);
  return Array.from({ length: HALF_HOURS }, (_, h) => {
    const energyPrice = prices.electricity.slots[energy[h]].price;
    const servicePrice = service ? prices.service.slots[service[h]].price : "0";
    const unit = service ? prices.service.unit : "NONE";
    return {
      energyPerKwh: withVat(unit === "KWH" ? sum(energyPrice, servicePrice) : energyPrice, tax),
      timePerMinute: unit === "HOUR" ? null : unit === "MINUTE" ? withVat(servicePrice, tax) : ZERO,
      timePerHour: unit === "HOUR" ? withVat(servicePrice, tax) : null,
      sessionFee: unit === "COUNT" ? withVat(servicePrice, tax) : ZERO,
    };
  });
}

/**
 * The price in force at `at` and the periods that begin within the next `hours`, each from the
 * instant its price begins to the instant it changes (slot boundaries at the station's wall
 * clock, so a daylight-saving day is cut where its clock says). Neighbouring slots with the same
 * price are one period.
 */
export function pricePeriods(input: PublicPriceInput, at: number, hours = UPCOMING_HOURS): PricePeriod[] {
  const byHalfHour = halfHourPrices(input);
  const keys: string[] = [];
  const table = byHalfHour.map((price) => {
    const key = JSON.stringify(price);
    const found = keys.indexOf(key);
    return found >= 0 ? found : keys.push(key) - 1;
  });
  const horizon = at + hours * HOUR_MS;
  const segments = slotSegments(table, at, horizon + WHOLE_DAY_MS, input.timeZone);
  const { idle } = input.prices;
  const idleFees = [idleFee("BEFORE", idle.before, input), idleFee("DURING", idle.during, input), idleFee("AFTER", idle.after, input)].filter(
    (fee): fee is PublicIdleFee => fee !== undefined,
  );
  const after = idleFees.find((fee) => fee.kind === "AFTER");
  const vatPercent = input.tax ? input.tax.rate : "0";
  return segments
    .filter((segment, index) => index === 0 || segment.from < horizon)
    .map((segment, index) => {
      const last = index === segments.length - 1;
      const price = JSON.parse(keys[segment.slot]) as Pick<PublicPrice, "energyPerKwh" | "timePerMinute" | "timePerHour" | "sessionFee">;
      return {
        validFrom: new Date(segment.from).toISOString(),
        ...price,
        idleFeePerMinute: after ? after.perMinute : ZERO,
        idleGraceMinutes: after?.graceMinutes ?? 0,
        idleFees,
        vatPercent,
        // The last segment reaches the end of the look-ahead only: its price does not change before then.
        validUntil: last ? null : new Date(segment.to).toISOString(),
      };
    });
}

/** The price in force at `at` (the first period), and the ones that follow within the next hours. */
export function priceNow(input: PublicPriceInput, at: number, hours = UPCOMING_HOURS): { price: PublicPrice; upcoming: PricePeriod[] } {
  const [first, ...upcoming] = pricePeriods(input, at, hours);
  const price: PublicPrice & { validFrom?: string } = { ...first };
  delete price.validFrom;
  return { price, upcoming };
}
