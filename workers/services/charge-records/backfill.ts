import { and, count, gte, inArray, lt, lte, max, min, sql } from "drizzle-orm";
import { rowsFor } from "../../../db/paging";
import { chargeRecords, dailyChargeTotals, operators } from "../../../db/schema";
import { dayKey, dayRange, localDate } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned } from "../../../tenants/scope";
import type { SystemCtx } from "../context";
import { localStartDay } from "./charge-records";
import { verb } from "../verb";

/**
 * The daily record counts (`daily_charge_totals.records`) of records made before the counts
 * existed (docs/decisions/0069-daily-record-counts-backfilled-by-housekeeping.md): a database
 * migrated across the migration that added the column has records but no counts for them, and the
 * unfiltered list's total, the sum of the counts, is short (docs/rules/records.md "Fast at scale").
 * Housekeeping finds the operators whose counts do not add up to their records and recounts them,
 * a month of local days per batch; a recount sets counts, never adds, so running it again changes
 * nothing.
 */

/** Local days recounted per batch: one statement counts at most a month of one operator's records. */
export const BACKFILL_WINDOW_DAYS = 31;
/** Batches per operator and run: the rest waits for the next run, which resumes where counts still differ. */
export const BACKFILL_WINDOWS_PER_RUN = 24;

/** Operators whose daily record counts do not add up to their charge records, for housekeeping. */
export const recordCountGaps = verb({ actors: ["system"] }, async (ctx) => {
  // Across operators on purpose: housekeeping looks for every operator whose counts fell behind.
  const [records, counted] = await Promise.all([
    ctx.db.select({ operatorId: chargeRecords.operatorId, n: count() }).from(chargeRecords).where(acrossTenants("housekeeping looks for every operator whose daily record counts fell behind")).groupBy(chargeRecords.operatorId),
    ctx.db
      .select({ operatorId: dailyChargeTotals.operatorId, n: sql<number>`coalesce(sum(${dailyChargeTotals.records}), 0)` })
      .from(dailyChargeTotals)
      .where(acrossTenants("housekeeping looks for every operator whose daily record counts fell behind"))
      .groupBy(dailyChargeTotals.operatorId),
  ]);
  const countedBy = new Map(counted.map((r) => [r.operatorId, Number(r.n)]));
  const behind = records.filter((r) => r.n !== (countedBy.get(r.operatorId) ?? 0)).map((r) => r.operatorId);
  return rowsFor(behind, (slice) => ctx.db.select({ id: operators.id, code: operators.code }).from(operators).where(inArray(operators.id, slice)));
});

const nextDay = (day: string, days: number) => {
  const [y, m, d] = day.split("-").map(Number);
  return dayKey(localDate(Date.UTC(y, m - 1, d + days), "UTC"));
};

/**
 * Recounts one operator's daily record counts where they differ from its records, oldest month
 * first: in one batch per window, the window's counts are zeroed and set again from the records
 * grouped by point and local start day (the operator's time zone today), so a count is never
 * doubled and a count filed under another day by an older zone does not stay beside the new one.
 * Answers the windows it recounted.
 */
export const backfillRecordCounts = verb({ actors: ["system"] }, async (ctx: SystemCtx) => {
  const [span] = await ctx.db.select({ first: min(chargeRecords.startAt), last: max(chargeRecords.startAt) }).from(chargeRecords).where(owned(ctx, chargeRecords));
  if (!span?.first || !span.last) return 0;
  const { timeZone } = await settingsOf(ctx.db, ctx.operator.id);
  const lastDay = dayKey(localDate(span.last.getTime(), timeZone));
  let recounted = 0;
  for (let day = dayKey(localDate(span.first.getTime(), timeZone)); day <= lastDay && recounted < BACKFILL_WINDOWS_PER_RUN; ) {
    const end = nextDay(day, BACKFILL_WINDOW_DAYS - 1) < lastDay ? nextDay(day, BACKFILL_WINDOW_DAYS - 1) : lastDay;
    const { from, to } = dayRange(day, end, timeZone);
    const started = and(gte(chargeRecords.startAt, new Date(from)), lt(chargeRecords.startAt, new Date(to)));
    const days = and(gte(dailyChargeTotals.day, day), lte(dailyChargeTotals.day, end));
    const [[records], [counted]] = await Promise.all([
      ctx.db.select({ n: count() }).from(chargeRecords).where(owned(ctx, chargeRecords, started)),
      ctx.db.select({ n: sql<number>`coalesce(sum(${dailyChargeTotals.records}), 0)` }).from(dailyChargeTotals).where(owned(ctx, dailyChargeTotals, days)),
    ]);
    if (records.n !== Number(counted.n)) {
      const localDay = localStartDay(from, to, timeZone);
      await ctx.db.batch([
        ctx.db.update(dailyChargeTotals).set({ records: 0 }).where(owned(ctx, dailyChargeTotals, days)),
        ctx.db
          .insert(dailyChargeTotals)
          .select(
            ctx.db
              .select({
                operatorId: chargeRecords.operatorId,
                day: localDay.as("day"),
                pointId: chargeRecords.pointId,
                sessions: sql<number>`0`.as("sessions"),
                energyWh: sql<number>`0`.as("energy_wh"),
                durationS: sql<number>`0`.as("duration_s"),
                revenue: sql<number>`0`.as("revenue"),
                pricedSessions: sql<number>`0`.as("priced_sessions"),
                records: count().as("records"),
              })
              .from(chargeRecords)
              .where(owned(ctx, chargeRecords, started))
              .groupBy(localDay, chargeRecords.pointId),
          )
          .onConflictDoUpdate({
            target: [dailyChargeTotals.operatorId, dailyChargeTotals.day, dailyChargeTotals.pointId],
            set: { records: sql`excluded.records` },
          }),
      ]);
      recounted++;
    }
    day = nextDay(end, 1);
  }
  return recounted;
});
