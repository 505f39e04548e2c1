import { z } from "zod";
import { ciString, countryCode, dateTime, displayText, partyId, text, tokenType } from "./common";

/** Tokens, of which we are the sender (OCPI 2.2.1 §12.3, §12.4). */

const whole = z.string().regex(/^\d{1,9}$/).transform(Number);
/** `GET /ocpi/2.2.1/tokens`: a CPO's page of our tokens (OCPI 2.2.1 §4.1.3, paginated GET). */
export const tokensQuery = z.object({
  offset: whole.default(0),
  limit: whole.refine((n) => n >= 1, "limit must be at least 1").optional(),
  date_from: dateTime.optional(),
  date_to: dateTime.optional(),
});
export const WHITELIST_TYPES = ["ALWAYS", "ALLOWED", "ALLOWED_OFFLINE", "NEVER"] as const;
export const ALLOWED_TYPES = ["ALLOWED", "BLOCKED", "EXPIRED", "NO_CREDIT", "NOT_ALLOWED"] as const;
export type AllowedType = (typeof ALLOWED_TYPES)[number];

export const token = z.strictObject({
  country_code: countryCode,
  party_id: partyId,
  uid: ciString(36),
  type: tokenType,
  contract_id: ciString(36),
  visual_number: text(64).optional(),
  issuer: text(64),
  group_id: ciString(36).optional(),
  valid: z.boolean(),
  whitelist: z.enum(WHITELIST_TYPES),
  language: z.string().regex(/^[a-z]{2}$/).optional(),
  default_profile_type: z.enum(["CHEAP", "FAST", "GREEN", "REGULAR"]).optional(),
  energy_contract: z.strictObject({ supplier_name: text(64), contract_id: text(64).optional() }).optional(),
  last_updated: dateTime,
});
export type OcpiToken = z.infer<typeof token>;

/** LocationReferences, the optional body of a real-time authorization (OCPI 2.2.1 §12.4.4). */
export const locationReferences = z.looseObject({ location_id: ciString(36), evse_uids: z.array(ciString(36)).optional() });

export const authorizationInfo = z.strictObject({
  allowed: z.enum(ALLOWED_TYPES),
  token,
  location: locationReferences.optional(),
  authorization_reference: ciString(36).optional(),
  info: displayText.optional(),
});
