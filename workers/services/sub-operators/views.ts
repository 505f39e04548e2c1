import { asc, count, desc, eq, inArray, like, or, sql } from "drizzle-orm";
import { z } from "zod";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { deviceState, shownStatus } from "../../../domain/connector-status";
import { NotFound } from "../../../domain/errors";
import { pageQuery } from "../../../domain/schemas/account-service";
import { requireMenu, type Ctx } from "../context";
import { deviceScope } from "./scope";

/**
 * The sub-operator area's equipment screens (SPEC.md §2 /suboperators/station, /suboperators/point):
 * the parent's stations and points assigned to the sub-operator, read only, with live state.
 */
export const SUB_STATION_MENUS = ["sub.equipment.station"];
export const SUB_POINT_MENUS = ["sub.equipment.point", "sub.equipment.station"];

const plain = (text: string) => `%${text.replace(/[%_]/g, "")}%`;

export const subStationQuery = pageQuery.extend({ name: z.string().trim().max(64).optional() });
export const subPointQuery = pageQuery.extend({
  serialNumber: z.string().trim().max(64).optional(),
  stationId: z.coerce.number({ error: "monitoring.validation.stationId" }).int().positive({ error: "monitoring.validation.stationId" }).optional(),
});

/** Recent transactions on a point's detail page. */
const RECENT_TRANSACTIONS = 10;

type PointRow = typeof points.$inferSelect;
type ConnectorRow = typeof connectors.$inferSelect;

const presentPoint = (p: PointRow, stationName: string | null, list: ConnectorRow[]) => ({
  id: p.id,
  serialNumber: p.serialNumber,
  pointNo: p.pointNo,
  name: p.name,
  stationId: p.stationId,
  stationName,
  type: p.type,
  ratedPower: p.ratedPowerW / 1000,
  connectorCount: p.connectorCount,
  status: p.status,
  online: p.online,
  onlineChangedAt: p.onlineChangedAt?.toISOString() ?? null,
  state: deviceState(p.online, list.map((c) => c.status)),
  vendor: p.vendor,
  model: p.model,
  firmwareVersion: p.firmwareVersion,
  connectors: list.map((c) => ({
    connectorId: c.connectorNo,
    name: c.name,
    standard: c.standard,
    power: c.powerW / 1000,
    chargeSpeed: c.chargeSpeed,
    status: shownStatus(p.online, c.status),
    errorCode: c.errorCode,
  })),
});

/** Points visible to the context (and optionally on one station), with their connectors. */
async function pointsPage(ctx: Ctx, q: z.infer<typeof subPointQuery>) {
  const scope = deviceScope(ctx);
  const where = scope.where(
    points,
    points.id,
    q.serialNumber ? or(like(points.serialNumber, plain(q.serialNumber)), like(points.name, plain(q.serialNumber))) : undefined,
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
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
  const list = ids.length
    ? await ctx.db.select().from(connectors).where(scope.where(connectors, connectors.pointId, inArray(connectors.pointId, ids))).orderBy(asc(connectors.connectorNo))
    : [];
  return {
    records: rows.map((r) => presentPoint(r.point, r.stationName, list.filter((c) => c.pointId === r.point.id))),
    total,
    current: q.current,
    size: q.size,
  };
}

/** Stations visible to a sub-operator, highest rank first, with how many of their points it sees. */
export async function listSubStations(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, SUB_STATION_MENUS);
  const q = subStationQuery.parse(raw);
  const scope = deviceScope(ctx);
  const where = scope.stations(q.name ? or(like(stations.name, plain(q.name)), like(stations.address, plain(q.name))) : undefined);
  const visiblePoints = (online?: boolean) =>
    sql<number>`(select count(*) from ${points} where ${scope.where(points, points.id, eq(points.stationId, stations.id), online === undefined ? undefined : eq(points.online, online))})`;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        station: stations,
        points: visiblePoints(),
        online: visiblePoints(true),
      })
      .from(stations)
      .where(where)
      .orderBy(desc(stations.rank), asc(stations.name))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(stations).where(where),
  ]);
  return {
    records: rows.map(({ station: s, points: n, online }) => ({
      id: s.id,
      name: s.name,
      address: s.address,
      lat: s.lat,
      lng: s.lng,
      status: s.status,
      servicePhone: s.servicePhone,
      businessHours: s.businessHours,
      powerLimit: s.powerLimitW === null ? null : s.powerLimitW / 1000,
      points: Number(n),
      onlinePoints: Number(online),
    })),
    total,
    current: q.current,
    size: q.size,
  };
}

/** One visible station with its visible points (paged); anything else is 404. */
export async function subStationDetail(ctx: Ctx, id: number, raw: unknown) {
  requireMenu(ctx, SUB_STATION_MENUS);
  const q = subPointQuery.parse(raw);
  const [station] = await ctx.db.select().from(stations).where(deviceScope(ctx).stations(eq(stations.id, id))).limit(1);
  if (!station) throw new NotFound("errors.stationNotFound");
  return {
    station: {
      id: station.id,
      name: station.name,
      address: station.address,
      lat: station.lat,
      lng: station.lng,
      status: station.status,
      servicePhone: station.servicePhone,
      businessHours: station.businessHours,
      description: station.description,
      powerLimit: station.powerLimitW === null ? null : station.powerLimitW / 1000,
    },
    points: await pointsPage(ctx, { ...q, stationId: station.id }),
  };
}

/** Points visible to a sub-operator, paged and filtered. */
export async function listSubPoints(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, SUB_POINT_MENUS);
  return pointsPage(ctx, subPointQuery.parse(raw));
}

/** One visible point with its connectors and its latest transactions; anything else is 404. */
export async function subPointDetail(ctx: Ctx, id: number) {
  requireMenu(ctx, SUB_POINT_MENUS);
  const scope = deviceScope(ctx);
  const [row] = await ctx.db
    .select({ point: points, stationName: stations.name })
    .from(points)
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(scope.where(points, points.id, eq(points.id, id)))
    .limit(1);
  if (!row) throw new NotFound("errors.pointNotFound");
  const [list, recent] = await Promise.all([
    ctx.db.select().from(connectors).where(scope.where(connectors, connectors.pointId, eq(connectors.pointId, id))).orderBy(asc(connectors.connectorNo)),
    ctx.db
      .select()
      .from(transactions)
      .where(scope.where(transactions, transactions.pointId, eq(transactions.pointId, id)))
      .orderBy(desc(transactions.startAt), desc(transactions.id))
      .limit(RECENT_TRANSACTIONS),
  ]);
  return {
    ...presentPoint(row.point, row.stationName, list),
    transactions: recent.map((t) => ({
      transactionId: t.id,
      connectorId: t.connectorNo,
      idTag: t.idTag,
      status: t.status,
      startAt: t.startAt.toISOString(),
      stopAt: t.stopAt?.toISOString() ?? null,
      meterStartWh: t.meterStartWh,
      energyWh: t.energyWh ?? (t.meterStopWh === null ? null : Math.max(0, t.meterStopWh - t.meterStartWh)),
    })),
  };
}
