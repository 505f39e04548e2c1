import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { groupBy, pageOf, rowsFor } from "../../../db/paging";
import { connectors, points, stations, statusIntervals, throughPointHistory, transactions, workOrders } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { localBound } from "../../../domain/time";
import {
  chargingSuccessPercent,
  closedSpans,
  openingHoursOf,
  OUTAGE_STATUSES,
  periodsOf,
  UPTIME_MINIMUM_PERCENT,
  uptimeOf,
  type StatusInterval,
} from "../../../domain/uptime";
import { MAX_PERIOD_DAYS, outageExclusionInput, outageQuery, reliabilityQuery, uptimeQuery } from "../../../domain/schemas/uptime";
import { owned, visible } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { scopedStation } from "../monitoring/stations";
import { operatorSettings } from "../settings/parameter-settings";
import { verb } from "../verb";

/**
 * Uptime per charging port the way 23 CFR 680.116(b) counts it, its outages and the charging
 * success rate (docs/rules/monitoring.md "Uptime"). The history is the status intervals the
 * charger change writer keeps (workers/services/uptime/intervals.ts); the arithmetic is
 * domain/uptime.ts.
 */
export const RELIABILITY_MENUS = ["monitoring.reliability"];

const DAY_MS = 86_400_000;

/** A scheduled maintenance counts as announced when a work order for the point was opened this long before the outage at most. */
export const ANNOUNCEMENT_WINDOW_MS = 30 * DAY_MS;

/**
 * The period in the operator's zone, `to` exclusive (a bare date is that day's local midnight);
 * a station asked for must be visible (another operator's: 404).
 */
async function periodOf(ctx: UserCtx, q: { from: string; to: string; stationId?: number }) {
  const { timeZone } = await operatorSettings(ctx);
  const from = localBound(q.from, timeZone, "from");
  const to = localBound(q.to, timeZone, "from");
  if (from === undefined) throw new Invalid("reliability.validation.from", {}, { from: "reliability.validation.from" });
  if (to === undefined) throw new Invalid("reliability.validation.to", {}, { to: "reliability.validation.to" });
  if (to <= from) throw new Invalid("reliability.validation.order", {}, { to: "reliability.validation.order" });
  if (to - from > MAX_PERIOD_DAYS * DAY_MS) throw new Invalid("reliability.validation.tooLong", { days: MAX_PERIOD_DAYS }, { to: "reliability.validation.tooLong" });
  if (q.stationId !== undefined) await scopedStation(ctx, q.stationId);
  return { from, to, timeZone };
}

const stationFilter = (stationId: number | undefined) => (stationId === undefined ? undefined : eq(points.stationId, stationId));

/**
 * The intervals of these points that overlap [from, to), per port, read through the points'
 * index: SQLite would take the operator's (`operator_id`, `started_at`) for `started_at < ?` and
 * visit every interval of the operator before the period's end (decision 0110).
 */
async function intervalsOf(ctx: UserCtx, pointIds: number[], from: number, to: number) {
  const { pointId, connectorNo, status, online, startedAt, endedAt, excludedReason } = statusIntervals;
  const rows = await rowsFor(pointIds, (slice) =>
    ctx.db.all<{ pointId: number; connectorNo: number; status: string | null; online: number; start: number; end: number | null; excluded: number }>(
      sql`select ${pointId} as pointId, ${connectorNo} as connectorNo, ${status} as status, ${online} as online, ${startedAt} as start, ${endedAt} as "end", ${excludedReason} is not null as excluded
        from ${statusIntervals} ${throughPointHistory}
        where ${owned(ctx, statusIntervals, inArray(pointId, slice), lt(startedAt, new Date(to)), or(isNull(endedAt), gt(endedAt, new Date(from))))}
        order by ${startedAt}`,
    ),
  );
  return groupBy(
    rows.map((r) => ({ ...r, interval: { status: r.status, online: r.online === 1, start: r.start, end: r.end, excluded: r.excluded === 1 } satisfies StatusInterval })),
    (r) => `${r.pointId}:${r.connectorNo}`,
  );
}

const asInterval = (r: typeof statusIntervals.$inferSelect): StatusInterval => ({
  status: r.status,
  online: r.online,
  start: r.startedAt.getTime(),
  end: r.endedAt?.getTime() ?? null,
  excluded: r.excludedReason !== null,
});

