import { z } from "zod";
import { ciString, countryCode, currencyCode, dateTime, decimal, partyId, patchOf, price, tokenType } from "./common";

/** Sessions and the parts CDRs share (OCPI 2.2.1 §9.3, §10.4). */
export const SESSION_STATUSES = ["ACTIVE", "COMPLETED", "INVALID", "PENDING", "RESERVATION"] as const;
export const AUTH_METHODS = ["AUTH_REQUEST", "COMMAND", "WHITELIST"] as const;
const DIMENSIONS = [
  "CURRENT", "ENERGY", "ENERGY_EXPORT", "ENERGY_IMPORT", "MAX_CURRENT", "MIN_CURRENT", "MAX_POWER", "MIN_POWER", "PARKING_TIME", "POWER",
  "RESERVATION_TIME", "STATE_OF_CHARGE", "TIME",
] as const;

export const cdrToken = z.looseObject({ country_code: countryCode, party_id: partyId, uid: ciString(36), type: tokenType, contract_id: ciString(36) });

export const chargingPeriod = z.looseObject({
  start_date_time: dateTime,
  dimensions: z.array(z.looseObject({ type: z.enum(DIMENSIONS), volume: decimal })).min(1),
  tariff_id: ciString(36).optional(),
});

export const session = z.looseObject({
  country_code: countryCode,
  party_id: partyId,
  id: ciString(36),
  start_date_time: dateTime,
  end_date_time: dateTime.optional(),
  kwh: decimal.min(0),
  cdr_token: cdrToken,
  auth_method: z.enum(AUTH_METHODS),
  authorization_reference: ciString(36).optional(),
  location_id: ciString(36),
  evse_uid: ciString(36),
  connector_id: ciString(36),
  meter_id: z.string().max(255).optional(),
  currency: currencyCode,
  charging_periods: z.array(chargingPeriod).optional(),
  total_cost: price.optional(),
  status: z.enum(SESSION_STATUSES),
  last_updated: dateTime,
});
export type OcpiSession = z.infer<typeof session>;
export const sessionPatch = patchOf(session);
