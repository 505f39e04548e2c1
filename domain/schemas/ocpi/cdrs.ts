import { z } from "zod";
import { ciString, countryCode, currencyCode, dateTime, decimal, partyId, price, text } from "./common";
import { CONNECTOR_FORMATS, CONNECTOR_TYPES, geoLocation, POWER_TYPES } from "./locations";
import { AUTH_METHODS, cdrToken, chargingPeriod } from "./sessions";
import { tariff } from "./tariffs";

/** Charge detail records (OCPI 2.2.1 §10.3, §10.4). */
export const cdrLocation = z.looseObject({
  id: ciString(36),
  name: text(255).optional(),
  address: text(45),
  city: text(45),
  postal_code: text(10).optional(),
  state: text(20).optional(),
  country: z.string().regex(/^[A-Z]{3}$/),
  coordinates: geoLocation,
  evse_uid: ciString(36),
  evse_id: ciString(48),
  connector_id: ciString(36),
  connector_standard: z.enum(CONNECTOR_TYPES),
  connector_format: z.enum(CONNECTOR_FORMATS),
  connector_power_type: z.enum(POWER_TYPES),
});

const signedData = z.looseObject({
  encoding_method: ciString(36),
  encoding_method_version: z.int().optional(),
  public_key: z.string().max(512).optional(),
  signed_values: z.array(z.looseObject({ nature: ciString(32), plain_data: z.string().max(512), signed_data: z.string().max(5000) })).min(1),
  url: z.string().max(512).optional(),
});

export const cdr = z.looseObject({
  country_code: countryCode,
  party_id: partyId,
  id: ciString(39),
  start_date_time: dateTime,
  end_date_time: dateTime,
  session_id: ciString(36).optional(),
  cdr_token: cdrToken,
  auth_method: z.enum(AUTH_METHODS),
  authorization_reference: ciString(36).optional(),
  cdr_location: cdrLocation,
  meter_id: z.string().max(255).optional(),
  currency: currencyCode,
  tariffs: z.array(tariff).optional(),
  charging_periods: z.array(chargingPeriod).min(1),
  signed_data: signedData.optional(),
  total_cost: price,
  total_fixed_cost: price.optional(),
  total_energy: decimal.min(0),
  total_energy_cost: price.optional(),
  total_time: decimal.min(0),
  total_time_cost: price.optional(),
  total_parking_time: decimal.min(0).optional(),
  total_parking_cost: price.optional(),
  total_reservation_cost: price.optional(),
  remark: z.string().max(255).optional(),
  invoice_reference_id: ciString(39).optional(),
  credit: z.boolean().optional(),
  credit_reference_id: ciString(39).optional(),
  home_charging_compensation: z.boolean().optional(),
  last_updated: dateTime,
});
export type OcpiCdr = z.infer<typeof cdr>;
