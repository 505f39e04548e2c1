import { encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, exists, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { chargeRecords, dailyChargeTotals, transactions } from "../../../db/schema";
import { dayKey, localDate } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { owned, ownedRow } from "../../../tenants/scope";
import type { Ctx, SystemCtx } from "../context";
import { verb } from "../verb";

/**
 * How a charge record comes and goes with its transaction (docs/rules/records.md "Record
 * states"): made at StartTransaction (CHARGING, or ABNORMAL for a start the charger was not
 * accepted for), ABNORMAL with its transaction, CHARGE_COMPLETE once the billing job has
 * handled the stop; the daily totals move in the same batch as the billing
 * (docs/rules/records.md "Daily totals").
 */

/** 128 random bits as 32 hex digits: a receipt token or a bill code, never guessable from the record's number. */
export function publicCode(): string {
  return encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(16)));
}

export interface OpenedTransaction {
  /** The id, or a subquery that finds it: StartTransaction inserts both rows in one batch. */
  transactionId: number | SQL<number>;
  pointId: number;
  connectorNo: number;
  idTag: string;
  startAt: Date;
  abnormal: boolean;
  /** An OCPP 2.0.1 charger's own transaction id. */
  chargerTransactionId?: string | null;
}

/**
 * The statements that make a transaction's record, for one batch: the day's record count of its
 * point (docs/rules/records.md "Fast at scale") gains one unless the record exists already, then
 * the record is inserted; a record that exists already is kept as it is. `timeZone`: the
 * operator's, whose local start day the count goes to.
 */
export function openRecordStatements(ctx: Ctx, t: OpenedTransaction, currency: string, timeZone: string) {
  const day = dayKey(localDate(t.startAt.getTime(), timeZone));
  const isNew = sql<number>`(case when exists (select 1 from ${chargeRecords} where ${owned(ctx, chargeRecords, eq(chargeRecords.transactionId, t.transactionId))}) then 0 else 1 end)`;
  const count = ctx.db
    .insert(dailyChargeTotals)
    .values(ownedRow(ctx, { day, pointId: t.pointId, records: isNew }))
    .onConflictDoUpdate({
      target: [dailyChargeTotals.operatorId, dailyChargeTotals.day, dailyChargeTotals.pointId],
      set: { records: sql`${dailyChargeTotals.records} + excluded.records` },
    });
  const record = ctx.db
    .insert(chargeRecords)
    .values(
      ownedRow(ctx, {
        transactionId: t.transactionId,
        pointId: t.pointId,
        connectorNo: t.connectorNo,
        idTag: t.idTag,
        chargerTransactionId: t.chargerTransactionId ?? null,
        startAt: t.startAt,
        status: t.abnormal ? ("ABNORMAL" as const) : ("CHARGING" as const),
        currency,
        receiptToken: publicCode(),
        billCode: publicCode(),
      }),
    )
    .onConflictDoNothing();
  return [count, record] as const;
}

/**
 * The record of a transaction, made if it is missing (a transaction recorded before records
 * existed, or a start whose record insert was lost): billing always has a record to complete.
 */
export const ensureChargeRecord = verb({ actors: ["system"] }, async (ctx, transactionId: number) => {
  const [t] = await ctx.db.select().from(transactions).where(owned(ctx, transactions, eq(transactions.id, transactionId))).limit(1);
  if (!t) return false;
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  await ctx.db.batch(
    openRecordStatements(
      ctx,
      {
        transactionId: t.id,
        pointId: t.pointId,
        connectorNo: t.connectorNo,
        idTag: t.idTag,
        chargerTransactionId: t.chargerTransactionId,
        startAt: t.startAt,
        abnormal: t.status === "ABNORMAL",
      },
      settings.currencyCode,
      settings.timeZone,
    ),
  );
  return true;
});

/** The records of transactions being marked ABNORMAL, in the same batch as the transactions. */
export function abnormalRecordsStatement(ctx: SystemCtx, transactionIds: number[]) {
  return ctx.db
    .update(chargeRecords)
    .set({ status: "ABNORMAL", updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, chargeRecords, inArray(chargeRecords.transactionId, transactionIds), eq(chargeRecords.status, "CHARGING")));
}

export interface BilledFacts {
  transactionId: number;
  startAt: Date;
  energyWh: number;
  durationS: number;
}

/**
 * The statements billing runs before it stamps `billed_at`, each conditioned on the transaction
 * not being billed yet: in one batch with the stamp they apply once, however often the message
 * comes (docs/decisions/0027-daily-totals-kept-by-billing.md).
 *
 * 1. the point's daily totals of the session's local start day gain the session, its energy and
 *    time, and its record's `totalCost` (0 until priced);
 * 2. the record leaves CHARGING (or ABNORMAL, when a late stop came) for CHARGE_COMPLETE.
 */
