import { z } from "zod";

/**
 * Types shared by the OCPI 2.2.1 objects (OCPI 2.2.1 §16 "Types"). The wire names are the
 * protocol's own (snake_case). What partners send is read by loose schemas: every field 2.2.1
 * defines is validated (a wrong type or a missing required field is 2001, nothing stored), a field
 * it does not define is ignored and kept with the object, at any depth (OCPI 2.3.0 makes this a
 * must; docs/rules/ocpi.md "Fields 2.2.1 does not define"). What we send stays strict.
 */

/** OCPI status codes (OCPI 2.2.1 §5 "Status codes"). */
export const OCPI_STATUS = {
  success: 1000,
  clientError: 2000,
  invalidParameters: 2001,
  notEnoughInformation: 2002,
  unknownLocation: 2003,
  unknownToken: 2004,
  serverError: 3000,
  unableToUseClientApi: 3001,
  unsupportedVersion: 3002,
  noMatchingEndpoints: 3003,
} as const;

/** CiString(n) / string(n): printable ASCII up to n characters (OCPI 2.2.1 §16.1). */
export const ciString = (max: number) => z.string().min(1).max(max);
export const text = (max: number) => z.string().max(max);

/** DateTime (OCPI 2.2.1 §16.2): RFC 3339 in UTC, `Z` optional (UTC is implied), fraction allowed. */
export const dateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z?$/, "RFC 3339 date-time in UTC");
/** Milliseconds of an OCPI DateTime (it is UTC even without the `Z`). */
export const instantOf = (value: string) => Date.parse(value.endsWith("Z") ? value : `${value}Z`);

export const countryCode = z.string().regex(/^[A-Z]{2}$/, "ISO 3166-1 alpha-2 country code");
export const partyId = z.string().regex(/^[A-Z0-9]{3}$/, "party id of three letters or digits");
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, "ISO 4217 currency code");

/** number (OCPI 2.2.1 §16.5): a decimal; kept as the partner sent it. */
export const decimal = z.number().finite();

export const displayText = z.looseObject({ language: z.string().regex(/^[a-z]{2}$/), text: text(512) });
export const price = z.looseObject({ excl_vat: decimal, incl_vat: decimal.optional() });

export const IMAGE_CATEGORIES = ["CHARGER", "ENTRANCE", "LOCATION", "NETWORK", "OPERATOR", "OTHER", "OWNER"] as const;
export const image = z.looseObject({
  url: z.url(),
  thumbnail: z.url().optional(),
  category: z.enum(IMAGE_CATEGORIES),
  type: ciString(4),
  width: z.int().min(0).max(99999).optional(),
  height: z.int().min(0).max(99999).optional(),
});

/** BusinessDetails (OCPI 2.2.1 §8.4.2). */
export const businessDetails = z.looseObject({ name: text(100).min(1), website: z.url().optional(), logo: image.optional() });

export const TOKEN_TYPES = ["AD_HOC_USER", "APP_USER", "OTHER", "RFID"] as const;
export const tokenType = z.enum(TOKEN_TYPES);

/** EnergyMix (OCPI 2.2.1 §8.4.7). */
export const energyMix = z.looseObject({
  is_green_energy: z.boolean(),
  energy_sources: z
    .array(z.looseObject({ source: z.enum(["NUCLEAR", "GENERAL_FOSSIL", "COAL", "GAS", "GENERAL_GREEN", "SOLAR", "WIND", "WATER"]), percentage: decimal }))
    .optional(),
  environ_impact: z.array(z.looseObject({ category: z.enum(["NUCLEAR_WASTE", "CARBON_DIOXIDE"]), amount: decimal })).optional(),
  supplier_name: text(64).optional(),
  energy_product_name: text(64).optional(),
});

/** The response envelope every OCPI answer carries (OCPI 2.2.1 §4.1.7). */
export const envelope = z.object({
  data: z.unknown().optional(),
  status_code: z.int(),
  status_message: z.string().optional(),
  timestamp: dateTime,
});
export type Envelope = z.infer<typeof envelope>;

/** A PATCH: any subset of the object's fields, `last_updated` required (OCPI 2.2.1 §3.4.2). */
export const patchOf = <T extends z.ZodRawShape>(object: z.ZodObject<T>) =>
  object.partial().refine((p: Record<string, unknown>) => typeof p.last_updated === "string", { message: "last_updated is required", path: ["last_updated"] });
