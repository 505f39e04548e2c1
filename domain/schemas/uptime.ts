import { z } from "zod";
import { EXCLUSION_REASONS } from "../uptime";
import { pageQuery } from "./account-service";
import { recordId } from "./numbers";

/**
 * Queries and bodies of the reliability screen (docs/rules/monitoring.md "Uptime"). The period is
 * typed in the operator's time zone as the lists take it, `yyyy-MM-dd[THH:mm]`, `to` exclusive.
 */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2})?$/;
const localTime = (error: string) => z.string({ error }).trim().regex(LOCAL_TIME, { error });

const period = {
  from: localTime("reliability.validation.from"),
  to: localTime("reliability.validation.to"),
  stationId: recordId("reliability.validation.stationId").optional(),
};

/** The longest period asked at once: a trailing leap year and a day either side. */
export const MAX_PERIOD_DAYS = 370;

export const UPTIME_UNITS = ["day", "month"] as const;

export const uptimeQuery = pageQuery.extend({
  ...period,
  /** Also per local day or month of the period (`periods` of each port), for the export. */
  by: z.enum(UPTIME_UNITS, { error: "reliability.validation.by" }).optional(),
});

export const outageQuery = pageQuery.extend({
  ...period,
  pointId: recordId("reliability.validation.pointId").optional(),
});

export const reliabilityQuery = z.object(period);

/** The operator's cause of an outage outside its control, or null to count it again. */
export const outageExclusionInput = z.strictObject({
  reason: z.enum(EXCLUSION_REASONS, { error: "reliability.validation.reason" }).nullable(),
  note: z.string({ error: "reliability.validation.note" }).trim().max(500, { error: "reliability.validation.note" }).optional(),
});
