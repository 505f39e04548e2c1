import { z } from "zod";
import { ciString, countryCode, currencyCode, dateTime, decimal, displayText, energyMix, partyId, price, text } from "./common";

/** Tariffs (OCPI 2.2.1 §11.3). */
export const TARIFF_TYPES = ["AD_HOC_PAYMENT", "PROFILE_CHEAP", "PROFILE_FAST", "PROFILE_GREEN", "REGULAR"] as const;
export const PRICE_COMPONENT_TYPES = ["ENERGY", "FLAT", "PARKING_TIME", "TIME"] as const;
const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"] as const;
const hhmm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const priceComponent = z.looseObject({
  type: z.enum(PRICE_COMPONENT_TYPES),
  price: decimal.min(0),
  vat: decimal.min(0).optional(),
  step_size: z.int().min(0),
});

export const tariffRestrictions = z.looseObject({
  start_time: hhmm.optional(),
  end_time: hhmm.optional(),
  start_date: date.optional(),
  end_date: date.optional(),
  min_kwh: decimal.optional(),
  max_kwh: decimal.optional(),
  min_current: decimal.optional(),
  max_current: decimal.optional(),
  min_power: decimal.optional(),
  max_power: decimal.optional(),
  min_duration: z.int().optional(),
  max_duration: z.int().optional(),
  day_of_week: z.array(z.enum(DAYS)).optional(),
  reservation: z.enum(["RESERVATION", "RESERVATION_EXPIRES"]).optional(),
});

export const tariffElement = z.looseObject({ price_components: z.array(priceComponent).min(1), restrictions: tariffRestrictions.optional() });

export const tariff = z.looseObject({
  country_code: countryCode,
  party_id: partyId,
  id: ciString(36),
  currency: currencyCode,
  type: z.enum(TARIFF_TYPES).optional(),
  tariff_alt_text: z.array(displayText).optional(),
  tariff_alt_url: z.url().optional(),
  min_price: price.optional(),
  max_price: price.optional(),
  elements: z.array(tariffElement).min(1),
  start_date_time: dateTime.optional(),
  end_date_time: dateTime.optional(),
  energy_mix: energyMix.optional(),
  last_updated: dateTime,
});
export type OcpiTariff = z.infer<typeof tariff>;
export { text };
