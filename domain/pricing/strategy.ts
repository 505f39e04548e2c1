import type { TimeSlot } from "./slots";

/**
 * A charging strategy's prices, as one version of it holds them (docs/rules/pricing.md
 * "Strategies"). Unit prices are decimal texts with up to four decimals; `capAmount`,
 * `minimumThreshold`, `preAuthAmount` and `subscriptionPrice` are integers in minor units.
 */

export const SERVICE_UNITS = ["NONE", "COUNT", "KWH", "MINUTE", "HOUR"] as const;
export type ServiceUnit = (typeof SERVICE_UNITS)[number];

export const IDLE_UNITS = ["MINUTE", "HOUR"] as const;
export type IdleUnit = (typeof IDLE_UNITS)[number];

export interface PricedSlot extends TimeSlot {
  price: string;
}

export interface IdleFee {
  unit: IdleUnit;
  price: string;
  freeMinutes: number;
}

export interface IdleAfterFee extends IdleFee {
  capAmount?: number | null;
}

export interface StrategyPrices {
  electricity: { slots: PricedSlot[] };
  service: { unit: ServiceUnit; slots: PricedSlot[] };
  idle: { before: IdleFee | null; during: IdleFee | null; after: IdleAfterFee | null };
  /** The least balance a driver needs to start (read by authorisation, not by the engine). */
  minimumThreshold?: number | null;
  /** What a card payment is pre-authorised for (read by payments, not by the engine). */
  preAuthAmount?: number | null;
  /** The price of a subscription to this strategy (not a per-session fee). */
  subscriptionPrice?: number | null;
}

/** A flat strategy: one price all day, no service fee, no idle fees. */
export function flatPrices(price: string): StrategyPrices {
  return {
    electricity: { slots: [{ start: "00:00", end: "24:00", price }] },
    service: { unit: "NONE", slots: [] },
    idle: { before: null, during: null, after: null },
  };
}
