import { pow10, priceUnits, PRICE_SCALE } from "../pricing/decimal";
import { cdrCharge, minorOf, type OcpiPrice } from "./cdr-price";

/**
 * What a partner's CDR may do to a wallet, decided before anything is billed (docs/rules/ocpi.md
 * "What a CDR may bill"): money from outside is believed only within bounds. A CDR debits a
 * positive total no larger than the session could cost; a negative total is only a credit CDR's
 * (OCPI 2.2.1 §10.4.1 `credit`, `credit_reference_id`), and gives back at most what the CDR it
 * credits debited, less what earlier credits of it gave back. Anything else is held for the
 * operator's review, never billed.
 */

/** Why a CDR waits for the operator instead of being billed. */
export const CDR_HOLD_REASONS = [
  /** A negative total on a CDR that is not a credit CDR. */
  "NEGATIVE_TOTAL",
  /** A credit CDR with a positive total. */
  "CREDIT_NOT_NEGATIVE",
  /** A credit CDR naming no CDR of ours that debited a wallet (or in another currency). */
  "CREDIT_REFERENCE",
  /** A credit CDR giving back more than what its CDR debited and was not given back yet. */
  "CREDIT_ABOVE_DEBIT",
  /** A total above what the session's energy and time could cost. */
  "ABOVE_LIMIT",
  /** A total that is not a whole number of minor units of the currency. */
  "NOT_MINOR_UNITS",
] as const;
export type CdrHoldReason = (typeof CDR_HOLD_REASONS)[number];

/**
 * The most a session may cost per kWh of `total_energy` and per minute of `total_time`, decimal
 * texts in units of the operator's main currency (docs/decisions/0005-money-in-minor-units.md:
 * unit prices as decimal strings); the operator changes it in the parameter settings.
 */
export interface CdrLimit {
  perKwh: string;
  perMinute: string;
}
export const DEFAULT_CDR_LIMIT: CdrLimit = { perKwh: "3.00", perMinute: "0.50" };

/** The amounts of a CDR the checks read (OCPI 2.2.1 §10.3.1). */
export interface CdrMoney {
  total_cost: OcpiPrice;
  total_energy: number;
  total_time: number;
  currency: string;
  credit?: boolean;
}

/** Whether a decimal the partner wrote is a whole number of minor units of a currency with `decimals`. */
export function isWholeMinor(value: number, decimals: number): boolean {
  if (!Number.isFinite(value)) return false;
  const [mantissa, exponent = "0"] = String(Math.abs(value)).split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const shift = Number(exponent) - fraction.length + decimals;
  return shift >= 0 || BigInt(whole + fraction) % pow10(-shift) === 0n;
}

/**
 * The most a session of `total_energy` kWh and `total_time` hours may cost under the limit, in
 * minor units of a currency with `decimals`, rounded up: energy read to the Wh, time to the
 * microhour, computed exactly.
 */
export function cdrCeiling(cdr: Pick<CdrMoney, "total_energy" | "total_time">, limit: CdrLimit, decimals: number): number {
  const wh = BigInt(Math.max(0, minorOf(cdr.total_energy, 3)));
  const microhours = BigInt(Math.max(0, minorOf(cdr.total_time, 6)));
  // perKwh × Wh / 1000 + perMinute × µh × 60 / 10^6, in 10^-4 units, to minor units.
  const numerator = (priceUnits(limit.perKwh) * wh * 1000n + priceUnits(limit.perMinute) * microhours * 60n) * pow10(decimals);
  const denominator = 1_000_000n * PRICE_SCALE;
  return Number((numerator + denominator - 1n) / denominator);
}

/** What a credit CDR refers to: what its CDR debited and what earlier credits gave back, minor units. */
export interface CreditedDebit {
  debited: number;
  returned: number;
}

export interface CdrMoneyFacts {
  /** The operator's main currency and its decimals: the wallets' money. */
  currency: { code: string; decimals: number };
  limit: CdrLimit;
  /** For a credit CDR: the debit it credits; null when we hold no CDR of that id that debited a wallet. */
  credited?: CreditedDebit | null;
  /** The operator reviewed the CDR and released it: the limit and the rounding no longer hold it. */
  released?: boolean;
}

export type CdrMoneyVerdict =
  /** Debit `amount` (minor units, ≥ 0) from the driver's wallet. */
  | { kind: "DEBIT"; amount: number }
  /** Give `amount` (minor units, > 0) back to the wallet the credited CDR debited. */
  | { kind: "CREDIT"; amount: number }
  /** Not the wallets' currency: recorded in its own, never debited (docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md). */
  | { kind: "OTHER_CURRENCY" }
  | { kind: "HOLD"; reason: CdrHoldReason };

const hold = (reason: CdrHoldReason): CdrMoneyVerdict => ({ kind: "HOLD", reason });

/**
 * The one rule every CDR passes before billing (docs/rules/ocpi.md "What a CDR may bill"). A
 * release by the operator lifts the limit and the rounding, never the sign rules or the credit's cap.
 */
export function checkCdrMoney(cdr: CdrMoney, facts: CdrMoneyFacts): CdrMoneyVerdict {
  const amounts = [cdr.total_cost.excl_vat, ...(cdr.total_cost.incl_vat === undefined ? [] : [cdr.total_cost.incl_vat])];
  const sameCurrency = cdr.currency === facts.currency.code;
  const decimals = facts.currency.decimals;
  const exact = amounts.every((a) => isWholeMinor(a, decimals));
  if (cdr.credit) {
    if (amounts.some((a) => a > 0)) return hold("CREDIT_NOT_NEGATIVE");
    if (!sameCurrency || !facts.credited) return hold("CREDIT_REFERENCE");
    if (!exact && !facts.released) return hold("NOT_MINOR_UNITS");
    const asked = -cdrCharge(cdr, decimals).totalCost;
    const left = Math.max(0, facts.credited.debited - facts.credited.returned);
    if (asked > left) return facts.released && left > 0 ? { kind: "CREDIT", amount: left } : hold("CREDIT_ABOVE_DEBIT");
    return asked > 0 ? { kind: "CREDIT", amount: asked } : hold("CREDIT_NOT_NEGATIVE");
  }
  if (amounts.some((a) => a < 0)) return hold("NEGATIVE_TOTAL");
  if (!sameCurrency) return { kind: "OTHER_CURRENCY" };
  if (!exact && !facts.released) return hold("NOT_MINOR_UNITS");
  const amount = cdrCharge(cdr, decimals).totalCost;
  const highest = Math.max(...amounts.map((a) => minorOf(a, decimals)));
  if (highest > cdrCeiling(cdr, facts.limit, decimals) && !facts.released) return hold("ABOVE_LIMIT");
  return { kind: "DEBIT", amount };
}
