import { and, asc, count, eq, exists, isNull, not, or, sql } from "drizzle-orm";
import { containing } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { deviceState, displayClass, shownStatus, type DeviceState } from "../../../domain/connector-status";
import { pointProtocol, pointQuarantine } from "../../../domain/schemas/equipment";
import { connectorListQuery, pileListQuery } from "../../../domain/schemas/monitoring";
import { deviceOwner, ownedBy, visible } from "../../../tenants/scope";
import type { UserCtx } from "../context";
import { pointsWithConnectors } from "../points/point-page";
import { verb } from "../verb";

/** Real-time monitoring › Charging piles and Connectors (docs/rules/monitoring.md). */
export const PILE_MENUS = ["monitoring.chargingPile", "sub.monitoring.chargingPile"];
export const CONNECTOR_MENUS = ["monitoring.connector", "sub.monitoring.connector"];

/** The station and text filters both lists share: a point's serial number or name contains the text. */
const deviceFilters = (q: { stationId?: number; serialNumber?: string }) => [
  q.stationId ? eq(points.stationId, q.stationId) : undefined,
  q.serialNumber ? or(containing(points.serialNumber, q.serialNumber), containing(points.name, q.serialNumber)) : undefined,
];

/** A point with a Faulted connector (connector 0, the point itself, is not kept in D1). */
export const faultedPoint = (ctx: UserCtx) =>
  exists(
    ctx.db
      .select({ one: sql`1` })
      .from(connectors)
      .where(ownedBy(deviceOwner(ctx), connectors, eq(connectors.pointId, points.id), eq(connectors.status, "Faulted"))),
  );

const stateCondition = (ctx: UserCtx, state: DeviceState | undefined) =>
  state === "offline"
    ? eq(points.online, false)
    : state === "fault"
      ? and(eq(points.online, true), faultedPoint(ctx))
      : state === "online"
        ? and(eq(points.online, true), not(faultedPoint(ctx)))
        : undefined;

/**
 * Points with their device state (online, offline, fault) and connectors, paged and filtered, and
 * the counts of each state over the whole scope. The console keeps both current from `/live`.
 */
export const listPiles = verb({ menu: PILE_MENUS }, async (ctx, raw: unknown) => {
  const q = pileListQuery.parse(raw);
  const filters = deviceFilters(q);
  const where = visible(ctx, points, points.id, ...filters, stateCondition(ctx, q.state));
  const [page, [summary]] = await Promise.all([
    pointsWithConnectors(ctx, q, where),
    ctx.db
      .select({
        total: count(),
        offline: sql<number>`coalesce(sum(case when ${points.online} = 0 then 1 else 0 end), 0)`,
        fault: sql<number>`coalesce(sum(case when ${points.online} = 1 and ${faultedPoint(ctx)} then 1 else 0 end), 0)`,
      })
      .from(points)
      .where(visible(ctx, points, points.id, ...filters)),
  ]);
  return {
    ...page,
    records: page.records.map(({ point, stationName, connectors: own }) => {
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
        ...pointProtocol(point),
        ...pointQuarantine(point, ctx.now()),
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
    summary: {
      total: summary.total,
      offline: Number(summary.offline),
      fault: Number(summary.fault),
      online: summary.total - Number(summary.offline) - Number(summary.fault),
    },
  };
});

/** The running transaction of a connector, if any (for stop buttons and links). */
// tenancy: correlated on the connector's point, which the outer query scopes; a point's transactions are its operator's.
const activeTransaction = sql<number | null>`(
  select max(${transactions.id}) from ${transactions}
  where ${transactions.pointId} = ${connectors.pointId} and ${transactions.connectorNo} = ${connectors.connectorNo} and ${transactions.status} = 'ACTIVE'
)`;

/**
 * Connectors with the status they show (none while the point is offline) and its display class
 * (docs/rules/monitoring.md "Connector states").
 */
export const listConnectors = verb({ menu: CONNECTOR_MENUS }, async (ctx, raw: unknown) => {
  const q = connectorListQuery.parse(raw);
  const filters = deviceFilters(q);
  const status =
    q.status === "offline"
      ? or(eq(points.online, false), isNull(connectors.status))
      : q.status
        ? and(eq(points.online, true), eq(connectors.status, q.status))
        : undefined;
  const where = visible(ctx, connectors, connectors.pointId, ...filters, status);
  const shown = sql<string>`case when ${points.online} = 1 and ${connectors.status} is not null then ${connectors.status} else 'offline' end`;
  const [page, counts] = await Promise.all([
    pageOf(
      q,
      ({ limit, offset }) =>
        ctx.db
          .select({ connector: connectors, point: points, stationName: stations.name, transactionId: activeTransaction })
          .from(connectors)
          .innerJoin(points, eq(points.id, connectors.pointId))
          .leftJoin(stations, eq(stations.id, points.stationId))
          .where(where)
          .orderBy(asc(points.serialNumber), asc(connectors.connectorNo))
          .limit(limit)
          .offset(offset),
      async () => (await ctx.db.select({ total: count() }).from(connectors).innerJoin(points, eq(points.id, connectors.pointId)).where(where))[0].total,
    ),
    ctx.db
      .select({ status: shown, n: count() })
      .from(connectors)
      .innerJoin(points, eq(points.id, connectors.pointId))
      .where(visible(ctx, connectors, connectors.pointId, ...filters))
      .groupBy(shown),
  ]);
  return {
    ...page,
    records: page.records.map(({ connector: c, point: p, stationName, transactionId }) => {
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
    /** Connectors per shown status (`offline` for an empty one) over the whole scope. */
    summary: Object.fromEntries(counts.map((c) => [c.status, c.n])) as Record<string, number>,
  };
});
