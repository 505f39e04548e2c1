import { and, asc, count, eq, exists, inArray, isNull, like, not, or, sql } from "drizzle-orm";
import { z } from "zod";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { CONNECTOR_STATUSES, DEVICE_STATES, deviceState, displayClass, shownStatus } from "../../../domain/connector-status";
import { pageQuery } from "../../../domain/schemas/account-service";
import { requireMenu, type Ctx } from "../context";
import { deviceScope } from "../sub-operators/scope";

/** Real-time monitoring › Charging piles and Connectors (SPEC.md §2, §4). */
export const PILE_MENUS = ["monitoring.chargingPile", "sub.monitoring.chargingPile"];
export const CONNECTOR_MENUS = ["monitoring.connector", "sub.monitoring.connector"];

const plain = (text: string) => `%${text.replace(/[%_]/g, "")}%`;

const deviceFilters = {
  stationId: z.coerce.number({ error: "monitoring.validation.stationId" }).int().positive({ error: "monitoring.validation.stationId" }).optional(),
  serialNumber: z.string().trim().max(64).optional(),
};

export const pileListQuery = pageQuery.extend({
  ...deviceFilters,
  state: z.enum(DEVICE_STATES, { error: "monitoring.validation.deviceState" }).optional(),
});

/** A connector's status filter: one of SPEC.md §4's statuses, or `offline` (empty status). */
export const connectorListQuery = pageQuery.extend({
  ...deviceFilters,
  status: z.enum([...CONNECTOR_STATUSES, "offline"], { error: "monitoring.validation.connectorStatus" }).optional(),
});

/** A point with a Faulted connector (connector 0, the point itself, is not kept in D1). */
const faulted = (ctx: Ctx) =>
  exists(
    ctx.db
      .select({ one: sql`1` })
      .from(connectors)
      .where(and(eq(connectors.pointId, points.id), eq(connectors.status, "Faulted"))),
  );

const stateCondition = (ctx: Ctx, state: (typeof DEVICE_STATES)[number] | undefined) =>
  state === "offline"
    ? eq(points.online, false)
    : state === "fault"
      ? and(eq(points.online, true), faulted(ctx))
      : state === "online"
        ? and(eq(points.online, true), not(faulted(ctx)))
        : undefined;

/**
 * Points with their device state (online, offline, fault) and connectors, paged and filtered, and
 * the counts of each state over the whole scope. The console keeps both current from `/live`.
 */
export async function listPiles(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, PILE_MENUS);
  const q = pileListQuery.parse(raw);
  const scope = deviceScope(ctx);
  const filters = [
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.serialNumber ? or(like(points.serialNumber, plain(q.serialNumber)), like(points.name, plain(q.serialNumber))) : undefined,
  ];
  const where = scope.where(points, points.id, ...filters, stateCondition(ctx, q.state));
  const [rows, [{ total }], [summary]] = await Promise.all([
    ctx.db
      .select({ point: points, stationName: stations.name })
      .from(points)
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(where)
      .orderBy(asc(points.serialNumber))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(points).where(where),
    ctx.db
      .select({
        total: count(),
        offline: sql<number>`coalesce(sum(case when ${points.online} = 0 then 1 else 0 end), 0)`,
        fault: sql<number>`coalesce(sum(case when ${points.online} = 1 and ${faulted(ctx)} then 1 else 0 end), 0)`,
      })
      .from(points)
      .where(scope.where(points, points.id, ...filters)),
  ]);
  const ids = rows.map((r) => r.point.id);
  const list = ids.length
    ? await ctx.db.select().from(connectors).where(scope.where(connectors, connectors.pointId, inArray(connectors.pointId, ids))).orderBy(asc(connectors.connectorNo))
    : [];
  return {
    records: rows.map(({ point, stationName }) => {
      const own = list.filter((c) => c.pointId === point.id);
      return {
        id: point.id,
        serialNumber: point.serialNumber,
        name: point.name,
        stationId: point.stationId,
        stationName,
        type: point.type,
        ratedPower: point.ratedPowerW / 1000,
        status: point.status,
        online: point.online,
        onlineChangedAt: point.onlineChangedAt?.toISOString() ?? null,
        state: deviceState(point.online, own.map((c) => c.status)),
        vendor: point.vendor,
        model: point.model,
        firmwareVersion: point.firmwareVersion,
        connectors: own.map((c) => ({
          connectorId: c.connectorNo,
          status: shownStatus(point.online, c.status),
          errorCode: c.errorCode,
          power: c.powerW / 1000,
        })),
      };
    }),
    total,
    current: q.current,
    size: q.size,
    summary: {
      total: summary.total,
      offline: Number(summary.offline),
      fault: Number(summary.fault),
      online: summary.total - Number(summary.offline) - Number(summary.fault),
    },
  };
}

/** The running transaction of a connector, if any (for stop buttons and links). */
const activeTransaction = sql<number | null>`(
  select max(${transactions.id}) from ${transactions}
  where ${transactions.pointId} = ${connectors.pointId} and ${transactions.connectorNo} = ${connectors.connectorNo} and ${transactions.status} = 'ACTIVE'
)`;

/** Connectors with the status they show (SPEC.md §4: none while the point is offline) and its display class. */
export async function listConnectors(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, CONNECTOR_MENUS);
  const q = connectorListQuery.parse(raw);
  const scope = deviceScope(ctx);
  const filters = [
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.serialNumber ? or(like(points.serialNumber, plain(q.serialNumber)), like(points.name, plain(q.serialNumber))) : undefined,
  ];
  const status =
    q.status === "offline"
      ? or(eq(points.online, false), isNull(connectors.status))
      : q.status
        ? and(eq(points.online, true), eq(connectors.status, q.status))
        : undefined;
  const where = scope.where(connectors, connectors.pointId, ...filters, status);
  const shown = sql<string>`case when ${points.online} = 1 and ${connectors.status} is not null then ${connectors.status} else 'offline' end`;
  const [rows, [{ total }], counts] = await Promise.all([
    ctx.db
      .select({ connector: connectors, point: points, stationName: stations.name, transactionId: activeTransaction })
      .from(connectors)
      .innerJoin(points, eq(points.id, connectors.pointId))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(where)
      .orderBy(asc(points.serialNumber), asc(connectors.connectorNo))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(connectors).innerJoin(points, eq(points.id, connectors.pointId)).where(where),
    ctx.db
      .select({ status: shown, n: count() })
      .from(connectors)
      .innerJoin(points, eq(points.id, connectors.pointId))
      .where(scope.where(connectors, connectors.pointId, ...filters))
      .groupBy(shown),
  ]);
  return {
    records: rows.map(({ connector: c, point: p, stationName, transactionId }) => {
      const shownNow = shownStatus(p.online, c.status);
      return {
        id: c.id,
        pointId: p.id,
        serialNumber: p.serialNumber,
        pointName: p.name,
        online: p.online,
        stationId: p.stationId,
        stationName,
        connectorId: c.connectorNo,
        name: c.name,
        standard: c.standard,
        power: c.powerW / 1000,
        chargeSpeed: c.chargeSpeed,
        status: shownNow,
        displayClass: displayClass(shownNow),
        errorCode: c.errorCode,
        statusAt: c.statusAt?.toISOString() ?? null,
        transactionId: transactionId === null ? null : Number(transactionId),
      };
    }),
    total,
    current: q.current,
    size: q.size,
    /** Connectors per shown status (`offline` for an empty one) over the whole scope. */
    summary: Object.fromEntries(counts.map((c) => [c.status, c.n])) as Record<string, number>,
  };
}
