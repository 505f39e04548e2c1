import { z } from "zod";

/**
 * Numbers at the boundary (docs/rules/input.md). A field typed as a whole number takes a JSON
 * number or the decimal digits a form sends as text; never a boolean, an array, a hex or
 * exponent string, or surrounding blanks (`z.coerce` would turn `true` into 1 and "0x10" into
 * 16). Decimal fields take a number or a plain decimal string like "7.5".
 */
const WHOLE_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

const fromText = (pattern: RegExp) => (value: unknown) => (typeof value === "string" && pattern.test(value) ? Number(value) : value);

/** A whole number; `checks` adds bounds (`(n) => n.min(1)`), `error` names the message key. */
export function wholeNumber(error = "validation.integer", checks: (n: z.ZodNumber) => z.ZodNumber = (n) => n) {
  return z.preprocess(fromText(WHOLE_TEXT), checks(z.number({ error }).int({ error })));
}

/** A decimal number (kW, coordinates…); `checks` adds bounds. */
export function decimalNumber(error = "validation.number", checks: (n: z.ZodNumber) => z.ZodNumber = (n) => n) {
  return z.preprocess(fromText(DECIMAL_TEXT), checks(z.number({ error })));
}

/** A record id: 1 or more, as a number or digits. */
export const recordId = (error = "validation.invalid") => wholeNumber(error, (n) => n.positive({ error }));

/**
 * A path id: decimal digits only, no sign, no leading zero, no blanks (`0x3`, `3.0`, ` 3` are
 * refused), at most a safe integer.
 */
export const pathId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, { error: "errors.invalidId" })
  .transform(Number);
