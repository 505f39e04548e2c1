import { currencyFacts } from "./currency";

/**
 * Amounts as PayPal writes them (docs/rules/payments.md "PayPal"): a decimal string with exactly
 * the currency's decimals at PayPal ("12.50" PLN, "1250" JPY), converted from and to the product's
 * integer minor units without floating point (docs/decisions/0005-money-in-minor-units.md).
 * PayPal takes no decimals at all for HUF, JPY and TWD, whatever ISO 4217 says of HUF and TWD.
 */

const PAYPAL_WHOLE_UNITS = new Set(["HUF", "JPY", "TWD"]);

/** The decimals PayPal writes for a currency. */
export const paypalDecimals = (currency: string) => (PAYPAL_WHOLE_UNITS.has(currency.toUpperCase()) ? 0 : currencyFacts(currency.toUpperCase()).decimals);

/**
 * `minor` (the product's minor units, `decimals` of them per unit) as PayPal's value, or null when
 * PayPal cannot carry it exactly (a fraction of a unit PayPal does not divide, a negative or
 * unsafe number).
 */
export function toPayPalValue(minor: number, currency: string, decimals: number): string | null {
  if (!Number.isSafeInteger(minor) || minor < 0 || !Number.isInteger(decimals) || decimals < 0) return null;
  const theirs = paypalDecimals(currency);
  let digits = BigInt(minor);
  if (decimals > theirs) {
    const step = 10n ** BigInt(decimals - theirs);
    if (digits % step !== 0n) return null;
    digits /= step;
  } else digits *= 10n ** BigInt(theirs - decimals);
  const text = digits.toString().padStart(theirs + 1, "0");
  return theirs === 0 ? text : `${text.slice(0, -theirs)}.${text.slice(-theirs)}`;
}

/**
 * PayPal's value back in the product's minor units, or null when it is not a plain non-negative
 * decimal with at most PayPal's decimals for the currency, or needs more decimals than ours.
 */
export function fromPayPalValue(value: string, currency: string, decimals: number): number | null {
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(value);
  if (!match) return null;
  const [, whole, fraction = ""] = match;
  if (fraction.length > paypalDecimals(currency)) return null;
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > decimals) return null;
  const minor = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(significant.padEnd(decimals, "0") || "0");
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor);
}
