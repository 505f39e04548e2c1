import { checkAmount, toMinorUnits, type AmountProblem } from "./amounts";
import { currencyFacts } from "./currency";

/**
 * The platform's operator form types the subscription amount in major units of the operator's
 * currency; the API keeps minor units (docs/rules/platform.md "Provisioning",
 * docs/rules/console.md "Forms"). These turn one into the other, once, at the form's edge.
 */

/** The decimals an operator's money is kept in: those typed on the form (0 to 4), else its currency's own. */
export function operatorDecimals(currency: string, typed: string | number | null | undefined): number {
  const text = typed === null || typed === undefined ? "" : String(typed).trim();
  if (/^[0-4]$/.test(text)) return Number(text);
  return currencyFacts(currency.trim().toUpperCase() || "XXX").decimals;
}

/**
 * The subscription typed in major units as minor units: blank is no amount; a negative amount or
 * one with more decimals than the currency keeps is a problem for its field.
 */
export function subscriptionMinor(text: string, decimals: number): { minor: number | undefined } | { problem: AmountProblem | "negative" } {
  const value = text.trim();
  if (value === "") return { minor: undefined };
  if (value.startsWith("-")) return { problem: "negative" };
  const problem = checkAmount(value, decimals);
  return problem ? { problem } : { minor: toMinorUnits(value, decimals) };
}