/** The ports (connectors) of the scope, a page of them, serial number then connector. */
async function portPage(ctx: UserCtx, q: { current: number; size: number; stationId?: number }) {
  const where = visible(ctx, connectors, connectors.pointId, stationFilter(q.stationId));
  return pageOf(
    q,
    () =>
      ctx.db
        .select({
          pointId: points.id,
          serialNumber: points.serialNumber,
          pointName: points.name,
          connectorId: connectors.connectorNo,
          stationId: stations.id,
          stationName: stations.name,
          businessHours: stations.businessHours,
          stationTimeZone: stations.timeZone,
        })
        .from(connectors)
        .innerJoin(points, eq(points.id, connectors.pointId))
        .innerJoin(stations, eq(stations.id, points.stationId))
        .where(where)
        .orderBy(asc(points.serialNumber), asc(connectors.connectorNo))
        .limit(q.size)
        .offset((q.current - 1) * q.size),
    async () => (await ctx.db.select({ n: count() }).from(connectors).innerJoin(points, eq(points.id, connectors.pointId)).where(where))[0].n,
  );
}

/**
 * `GET /station-service/uptime`: per port of the scope (a page of them) its minutes, outage,
 * excluded minutes and uptime over the period; with `by`, also per local day or month.
 */
export const listUptime = verb({ menu: RELIABILITY_MENUS }, async (ctx, raw: unknown) => {
  const q = uptimeQuery.parse(raw);
  const { from, to, timeZone } = await periodOf(ctx, q);
  const now = ctx.now();
  const page = await portPage(ctx, q);
  const intervals = await intervalsOf(
    ctx,
    page.records.map((p) => p.pointId),
    from,
    to,
  );
  const pieces = q.by ? periodsOf(from, to, timeZone, q.by) : [];
  const records = page.records.map((port) => {
    const history = {
      port: (intervals.get(`${port.pointId}:${port.connectorId}`) ?? []).map((r) => r.interval),
      point: (intervals.get(`${port.pointId}:0`) ?? []).map((r) => r.interval),
      // Opening hours are the station's, on its own clock where it has one.
      closed: closedSpans(from, to, openingHoursOf(port.businessHours), port.stationTimeZone ?? timeZone),
    };
    return {
      pointId: port.pointId,
      serialNumber: port.serialNumber,
      pointName: port.pointName,
      connectorId: port.connectorId,
      stationId: port.stationId,
      stationName: port.stationName,
      ...uptimeOf(history, from, to, now),
      ...(q.by && { periods: pieces.map((p) => ({ period: p.key, ...uptimeOf(history, p.from, p.to, now) })) }),
    };
  });
  return { ...page, records, minimumPercent: UPTIME_MINIMUM_PERCENT };
});

/** Whether an interval is an outage: the point offline, or a status in which the port cannot charge. */
const outageWhere = () =>
  or(
    and(ne(statusIntervals.connectorNo, 0), eq(statusIntervals.online, false)),
    and(eq(statusIntervals.online, true), inArray(statusIntervals.status, [...OUTAGE_STATUSES])),
  );

/** The outages the user sees that overlap the period [from, to), of one station or all, narrowed by `more`. */
const outagesIn = (ctx: UserCtx, from: number, to: number, stationId: number | undefined, ...more: (SQL | undefined)[]) =>
  visible(
    ctx,
    statusIntervals,
    statusIntervals.pointId,
    outageWhere(),
    lt(statusIntervals.startedAt, new Date(to)),
    or(isNull(statusIntervals.endedAt), gt(statusIntervals.endedAt, new Date(from))),
    stationFilter(stationId),
    ...more,
  );

/**
 * `GET /station-service/uptime/outages`: the outages of the period, newest first: each port's
 * offline or not-operational interval (connector 0: the point itself), its cause, the operator's
 * exclusion, and the work orders opened for the point while it lasted.
 */
