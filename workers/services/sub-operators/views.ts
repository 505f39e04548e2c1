import { asc, count, desc, eq, or, sql } from "drizzle-orm";
import { containing } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { deviceState, shownStatus } from "../../../domain/connector-status";
import { NotFound } from "../../../domain/errors";
import { pointProtocol } from "../../../domain/schemas/equipment";
import { subPointQuery, subStationQuery, type SubPointQuery } from "../../../domain/schemas/sub-operators";
import type { UserCtx } from "../context";
import { transactionFacts } from "../monitoring/charging";
import { pointsWithConnectors } from "../points/point-page";
import { verb } from "../verb";
import { visible, visibleStations } from "../../../tenants/scope";

/**
 * The sub-operator area's equipment screens (/suboperators/station, /suboperators/point):
 * the parent's stations and points assigned to the sub-operator, read only, with live state.
 */
export const SUB_STATION_MENUS = ["sub.equipment.station"];
export const SUB_POINT_MENUS = ["sub.equipment.point", "sub.equipment.station"];


/** Recent transactions on a point's detail page. */
const RECENT_TRANSACTIONS = 10;

type PointRow = typeof points.$inferSelect;
type ConnectorRow = typeof connectors.$inferSelect;

const presentPoint = (p: PointRow, stationName: string | null, list: readonly ConnectorRow[] = []) => ({
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
  ...pointProtocol(p),
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
async function pointsPage(ctx: UserCtx, q: SubPointQuery) {
  const where = visible(
    ctx,
    points,
    points.id,
    q.serialNumber ? or(containing(points.serialNumber, q.serialNumber), containing(points.name, q.serialNumber)) : undefined,
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
  );
  const page = await pointsWithConnectors(ctx, q, where);
  return { ...page, records: page.records.map((r) => presentPoint(r.point, r.stationName, r.connectors)) };
}

/** Stations visible to a sub-operator, highest rank first, with how many of their points it sees. */
export const listSubStations = verb({ menu: SUB_STATION_MENUS }, async (ctx, raw: unknown) => {
  const q = subStationQuery.parse(raw);
  const where = visibleStations(ctx, q.name ? or(containing(stations.name, q.name), containing(stations.address, q.name)) : undefined);
  const visiblePoints = (online?: boolean) =>
    sql<number>`(select count(*) from ${points} where ${visible(ctx, points, points.id, eq(points.stationId, stations.id), online === undefined ? undefined : eq(points.online, online))})`;
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ station: stations, points: visiblePoints(), online: visiblePoints(true) })
        .from(stations)
        .where(where)
        .orderBy(desc(stations.rank), asc(stations.name))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(stations).where(where))[0].total,
  );
  return {
    ...page,
    records: page.records.map(({ station: s, points: n, online }) => ({
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
  };
});

/** One visible station with its visible points (paged); anything else is 404. */
export const subStationDetail = verb({ menu: SUB_STATION_MENUS }, async (ctx, id: number, raw: unknown) => {
  const q = subPointQuery.parse(raw);
  const [station] = await ctx.db.select().from(stations).where(visibleStations(ctx, eq(stations.id, id))).limit(1);
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
});

/** Points visible to a sub-operator, paged and filtered. */
export const listSubPoints = verb({ menu: SUB_POINT_MENUS }, async (ctx, raw: unknown) => {
  return pointsPage(ctx, subPointQuery.parse(raw));
});

/** One visible point with its connectors and its latest transactions; anything else is 404. */
export const subPointDetail = verb({ menu: SUB_POINT_MENUS }, async (ctx, id: number) => {
  const [row] = await ctx.db
    .select({ point: points, stationName: stations.name })
    .from(points)
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(visible(ctx, points, points.id, eq(points.id, id)))
    .limit(1);
  if (!row) throw new NotFound("errors.pointNotFound");
  const [list, recent] = await Promise.all([
    ctx.db.select().from(connectors).where(visible(ctx, connectors, connectors.pointId, eq(connectors.pointId, id))).orderBy(asc(connectors.connectorNo)),
    ctx.db
      .select()
      .from(transactions)
      .where(visible(ctx, transactions, transactions.pointId, eq(transactions.pointId, id)))
      .orderBy(desc(transactions.startAt), desc(transactions.id))
      .limit(RECENT_TRANSACTIONS),
  ]);
  return {
    ...presentPoint(row.point, row.stationName, list),
    transactions: recent.map((t) => ({
      transactionId: t.id,
      ...transactionFacts(t),
      energyWh: t.energyWh ?? (t.meterStopWh === null ? null : Math.max(0, t.meterStopWh - t.meterStartWh)),
    })),
  };
});
