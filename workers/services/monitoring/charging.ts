import { count, desc, eq, or } from "drizzle-orm";
import { containing, containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { points, stations, transactions } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { chargingListQuery, transactionParam } from "../../../domain/schemas/monitoring";
import { chargePointName } from "../../ocpp/identity";
import { verb } from "../verb";
import { visible } from "../../../tenants/scope";
import { lastRegisterWh, meterCurve } from "./meter-curve";

/**
 * Real-time monitoring › Charging, for operators and sub-operators
 * (docs/rules/monitoring.md "Charging sessions").
 */
export const CHARGING_MENUS = ["monitoring.charging", "sub.monitoring.charging"];


const columns = {
  transaction: transactions,
  serialNumber: points.serialNumber,
  pointName: points.name,
  online: points.online,
  ratedPowerW: points.ratedPowerW,
  stationId: points.stationId,
  stationName: stations.name,
};

type Row = {
  transaction: typeof transactions.$inferSelect;
  serialNumber: string;
  pointName: string;
  online: boolean;
  ratedPowerW: number;
  stationId: number;
  stationName: string | null;
};

/**
 * What every monitoring screen shows of a transaction itself: its connector, tag, status, start and
 * stop, and the meter at the start (the charging list and detail, a sub-operator's point detail).
 */
export const transactionFacts = (t: typeof transactions.$inferSelect) => ({
  connectorId: t.connectorNo,
  idTag: t.idTag,
  status: t.status,
  startAt: t.startAt.toISOString(),
  stopAt: t.stopAt?.toISOString() ?? null,
  meterStartWh: t.meterStartWh,
});

function present(row: Row, now: number) {
  const t = row.transaction;
  const end = t.stopAt?.getTime() ?? now;
  return {
    transactionId: t.id,
    pointId: t.pointId,
    serialNumber: row.serialNumber,
    pointName: row.pointName,
    online: row.online,
    ratedPower: row.ratedPowerW / 1000,
    stationId: row.stationId,
    stationName: row.stationName,
    ...transactionFacts(t),
    meterStopWh: t.meterStopWh,
    /** Seconds charged so far (to the stop, for an ended transaction). */
    durationS: Math.max(0, Math.round((end - t.startAt.getTime()) / 1000)),
  };
}

/**
 * Ongoing transactions, newest first. Energy and power move every second, so they come from the
 * live view (the console adds the charger's register minus `meterStartWh`); this answers the facts.
 */
export const listCharging = verb({ menu: CHARGING_MENUS }, async (ctx, raw: unknown) => {
  const q = chargingListQuery.parse(raw);
  const where = visible(
    ctx,
    transactions,
    transactions.pointId,
    eq(transactions.status, "ACTIVE"),
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.serialNumber ? or(containing(points.serialNumber, q.serialNumber), containing(points.name, q.serialNumber)) : undefined,
    containingIf(transactions.idTag, q.idTag),
  );
  const now = ctx.now();
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select(columns)
          .from(transactions)
          .innerJoin(points, eq(points.id, transactions.pointId))
          .leftJoin(stations, eq(stations.id, points.stationId))
          .where(where)
          .orderBy(desc(transactions.startAt), desc(transactions.id))
          .limit(limit)
          .offset(offset)
      ).map((r) => present(r, now)),
    async () => (await ctx.db.select({ total: count() }).from(transactions).innerJoin(points, eq(points.id, transactions.pointId)).where(where))[0].total,
  );
});

/** One transaction with its meter curve (from the charger's own storage), ongoing or ended. */
export const chargingDetail = verb({ menu: CHARGING_MENUS }, async (ctx, rawId: unknown) => {
  const { transactionId } = transactionParam.parse({ transactionId: rawId });
  const [row] = await ctx.db
    .select(columns)
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(visible(ctx, transactions, transactions.pointId, eq(transactions.id, transactionId)))
    .limit(1);
  if (!row) throw new NotFound("monitoring.errors.transactionNotFound");
  const t = row.transaction;
  const samples = await ctx.env.CHARGE_POINT.getByName(chargePointName(t.operatorId, row.serialNumber)).meterSamples(t.id);
  const register = t.meterStopWh ?? lastRegisterWh(samples);
  return {
    ...present(row, ctx.now()),
    authStatus: t.authStatus,
    stopReason: t.stopReason,
    abnormalReason: t.abnormalReason,
    /** Energy delivered so far (Wh): the stop meter, else the last register the charger sent. */
    energyWh: t.energyWh ?? (register === undefined ? null : Math.max(0, register - t.meterStartWh)),
    curve: meterCurve(samples, t.meterStartWh),
  };
});