export const listOutages = verb({ menu: RELIABILITY_MENUS }, async (ctx, raw: unknown) => {
  const q = outageQuery.parse(raw);
  const { from, to } = await periodOf(ctx, q);
  const where = outagesIn(ctx, from, to, q.stationId, q.pointId === undefined ? undefined : eq(statusIntervals.pointId, q.pointId));
  const now = ctx.now();
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ interval: statusIntervals, serialNumber: points.serialNumber, stationName: stations.name })
        .from(statusIntervals)
        .innerJoin(points, eq(points.id, statusIntervals.pointId))
        .innerJoin(stations, eq(stations.id, points.stationId))
        .where(where)
        .orderBy(desc(statusIntervals.startedAt), asc(statusIntervals.connectorNo))
        .limit(limit)
        .offset(offset);
      const orders = await rowsFor(
        rows.map((r) => r.interval.pointId),
        (slice) =>
          ctx.db
            .select({ id: workOrders.id, pointId: workOrders.pointId, faultCode: workOrders.faultCode, status: workOrders.status, abnormalTime: workOrders.abnormalTime })
            .from(workOrders)
            .where(
              owned(
                ctx,
                workOrders,
                inArray(workOrders.pointId, slice),
                gte(workOrders.abnormalTime, new Date(Math.min(...rows.map((r) => r.interval.startedAt.getTime())))),
              ),
            )
            .orderBy(asc(workOrders.abnormalTime)),
      );
      const ordersOf = groupBy(orders, (o) => o.pointId);
      return rows.map(({ interval: i, serialNumber, stationName }) => {
        const start = i.startedAt.getTime();
        const end = i.endedAt?.getTime() ?? null;
        return {
          id: i.id,
          pointId: i.pointId,
          serialNumber,
          stationName,
          connectorId: i.connectorNo,
          cause: i.online ? i.status : "Offline",
          startedAt: i.startedAt.toISOString(),
          endedAt: i.endedAt?.toISOString() ?? null,
          minutes: Math.round(((end ?? now) - start) / 60_000),
          excludedReason: i.excludedReason,
          excludedNote: i.excludedNote,
          excludedBy: i.excludedBy,
          workOrders: (ordersOf.get(i.pointId) ?? [])
            .filter((o) => o.abnormalTime.getTime() >= start && o.abnormalTime.getTime() <= (end ?? now))
            .map((o) => ({ id: o.id, faultCode: o.faultCode, status: o.status })),
        };
      });
    },
    async () => (await ctx.db.select({ n: count() }).from(statusIntervals).innerJoin(points, eq(points.id, statusIntervals.pointId)).where(where))[0].n,
  );
});

/**
 * `PUT /station-service/uptime/outages/{id}/exclusion`: the operator puts an outage down to a cause
 * outside its control (or, with no reason, counts it again). An offline outage is the point's: its
 * exclusion covers every port that went down with it. Scheduled maintenance counts only when it
 * was announced: a work order for the point opened before the outage began, within 30 days.
 */
export const excludeOutage = verb({ menu: RELIABILITY_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = outageExclusionInput.parse(raw);
  const [outage] = await ctx.db
    .select()
    .from(statusIntervals)
    .where(visible(ctx, statusIntervals, statusIntervals.pointId, eq(statusIntervals.id, id), outageWhere()))
    .limit(1);
  if (!outage) throw new NotFound("reliability.errors.outageNotFound");
  if (input.reason === "SCHEDULED_MAINTENANCE") {
    const began = outage.startedAt.getTime();
    const [announced] = await ctx.db
      .select({ id: workOrders.id })
      .from(workOrders)
      .where(
        owned(
          ctx,
          workOrders,
          eq(workOrders.pointId, outage.pointId),
          lt(workOrders.createdAt, outage.startedAt),
          gte(workOrders.createdAt, new Date(began - ANNOUNCEMENT_WINDOW_MS)),
        ),
      )
      .limit(1);
    if (!announced) throw new Conflict("reliability.errors.notAnnounced");
  }
  const same = outage.online
    ? eq(statusIntervals.id, outage.id)
    : and(eq(statusIntervals.pointId, outage.pointId), eq(statusIntervals.startedAt, outage.startedAt), eq(statusIntervals.online, false));
  const exclusion =
    input.reason === null
      ? { excludedReason: null, excludedNote: null, excludedBy: null, excludedAt: null }
      : { excludedReason: input.reason, excludedNote: input.note || null, excludedBy: ctx.actor.username, excludedAt: new Date(ctx.now()) };
  await ctx.db.batch([
    ctx.db.update(statusIntervals).set(exclusion).where(owned(ctx, statusIntervals, same)),
    auditRow(ctx, { table: "status_intervals", module: "reliability", type: "UPDATE", oldData: { id, excludedReason: outage.excludedReason }, newData: { id, ...exclusion } }),
  ]);
  return { id, excludedReason: exclusion.excludedReason, excludedNote: exclusion.excludedNote };
});

