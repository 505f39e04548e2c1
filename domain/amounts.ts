/**
 * Amount rules (docs/rules/console.md "Forms"): with decimals above 0 the fraction may not be
 * longer than the configured decimals and a trailing dot is refused; with 0 only integers pass.
 */
export type AmountProblem = "required" | "number" | "decimals" | "trailingDot";

export function checkAmount(input: string, decimals: number): AmountProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.endsWith(".")) return "trailingDot";
  if (!/^-?\d+(\.\d+)?$/.test(value)) return "number";
  const fraction = value.split(".")[1] ?? "";
  if (fraction.length > decimals) return "decimals";
  return undefined;
}

/** A display amount to integer minor units, without floating-point drift. */
export function toMinorUnits(input: string, decimals: number): number {
  const [whole, fraction = ""] = input.trim().split(".");
  const negative = whole.startsWith("-");
  const digits = whole.replace("-", "") + fraction.padEnd(decimals, "0").slice(0, decimals);
  const minor = Number(digits);
  return negative ? -minor : minor;
}

/**
 * Input filters (docs/rules/console.md "Forms"): keep only digits (and one dot when decimals are
 * allowed, with at most `decimals` digits after it). Used as the user types.
 */
export function filterNumeric(input: string, decimals = 0): string {
  let out = "";
  let seenDot = false;
  let fractionDigits = 0;
  for (const ch of input) {
    if (ch >= "0" && ch <= "9") {
      if (seenDot) {
        if (fractionDigits >= decimals) continue;
        fractionDigits++;
      }
      out += ch;
    } else if (ch === "." && decimals > 0 && !seenDot && out !== "") {
      seenDot = true;
      out += ch;
    }
  }
  return out;
}
