import { asc, count, eq, inArray, like } from "drizzle-orm";
import { z } from "zod";
import { connectors, points, stations } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { pageQuery } from "../../../domain/schemas/account-service";
import { owned } from "../../../tenants/scoped";
import type { Ctx } from "../context";

/** Equipment › Charging points (SPEC.md §3 point). */
export const POINT_MENUS = ["equipment.point", "equipment.remoteControl", "monitoring.chargingPile", "monitoring.connector"];

export const pointListQuery = pageQuery.extend({
  serialNumber: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  stationId: z.coerce.number().int().positive().optional(),
  status: z.enum(["VALID", "INVALID"], { error: "validation.status" }).optional(),
  type: z.enum(["DC", "AC", "MIXED"], { error: "validation.pointType" }).optional(),
  online: z.enum(["true", "false"], { error: "validation.online" }).optional(),
});

type PointRow = typeof points.$inferSelect;
type ConnectorRow = typeof connectors.$inferSelect;

export function presentPoint(p: PointRow, stationName: string | null, list: ConnectorRow[] = []) {
  return {
    id: p.id,
    stationId: p.stationId,
    stationName,
    serialNumber: p.serialNumber,
    pointNo: p.pointNo,
    name: p.name,
    code: p.code,
    type: p.type,
    ratedPower: p.ratedPowerW / 1000,
    connectorCount: p.connectorCount,
    privateType: p.privateType,
    status: p.status,
    online: p.online,
    onlineChangedAt: p.onlineChangedAt?.toISOString() ?? null,
    vendor: p.vendor,
    model: p.model,
    firmwareVersion: p.firmwareVersion,
    boxSerialNumber: p.boxSerialNumber,
    iccid: p.iccid,
    imsi: p.imsi,
    meterSerialNumber: p.meterSerialNumber,
    meterType: p.meterType,
    firmwareStatus: p.firmwareStatus,
    diagnosticsStatus: p.diagnosticsStatus,
    lastBootAt: p.lastBootAt?.toISOString() ?? null,
    stationType: p.stationType,
    chargeStrategyId: p.chargeStrategyId,
    pricePushStatus: p.pricePushStatus,
    currencyPushStatus: p.currencyPushStatus,
    preAuthPushStatus: p.preAuthPushStatus,
    pushedAt: p.pushedAt?.toISOString() ?? null,
    hasKey: p.keyHash !== null,
    keySetAt: p.keySetAt?.toISOString() ?? null,
    connectors: list.map((c) => ({
      id: c.id,
      connectorId: c.connectorNo,
      code: c.code,
      name: c.name,
      standard: c.standard,
      power: c.powerW / 1000,
      chargeSpeed: c.chargeSpeed,
      // SPEC.md §4: an empty status means offline.
      status: p.online ? c.status : null,
      errorCode: c.errorCode,
      statusAt: c.statusAt?.toISOString() ?? null,
    })),
  };
}

export async function listPoints(ctx: Ctx, raw: unknown) {
  const q = pointListQuery.parse(raw);
  const where = owned(
    ctx,
    points,
    q.serialNumber ? like(points.serialNumber, `%${q.serialNumber.replace(/[%_]/g, "")}%`) : undefined,
    q.name ? like(points.name, `%${q.name.replace(/[%_]/g, "")}%`) : undefined,
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.status ? eq(points.status, q.status) : undefined,
    q.type ? eq(points.type, q.type) : undefined,
    q.online ? eq(points.online, q.online === "true") : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ point: points, stationName: stations.name })
      .from(points)
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(where)
      .orderBy(asc(points.serialNumber))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(points).where(where),
  ]);
  const ids = rows.map((r) => r.point.id);
  // D1 binds at most 100 parameters per statement: a full page of 100 ids goes in two slices.
  const list = (
    await Promise.all(
      [ids.slice(0, 50), ids.slice(50)]
        .filter((slice) => slice.length > 0)
        .map((slice) => ctx.db.select().from(connectors).where(owned(ctx, connectors, inArray(connectors.pointId, slice))).orderBy(asc(connectors.connectorNo))),
    )
  ).flat();
  return {
    records: rows.map((r) => presentPoint(r.point, r.stationName, list.filter((c) => c.pointId === r.point.id))),
    total,
    current: q.current,
    size: q.size,
  };
}

/** One of the operator's points by id or serial number; another operator's is 404. */
export async function findPoint(ctx: Ctx, by: { id: number } | { serialNumber: string }) {
  const [row] = await ctx.db
    .select({ point: points, stationName: stations.name })
    .from(points)
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(owned(ctx, points, "id" in by ? eq(points.id, by.id) : eq(points.serialNumber, by.serialNumber)))
    .limit(1);
  if (!row) throw new NotFound("errors.pointNotFound");
  return row;
}

export async function pointDetail(ctx: Ctx, by: { id: number } | { serialNumber: string }) {
  const { point, stationName } = await findPoint(ctx, by);
  const list = await ctx.db
    .select()
    .from(connectors)
    .where(owned(ctx, connectors, eq(connectors.pointId, point.id)))
    .orderBy(asc(connectors.connectorNo));
  return presentPoint(point, stationName, list);
}

