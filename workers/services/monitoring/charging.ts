import { count, desc, eq, like } from "drizzle-orm";
import { z } from "zod";
import { points, stations, transactions } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { pageQuery } from "../../../domain/schemas/account-service";
import { chargePointName } from "../../ocpp/identity";
import { requireMenu, type Ctx } from "../context";
import { deviceScope } from "../sub-operators/scope";
import { lastRegisterWh, meterCurve } from "./meter-curve";

/** Real-time monitoring › Charging, for operators and sub-operators (SPEC.md §2). */
export const CHARGING_MENUS = ["monitoring.charging", "sub.monitoring.charging"];

const plain = (text: string) => `%${text.replace(/[%_]/g, "")}%`;

export const chargingListQuery = pageQuery.extend({
  stationId: z.coerce.number({ error: "monitoring.validation.stationId" }).int().positive({ error: "monitoring.validation.stationId" }).optional(),
  serialNumber: z.string().trim().max(64).optional(),
  idTag: z.string().trim().max(20, { error: "validation.idTagLength" }).optional(),
});

export const transactionParam = z.object({
  transactionId: z.coerce
    .number({ error: "monitoring.validation.transactionId" })
    .int({ error: "monitoring.validation.transactionId" })
    .positive({ error: "monitoring.validation.transactionId" }),
});

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
    connectorId: t.connectorNo,
    idTag: t.idTag,
    status: t.status,
    startAt: t.startAt.toISOString(),
    stopAt: t.stopAt?.toISOString() ?? null,
    meterStartWh: t.meterStartWh,
    meterStopWh: t.meterStopWh,
    /** Seconds charged so far (to the stop, for an ended transaction). */
    durationS: Math.max(0, Math.round((end - t.startAt.getTime()) / 1000)),
  };
}

/**
 * Ongoing transactions, newest first. Energy and power move every second, so they come from the
 * live view (the console adds the charger's register minus `meterStartWh`); this answers the facts.
 */
export async function listCharging(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, CHARGING_MENUS);
  const q = chargingListQuery.parse(raw);
  const where = deviceScope(ctx).where(
    transactions,
    transactions.pointId,
    eq(transactions.status, "ACTIVE"),
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.serialNumber ? like(points.serialNumber, plain(q.serialNumber)) : undefined,
    q.idTag ? like(transactions.idTag, plain(q.idTag)) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(columns)
      .from(transactions)
      .innerJoin(points, eq(points.id, transactions.pointId))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(where)
      .orderBy(desc(transactions.startAt), desc(transactions.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(transactions).innerJoin(points, eq(points.id, transactions.pointId)).where(where),
  ]);
  const now = ctx.now();
  return { records: rows.map((r) => present(r, now)), total, current: q.current, size: q.size };
}

/** One transaction with its meter curve (from the charger's own storage), ongoing or ended. */
export async function chargingDetail(ctx: Ctx, rawId: unknown) {
  requireMenu(ctx, CHARGING_MENUS);
  const { transactionId } = transactionParam.parse({ transactionId: rawId });
  const [row] = await ctx.db
    .select(columns)
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(deviceScope(ctx).where(transactions, transactions.pointId, eq(transactions.id, transactionId)))
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
}
