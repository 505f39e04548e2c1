import { fixed } from "./decimal";
import { priceSession, type CardDeduction, type PricedSession, type RegisterSample, type SessionFacts, type TaxSettings } from "./engine";
import type { StrategyPrices } from "./strategy";

/**
 * What the engine needs besides the session itself: a strategy version's prices and the operator's
 * settings that price with them (docs/rules/pricing.md "The engine"). Billing builds it when it
 * prices a stopped session; a 2.0.1 charger's object keeps one per running transaction, taken when
 * the transaction starts, so that its running cost is the engine's too without a D1 read
 * (docs/rules/ocpp.md "Two protocols", I02).
 */
export interface Tariff {
  prices: StrategyPrices;
  /** The station's time zone, else the operator's: slot boundaries are its wall clock. */
  timeZone: string;
  currencyDecimals: number;
  tax: TaxSettings | null;
  /** The payer's membership discount in percent, none when null. */
  discountPercent: string | null;
}

/** Prices a session with a tariff: the one call billing and the charger's running cost share. */
export function priceWith(tariff: Tariff, session: SessionFacts, cards: readonly CardDeduction[] = []): PricedSession {
  return priceSession({
    prices: tariff.prices,
    session,
    timeZone: tariff.timeZone,
    currencyDecimals: tariff.currencyDecimals,
    tax: tariff.tax,
    discountPercent: tariff.discountPercent,
    cards,
  });
}

/** A stored meter sample as the engine's readers get it from a charger's storage. */
export interface StoredRegisterReading {
  ts: string;
  measurand: string;
  phase: string | null;
  value: number;
  flagged: number | boolean;
}

/**
 * The energy register readings the engine prices from: the import register of the whole meter
 * (no phase), flagged readings left out (docs/rules/billing.md "Pricing at stop").
 */
export function registerSamplesOf(stored: readonly StoredRegisterReading[]): RegisterSample[] {
  return stored
    .filter((s) => s.measurand === "Energy.Active.Import.Register" && s.phase === null && !s.flagged)
    .map((s) => ({ at: Date.parse(s.ts), wh: s.value }));
}

/**
 * Minor units as the decimal number of major units OCPP 2.0.1 carries a cost in (`totalCost` of
 * TransactionEventResponse and CostUpdatedRequest, I02–I03): 1235 with 2 decimals → 12.35. The
 * text is exact; the number is the nearest double, which JSON writes back as the same text.
 */
export function majorUnits(minor: number, decimals: number): number {
  return Number(fixed(BigInt(minor), decimals));
}
