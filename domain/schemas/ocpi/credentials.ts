import { z } from "zod";
import { businessDetails, countryCode, partyId } from "./common";

/** Credentials (OCPI 2.2.1 §7.3). */
export const ROLES = ["CPO", "EMSP", "HUB", "NAP", "NSP", "OTHER", "SCSP"] as const;

export const credentialsRole = z.strictObject({
  role: z.enum(ROLES),
  business_details: businessDetails,
  party_id: partyId,
  country_code: countryCode,
});

export const credentials = z.strictObject({
  token: z.string().min(1).max(64),
  url: z.url(),
  roles: z.array(credentialsRole).min(1),
});
export type Credentials = z.infer<typeof credentials>;
