/**
 * Exact decimal arithmetic for prices (docs/decisions/0005-money-in-minor-units.md): unit prices
 * are decimal strings with up to four decimals, held here as integers scaled by 10^4, and every
 * product is computed in BigInt, so no float ever touches money.
 */

/** Fraction digits a unit price may have (docs/rules/pricing.md "Strategies"). */
export const PRICE_DECIMALS = 4;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS);

const PRICE_TEXT = /^\d{1,9}(\.\d{1,4})?$/;

/** Whether a text is a non-negative price with at most four decimals. */
export const isPriceText = (text: string) => PRICE_TEXT.test(text);

/** A price text to its value in 10^-4 currency units ("0.5" → 5000n). */
export function priceUnits(text: string): bigint {
  if (!isPriceText(text)) throw new RangeError(`not a price: ${text}`);
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole) * PRICE_SCALE + BigInt(fraction.padEnd(PRICE_DECIMALS, "0"));
}

/** A price in its canonical form, four decimals ("0.5" → "0.5000"). */
export const formatPrice = (text: string) => fixed(priceUnits(text), PRICE_DECIMALS);

/** A scaled integer as a decimal text with `decimals` fraction digits (1234n, 3 → "1.234"). */
export function fixed(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/**
 * `numerator / denominator` rounded half-up to an integer (both non-negative): the one rounding a
 * cost line gets (docs/rules/pricing.md "The engine", rounding).
 */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n || numerator < 0n) throw new RangeError("divideHalfUp takes a non-negative numerator and a positive denominator");
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** 10^n as a BigInt. */
export const pow10 = (n: number) => 10n ** BigInt(n);

/**
 * A price (10^-4 units) times a rational quantity `quantity / per` in minor units of a currency
 * with `decimals`, rounded half-up once.
 */
export function lineAmount(price: bigint, quantity: bigint, per: bigint, decimals: number): number {
  return Number(divideHalfUp(price * quantity * pow10(decimals), per * PRICE_SCALE));
}

/** A percentage text ("23", "8.5") as 10^-4 percent units; undefined when it is not one. */
export function percentUnits(text: string): bigint | undefined {
  return isPriceText(text) ? priceUnits(text) : undefined;
}

export { PRICE_SCALE };