/** Ports below the minimum the summary names, worst first. */
export const BELOW_LISTED = 100;

/**
 * The ports of the scope below the minimum over the period. Only outages lower uptime, so only the
 * outage intervals are read (and the connectors of a point that was itself down).
 */
async function portsBelow(ctx: UserCtx, q: { stationId?: number }, from: number, to: number, timeZone: string) {
  const rows = await ctx.db
    .select({ interval: statusIntervals, serialNumber: points.serialNumber, businessHours: stations.businessHours, stationTimeZone: stations.timeZone })
    .from(statusIntervals)
    .innerJoin(points, eq(points.id, statusIntervals.pointId))
    .innerJoin(stations, eq(stations.id, points.stationId))
    .where(outagesIn(ctx, from, to, q.stationId));
  const pointWide = [...new Set(rows.filter((r) => r.interval.connectorNo === 0).map((r) => r.interval.pointId))];
  const ports = await rowsFor(pointWide, (slice) =>
    ctx.db.select({ pointId: connectors.pointId, connectorNo: connectors.connectorNo }).from(connectors).where(owned(ctx, connectors, inArray(connectors.pointId, slice))),
  );
  const byPort = groupBy(rows, (r) => `${r.interval.pointId}:${r.interval.connectorNo}`);
  const facts = new Map(rows.map((r) => [r.interval.pointId, r]));
  const keys = new Set([...rows.filter((r) => r.interval.connectorNo > 0).map((r) => `${r.interval.pointId}:${r.interval.connectorNo}`), ...ports.map((p) => `${p.pointId}:${p.connectorNo}`)]);
  const now = ctx.now();
  return [...keys]
    .map((key) => {
      const [pointId, connectorId] = key.split(":").map(Number);
      const point = facts.get(pointId)!;
      const history = {
        port: (byPort.get(key) ?? []).map((r) => asInterval(r.interval)),
        point: (byPort.get(`${pointId}:0`) ?? []).map((r) => asInterval(r.interval)),
        closed: closedSpans(from, to, openingHoursOf(point.businessHours), point.stationTimeZone ?? timeZone),
      };
      return { pointId, serialNumber: point.serialNumber, connectorId, uptimePercent: uptimeOf(history, from, to, now).uptimePercent };
    })
    .filter((p) => p.uptimePercent < UPTIME_MINIMUM_PERCENT)
    .sort((a, b) => a.uptimePercent - b.uptimePercent || a.serialNumber.localeCompare(b.serialNumber) || a.connectorId - b.connectorId);
}

/**
 * `GET /station-service/uptime/summary`: the ports below the minimum over the period (how many,
 * and the worst 100) and the charging success rate: sessions that delivered energy against
 * sessions started and ended in it, refused tags left out.
 */
export const reliabilitySummary = verb({ menu: RELIABILITY_MENUS }, async (ctx, raw: unknown) => {
  const q = reliabilityQuery.parse(raw);
  const { from, to, timeZone } = await periodOf(ctx, q);
  const delivered = sql<number>`coalesce(sum(case when coalesce(${transactions.energyWh}, ${transactions.meterStopWh} - ${transactions.meterStartWh}) > 0 then 1 else 0 end), 0)`;
  const [sessions] = await ctx.db
    .select({ started: count(), delivered })
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .where(
      visible(
        ctx,
        transactions,
        transactions.pointId,
        stationFilter(q.stationId),
        eq(transactions.authStatus, "Accepted"),
        ne(transactions.status, "ACTIVE"),
        gte(transactions.startAt, new Date(from)),
        lt(transactions.startAt, new Date(to)),
      ),
    );
  const below = await portsBelow(ctx, q, from, to, timeZone);
  return {
    minimumPercent: UPTIME_MINIMUM_PERCENT,
    belowCount: below.length,
    below: below.slice(0, BELOW_LISTED),
    sessionsStarted: sessions.started,
    sessionsDelivered: Number(sessions.delivered),
    successPercent: chargingSuccessPercent(sessions.started, Number(sessions.delivered)),
  };
});