export function billedStatements(ctx: Ctx, facts: BilledFacts, timeZone: string) {
  const unbilled = owned(ctx, transactions, eq(transactions.id, facts.transactionId), isNull(transactions.billedAt));
  const day = dayKey(localDate(facts.startAt.getTime(), timeZone));
  const totals = ctx.db
    .insert(dailyChargeTotals)
    .select(
      ctx.db
        // Every column of daily_charge_totals, in its order (drizzle's insert-select asks for that).
        .select({
          operatorId: transactions.operatorId,
          day: sql<string>`${day}`.as("day"),
          pointId: transactions.pointId,
          sessions: sql<number>`1`.as("sessions"),
          energyWh: sql<number>`${facts.energyWh}`.as("energy_wh"),
          durationS: sql<number>`${facts.durationS}`.as("duration_s"),
          revenue: sql<number>`coalesce(${chargeRecords.totalCost}, 0)`.as("revenue"),
          pricedSessions: sql<number>`case when ${chargeRecords.totalCost} is null then 0 else 1 end`.as("priced_sessions"),
          // The record was counted when it was made.
          records: sql<number>`0`.as("records"),
        })
        .from(transactions)
        .leftJoin(chargeRecords, eq(chargeRecords.transactionId, transactions.id))
        .where(unbilled),
    )
    .onConflictDoUpdate({
      target: [dailyChargeTotals.operatorId, dailyChargeTotals.day, dailyChargeTotals.pointId],
      set: {
        sessions: sql`${dailyChargeTotals.sessions} + excluded.sessions`,
        energyWh: sql`${dailyChargeTotals.energyWh} + excluded.energy_wh`,
        durationS: sql`${dailyChargeTotals.durationS} + excluded.duration_s`,
        revenue: sql`${dailyChargeTotals.revenue} + excluded.revenue`,
        pricedSessions: sql`${dailyChargeTotals.pricedSessions} + excluded.priced_sessions`,
      },
    });
  const complete = ctx.db
    .update(chargeRecords)
    .set({ status: "CHARGE_COMPLETE", updatedAt: new Date(ctx.now()) })
    .where(
      owned(
        ctx,
        chargeRecords,
        eq(chargeRecords.transactionId, facts.transactionId),
        inArray(chargeRecords.status, ["CHARGING", "ABNORMAL"]),
        exists(ctx.db.select({ one: sql`1` }).from(transactions).where(unbilled)),
      ),
    );
  return [totals, complete] as const;
}

/**
 * A record awaiting its unplug (docs/rules/billing.md "Provisional and final"), besides its
 * session having stopped: no unplug time yet, nor its final price.
 */
const awaitingUnplug = () => [
  isNull(chargeRecords.unplugAt),
  inArray(chargeRecords.status, ["CHARGING", "CHARGE_COMPLETE"]),
  or(isNull(chargeRecords.pricingPhase), eq(chargeRecords.pricingPhase, "PROVISIONAL")),
];

/**
 * The unplug (docs/rules/billing.md "Provisional and final"): a connector reported Available at
 * `at` (the charger's StatusNotification timestamp, OCPP 1.6 §4.9) ends the idle time of the
 * session that stopped on it before then and is not finally priced yet.
 */
export function unplugStatement(ctx: Ctx, pointId: number, connectorNo: number, at: Date) {
  return ctx.db
    .update(chargeRecords)
    .set({ unplugAt: at, updatedAt: new Date(ctx.now()) })
    .where(
      owned(
        ctx,
        chargeRecords,
        eq(chargeRecords.pointId, pointId),
        eq(chargeRecords.connectorNo, connectorNo),
        ...awaitingUnplug(),
        exists(
          ctx.db
            .select({ one: sql`1` })
            .from(transactions)
            .where(owned(ctx, transactions, eq(transactions.id, chargeRecords.transactionId), lte(transactions.stopAt, at))),
        ),
      ),
    );
}

/**
 * The connectors of these points with a record awaiting its unplug, and when its session stopped:
 * an Available on any other connector has nothing to unplug, and the charger change writer adds no
 * statement for it (docs/rules/ocpp.md "Hot path").
 */
export function recordsAwaitingUnplug(ctx: Ctx, pointIds: number[]) {
  return ctx.db
    .select({ pointId: chargeRecords.pointId, connectorNo: chargeRecords.connectorNo, stopAt: transactions.stopAt })
    .from(chargeRecords)
    .innerJoin(transactions, and(eq(transactions.id, chargeRecords.transactionId), eq(transactions.operatorId, chargeRecords.operatorId)))
    .where(owned(ctx, chargeRecords, inArray(chargeRecords.pointId, pointIds), ...awaitingUnplug(), isNotNull(transactions.stopAt)));
}

/** The provisional records of a point that an unplug has made ready for their final price. */
export function unpluggedRecords(ctx: Ctx, pointId: number) {
  return ctx.db
    .select({ id: chargeRecords.transactionId })
    .from(chargeRecords)
    .where(owned(ctx, chargeRecords, eq(chargeRecords.pointId, pointId), eq(chargeRecords.pricingPhase, "PROVISIONAL"), isNotNull(chargeRecords.unplugAt)));
}
