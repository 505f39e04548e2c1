import { count, desc, eq, gte, lt, or, sql } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { points, stations, transactions } from "../../../db/schema";
import { chargeRecordQuery, reportQuery } from "../../../domain/schemas/equipment";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { verb } from "../verb";
import { findPoint, POINT_READ_MENUS } from "../points/points";
import { monthOf, monthRange } from "../../../domain/time";

/**
 * Charge records of the point pages: the charge record tab and the monthly charge report
 * (docs/rules/equipment.md "Point pages"). They are read from `transactions`; costs come with
 * pricing (docs/decisions/0005-money-in-minor-units.md), so until a transaction is priced its
 * costs are null and the report's deduction is 0 with `priced: false`.
 */
export const CHARGE_RECORD_MENUS = [...POINT_READ_MENUS, "finance.chargeRecord", "monitoring.charging"];

/**
 * Energy of a transaction in Wh: what billing recorded, else stop minus start meter. A register
 * that went backwards counts as nothing, never negative (docs/rules/ocpp.md "Meter values").
 */
const energyWh = sql<number>`COALESCE(${transactions.energyWh}, CASE WHEN ${transactions.meterStopWh} >= ${transactions.meterStartWh} THEN ${transactions.meterStopWh} - ${transactions.meterStartWh} ELSE 0 END)`;
/** Charging time in ms of a transaction that has stopped. */
const durationMs = sql<number>`CASE WHEN ${transactions.stopAt} > ${transactions.startAt} THEN ${transactions.stopAt} - ${transactions.startAt} ELSE 0 END`;

type TransactionRow = typeof transactions.$inferSelect;

function present(t: TransactionRow, point: { serialNumber: string | null; name: string | null; stationName: string | null }) {
  const stopped = t.stopAt !== null;
  const energy = t.energyWh ?? (t.meterStopWh !== null ? Math.max(0, t.meterStopWh - t.meterStartWh) : null);
  return {
    id: t.id,
    transactionId: t.id,
    pointId: t.pointId,
    serialNumber: point.serialNumber,
    pointName: point.name,
    stationName: point.stationName,
    connectorId: t.connectorNo,
    idTag: t.idTag,
    authStatus: t.authStatus,
    startAt: t.startAt.toISOString(),
    stopAt: t.stopAt?.toISOString() ?? null,
    meterStartWh: t.meterStartWh,
    meterStopWh: t.meterStopWh,
    energyWh: energy,
    /** Minutes (docs/architecture.md "Time, money and units"). */
    chargingTime: stopped ? Math.round(Math.max(0, t.stopAt!.getTime() - t.startAt.getTime()) / 60_000) : null,
    status: t.status,
    stopReason: t.stopReason,
    abnormalReason: t.abnormalReason,
    priced: t.billedAt !== null,
  };
}

/** GET /station-service/charge/record: the operator's transactions, newest first, filtered on the server. */
export const listChargeRecords = verb({ menu: CHARGE_RECORD_MENUS }, async (ctx, raw: unknown) => {
  const q = chargeRecordQuery.parse(raw);
  if (q.pointId) await findPoint(ctx, { id: q.pointId });
  const where = owned(
    ctx,
    transactions,
    q.pointId ? eq(transactions.pointId, q.pointId) : undefined,
    q.status ? eq(transactions.status, q.status) : undefined,
    containingIf(transactions.idTag, q.idTag),
    q.transactionId ? eq(transactions.id, q.transactionId) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ t: transactions, serialNumber: points.serialNumber, name: points.name, stationName: stations.name })
          .from(transactions)
          .leftJoin(points, eq(points.id, transactions.pointId))
          .leftJoin(stations, eq(stations.id, points.stationId))
          .where(where)
          .orderBy(desc(transactions.startAt), desc(transactions.id))
          .limit(limit)
          .offset(offset)
      ).map((r) => present(r.t, r)),
    async () => (await ctx.db.select({ total: count() }).from(transactions).where(where))[0].total,
  );
});

/**
 * GET /station-service/charge/record/reportByPoint (docs/rules/equipment.md "Point pages"): one
 * point's charging in a calendar month of the operator's time zone, by the transactions that
 * started in it. A charge counts when its id tag was accepted at start or it delivered energy; a
 * session still running adds its energy and time once it stops.
 *
 * - `meterValue`: energy in kWh, rounded to three decimals, with `energyWh` exact;
 * - `chargingTime`: minutes;
 * - `deductionCost`: minor units of `currency`; 0 with `priced: false` until pricing lands;
 * - `chargeCount`.
 */
export const reportByPoint = verb({ menu: CHARGE_RECORD_MENUS }, async (ctx, raw: unknown) => {
  const q = reportQuery.parse(raw);
  const { point } = await findPoint(ctx, { id: q.pointId });
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const month = q.reportMonth ?? monthOf(ctx.now(), settings.timeZone);
  const { from, to } = monthRange(month, settings.timeZone);
  const [row] = await ctx.db
    .select({
      chargeCount: count(),
      energyWh: sql<number>`COALESCE(SUM(${energyWh}), 0)`,
      durationMs: sql<number>`COALESCE(SUM(${durationMs}), 0)`,
    })
    .from(transactions)
    .where(
      owned(
        ctx,
        transactions,
        eq(transactions.pointId, point.id),
        gte(transactions.startAt, new Date(from)),
        lt(transactions.startAt, new Date(to)),
        or(eq(transactions.authStatus, "Accepted"), sql`${energyWh} > 0`),
      ),
    );
  return {
    pointId: point.id,
    reportMonth: month,
    timeZone: settings.timeZone,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    meterValue: Math.round(row.energyWh) / 1000,
    energyWh: row.energyWh,
    chargingTime: Math.round(row.durationMs / 60_000),
    deductionCost: 0,
    currency: settings.currencyCode,
    priced: false,
    chargeCount: row.chargeCount,
  };
});
