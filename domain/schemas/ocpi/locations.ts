import { z } from "zod";
import { businessDetails, ciString, countryCode, dateTime, decimal, displayText, energyMix, image, partyId, patchOf, text, tokenType } from "./common";

/** Locations, EVSEs and connectors (OCPI 2.2.1 §8.3). */
export const EVSE_STATUSES = ["AVAILABLE", "BLOCKED", "CHARGING", "INOPERATIVE", "OUTOFORDER", "PLANNED", "REMOVED", "RESERVED", "UNKNOWN"] as const;
export const CONNECTOR_TYPES = [
  "CHADEMO", "CHAOJI", "DOMESTIC_A", "DOMESTIC_B", "DOMESTIC_C", "DOMESTIC_D", "DOMESTIC_E", "DOMESTIC_F", "DOMESTIC_G", "DOMESTIC_H",
  "DOMESTIC_I", "DOMESTIC_J", "DOMESTIC_K", "DOMESTIC_L", "DOMESTIC_M", "DOMESTIC_N", "DOMESTIC_O", "GBT_AC", "GBT_DC",
  "IEC_60309_2_single_16", "IEC_60309_2_three_16", "IEC_60309_2_three_32", "IEC_60309_2_three_64", "IEC_62196_T1", "IEC_62196_T1_COMBO",
  "IEC_62196_T2", "IEC_62196_T2_COMBO", "IEC_62196_T3A", "IEC_62196_T3C", "NEMA_5_20", "NEMA_6_30", "NEMA_6_50", "NEMA_10_30",
  "NEMA_10_50", "NEMA_14_30", "NEMA_14_50", "PANTOGRAPH_BOTTOM_UP", "PANTOGRAPH_TOP_DOWN", "TESLA_R", "TESLA_S",
] as const;
export const CONNECTOR_FORMATS = ["SOCKET", "CABLE"] as const;
export const POWER_TYPES = ["AC_1_PHASE", "AC_2_PHASE", "AC_2_PHASE_SPLIT", "AC_3_PHASE", "DC"] as const;
const CAPABILITIES = [
  "CHARGING_PROFILE_CAPABLE", "CHARGING_PREFERENCES_CAPABLE", "CHIP_CARD_SUPPORT", "CONTACTLESS_CARD_SUPPORT", "CREDIT_CARD_PAYABLE",
  "DEBIT_CARD_PAYABLE", "PED_TERMINAL", "REMOTE_START_STOP_CAPABLE", "RESERVABLE", "RFID_READER", "START_SESSION_CONNECTOR_REQUIRED",
  "TOKEN_GROUP_CAPABLE", "UNLOCK_CAPABLE",
] as const;
const PARKING_TYPES = ["ALONG_MOTORWAY", "PARKING_GARAGE", "PARKING_LOT", "ON_DRIVEWAY", "ON_STREET", "UNDERGROUND_GARAGE"] as const;
const FACILITIES = [
  "HOTEL", "RESTAURANT", "CAFE", "MALL", "SUPERMARKET", "SPORT", "RECREATION_AREA", "NATURE", "MUSEUM", "BIKE_SHARING", "BUS_STOP",
  "TAXI_STAND", "TRAM_STOP", "METRO_STATION", "TRAIN_STATION", "AIRPORT", "PARKING_LOT", "CARPOOL_PARKING", "FUEL_STATION", "WIFI",
] as const;

/** GeoLocation (OCPI 2.2.1 §8.4.13): decimal degrees as strings. */
export const geoLocation = z.looseObject({
  latitude: z.string().regex(/^-?[0-9]{1,2}\.[0-9]{5,7}$/, "latitude as -?dd.ddddd"),
  longitude: z.string().regex(/^-?[0-9]{1,3}\.[0-9]{5,7}$/, "longitude as -?ddd.ddddd"),
});

const hhmm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);
const hours = z.looseObject({
  twentyfourseven: z.boolean(),
  regular_hours: z.array(z.looseObject({ weekday: z.int().min(1).max(7), period_begin: hhmm, period_end: hhmm })).optional(),
  exceptional_openings: z.array(z.looseObject({ period_begin: dateTime, period_end: dateTime })).optional(),
  exceptional_closings: z.array(z.looseObject({ period_begin: dateTime, period_end: dateTime })).optional(),
});

export const connector = z.looseObject({
  id: ciString(36),
  standard: z.enum(CONNECTOR_TYPES),
  format: z.enum(CONNECTOR_FORMATS),
  power_type: z.enum(POWER_TYPES),
  max_voltage: z.int().min(0),
  max_amperage: z.int().min(0),
  max_electric_power: z.int().min(0).optional(),
  tariff_ids: z.array(ciString(36)).optional(),
  terms_and_conditions: z.url().optional(),
  last_updated: dateTime,
});

export const evse = z.looseObject({
  uid: ciString(36),
  evse_id: ciString(48).optional(),
  status: z.enum(EVSE_STATUSES),
  status_schedule: z.array(z.looseObject({ period_begin: dateTime, period_end: dateTime.optional(), status: z.enum(EVSE_STATUSES) })).optional(),
  capabilities: z.array(z.enum(CAPABILITIES)).optional(),
  connectors: z.array(connector).min(1),
  floor_level: text(4).optional(),
  coordinates: geoLocation.optional(),
  physical_reference: text(16).optional(),
  directions: z.array(displayText).optional(),
  parking_restrictions: z.array(z.enum(["EV_ONLY", "PLUGGED", "DISABLED", "CUSTOMERS", "MOTORCYCLES"])).optional(),
  images: z.array(image).optional(),
  last_updated: dateTime,
});

export const location = z.looseObject({
  country_code: countryCode,
  party_id: partyId,
  id: ciString(36),
  publish: z.boolean(),
  publish_allowed_to: z
    .array(z.looseObject({ uid: ciString(36).optional(), type: tokenType.optional(), visual_number: text(64).optional(), issuer: text(64).optional(), group_id: ciString(36).optional() }))
    .optional(),
  name: text(255).optional(),
  address: text(45),
  city: text(45),
  postal_code: text(10).optional(),
  state: text(20).optional(),
  country: z.string().regex(/^[A-Z]{3}$/, "ISO 3166-1 alpha-3 country code"),
  coordinates: geoLocation,
  related_locations: z.array(geoLocation.extend({ name: displayText.optional() })).optional(),
  parking_type: z.enum(PARKING_TYPES).optional(),
  evses: z.array(evse).optional(),
  directions: z.array(displayText).optional(),
  operator: businessDetails.optional(),
  suboperator: businessDetails.optional(),
  owner: businessDetails.optional(),
  facilities: z.array(z.enum(FACILITIES)).optional(),
  time_zone: text(255).min(1),
  opening_times: hours.optional(),
  charging_when_closed: z.boolean().optional(),
  images: z.array(image).optional(),
  energy_mix: energyMix.optional(),
  last_updated: dateTime,
});
export type OcpiLocation = z.infer<typeof location>;
export type OcpiEvse = z.infer<typeof evse>;
export type OcpiConnector = z.infer<typeof connector>;

export const locationPatch = patchOf(location);
export const evsePatch = patchOf(evse);
export const connectorPatch = patchOf(connector);

/** Coordinates in decimal degrees, for a map. */
export const degreesOf = (g: z.infer<typeof geoLocation>) => ({ lat: Number(g.latitude), lng: Number(g.longitude) });
export { decimal };
