import { z } from "zod";
import { businessDetails, countryCode, partyId } from "./common";

/** Credentials (OCPI 2.2.1 §7.3). */
export const ROLES = ["CPO", "EMSP", "HUB", "NAP", "NSP", "OTHER", "SCSP"] as const;

export const credentialsRole = z.looseObject({
  role: z.enum(ROLES),
  business_details: businessDetails,
  party_id: partyId,
  country_code: countryCode,
});

/**
 * A partner's credentials. `roles` is required, as 2.2.1 defines it; the top-level `party_id`,
 * `country_code` and `business_details` of 2.1.1, which hubs between versions still send, are
 * fields 2.2.1 does not define: ignored, and no role is derived from them, since 2.1.1 names no
 * role and a guessed one would decide whose objects the partner may push
 * (docs/rules/ocpi.md "Fields 2.2.1 does not define").
 */
export const credentials = z.looseObject({
  token: z.string().min(1).max(64),
  url: z.url(),
  roles: z.array(credentialsRole).min(1),
});
export type Credentials = z.infer<typeof credentials>;
