import { z } from "zod";
import { pageQuery } from "./schemas/account-service";
import { localDate, localMidnight, monthOf } from "./time";

/**
 * How long an operator's history stays in D1 and in its chargers' objects before it is archived
 * to R2 and removed (docs/rules/settings.md "Retention"): records (operation log, meter samples)
 * by calendar months, raw OCPP frames by days, both counted back from the operator's local today.
 */
export interface Retention {
  recordsMonths: number;
  framesDays: number;
}

export const DEFAULT_RETENTION: Retention = { recordsMonths: 13, framesDays: 90 };

/** The bounds an operator may choose: at least a month of records and a week of frames, at most ten years and a year. */
export const RETENTION_LIMITS = { recordsMonths: { min: 1, max: 120 }, framesDays: { min: 7, max: 365 } } as const;

/** What an archive holds, as its key and the console name it. */
export const ARCHIVE_KINDS = ["operation-log", "ocpp-log", "meter-values", "session-statuses"] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

const v = (key: string) => `retention.validation.${key}`;
const whole = (key: keyof typeof RETENTION_LIMITS) =>
  z
    .number({ error: v(key) })
    .int({ error: v(key) })
    .min(RETENTION_LIMITS[key].min, { error: v(key) })
    .max(RETENTION_LIMITS[key].max, { error: v(key) });

/** `PUT /system-service/retention`: both periods, whole numbers within their bounds. */
export const retentionInput = z.strictObject({ recordsMonths: whole("recordsMonths"), framesDays: whole("framesDays") });

/** `GET /system-service/retention/archive`: a page of archives, optionally one kind or one month. */
export const archiveListQuery = pageQuery.extend({
  kind: z.enum(ARCHIVE_KINDS, { error: v("kind") }).optional(),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: v("month") }).optional(),
});
export type ArchiveListQuery = z.infer<typeof archiveListQuery>;

/**
 * The first instant kept of records: local midnight of the same day-of-month `months` calendar
 * months before the operator's local today (the 31st clamped to the month's last day, so 31 March
 * less one month is 28 or 29 February). Anything before it is archived.
 */
export function recordsCutoff(now: number, timeZone: string, months: number): number {
  const today = localDate(now, timeZone);
  const monthIndex = today.year * 12 + (today.month - 1) - months;
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return localMidnight(year, month, Math.min(today.day, lastDay), timeZone);
}

/** The first instant kept of raw frames: local midnight `days` local days before the operator's local today. */
export function framesCutoff(now: number, timeZone: string, days: number): number {
  const today = localDate(now, timeZone);
  return localMidnight(today.year, today.month, today.day - days, timeZone);
}

/** Rows with their instant, grouped by the operator's local month they fall in, in their order. */
export function byLocalMonth<T>(rows: readonly T[], at: (row: T) => number, timeZone: string): Map<string, T[]> {
  const months = new Map<string, T[]>();
  for (const row of rows) {
    const month = monthOf(at(row), timeZone);
    const list = months.get(month);
    if (list) list.push(row);
    else months.set(month, [row]);
  }
  return months;
}

/**
 * Where an archive lives in R2: under the operator, by kind and local month; `part` names the
 * first row it holds and its source (a charger's serial), so writing the same batch again
 * replaces the same object instead of adding a second copy.
 */
export function archiveKey(operatorId: number, kind: ArchiveKind, month: string, part: string): string {
  return `operators/${operatorId}/archives/${kind}/${month}/${part}.ndjson.gz`;
}

/** Rows as NDJSON: one JSON object per line, each line ended. */
export function ndjson(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
}
