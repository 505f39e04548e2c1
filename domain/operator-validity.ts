import type { Validity } from "./schemas/platform";

/**
 * Whether an operator is in service (docs/rules/platform.md "Validity"): enabled, begun, not
 * ended. Outside it nobody logs in and its chargers are Rejected at boot; its data stays.
 */
export interface ValidityFacts {
  status: "VALID" | "INVALID";
  validFrom: Date | null;
  validUntil: Date | null;
}

export function validityOf(operator: ValidityFacts, now: number): Validity {
  if (operator.status !== "VALID") return "disabled";
  if (operator.validUntil && now >= operator.validUntil.getTime()) return "expired";
  if (operator.validFrom && now < operator.validFrom.getTime()) return "future";
  return "valid";
}

export const inService = (operator: ValidityFacts, now: number) => validityOf(operator, now) === "valid";

/** The message a refused login gets for each validity (errors.* keys). */
export const VALIDITY_ERRORS: Record<Exclude<Validity, "valid">, string> = {
  disabled: "errors.operatorDisabled",
  expired: "errors.operatorExpired",
  future: "errors.operatorNotYetValid",
};
