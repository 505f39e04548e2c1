import { asc, count, desc, eq, gte, sql } from "drizzle-orm";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { settingsOf } from "../../../tenants/resolve";
import { faultedPoint } from "../monitoring/devices";
import { verb } from "../verb";
import { visible, visibleStations } from "../../../tenants/scope";
import { calendarOf, dayKey, localDate } from "../../../domain/time";

/**
 * The home dashboard (big screen, /home; docs/rules/monitoring.md "Home dashboard"): device and
 * connector counts, energy and sessions today and this month in the operator's time zone, energy by
 * day, and the stations for the map. The console keeps it current from `/live` and reloads it when
 * a transaction ends.
 */
export const HOME_MENUS = ["home"];

/** Days in the energy chart. */
const CHART_DAYS = 30;
/** Stations drawn on the map, highest rank first. */
const MAP_STATIONS = 500;
/** Running transactions sent for live energy (beyond this the figure waits for their stop). */
const LIVE_TRANSACTIONS = 500;
/** Every real zone offset is a multiple of 15 minutes, so these buckets fold into local days exactly. */
const BUCKET_MS = 15 * 60 * 1000;

/** Energy of a transaction that has a stop meter; a register that went backwards counts as 0. */
const energy = sql<number>`max(0, coalesce(${transactions.energyWh}, ${transactions.meterStopWh} - ${transactions.meterStartWh}, 0))`;

export const homeDashboard = verb({ menu: HOME_MENUS }, async (ctx) => {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const now = ctx.now();
  const { todayStart, monthStart, dayStarts } = calendarOf(now, settings.timeZone, CHART_DAYS);
  const chartStart = dayStarts[0].start;
  const since = Math.min(chartStart, monthStart);
  const faulted = faultedPoint(ctx);
  const shown = sql<string>`case when ${points.online} = 1 and ${connectors.status} is not null then ${connectors.status} else 'offline' end`;
  const periodWhere = (from: number) => visible(ctx, transactions, transactions.pointId, gte(transactions.startAt, new Date(from)));

  const [[pointCounts], connectorCounts, [today], [month], buckets, stationRows, pointRows, running, connectorRows] = await Promise.all([
    ctx.db
      .select({
        total: count(),
        offline: sql<number>`coalesce(sum(case when ${points.online} = 0 then 1 else 0 end), 0)`,
        fault: sql<number>`coalesce(sum(case when ${points.online} = 1 and ${faulted} then 1 else 0 end), 0)`,
      })
      .from(points)
      .where(visible(ctx, points, points.id)),
    ctx.db
      .select({ status: shown, n: count() })
      .from(connectors)
      .innerJoin(points, eq(points.id, connectors.pointId))
      .where(visible(ctx, connectors, connectors.pointId))
      .groupBy(shown),
    ctx.db.select({ sessions: count(), energyWh: sql<number>`coalesce(sum(${energy}), 0)` }).from(transactions).where(periodWhere(todayStart)),
    ctx.db.select({ sessions: count(), energyWh: sql<number>`coalesce(sum(${energy}), 0)` }).from(transactions).where(periodWhere(monthStart)),
    ctx.db
      .select({
        bucket: sql<number>`${transactions.startAt} / ${BUCKET_MS}`,
        sessions: count(),
        energyWh: sql<number>`coalesce(sum(${energy}), 0)`,
      })
      .from(transactions)
      .where(periodWhere(since))
      .groupBy(sql`${transactions.startAt} / ${BUCKET_MS}`),
    ctx.db
      .select({ id: stations.id, name: stations.name, address: stations.address, lat: stations.lat, lng: stations.lng, status: stations.status })
      .from(stations)
      .where(visibleStations(ctx))
      .orderBy(desc(stations.rank), asc(stations.id))
      .limit(MAP_STATIONS),
    ctx.db
      .select({
        id: points.id,
        stationId: points.stationId,
        online: points.online,
        ratedPowerW: points.ratedPowerW,
        faulted: sql<number>`${faulted}`,
      })
      .from(points)
      .where(visible(ctx, points, points.id)),
    ctx.db
      .select({
        transactionId: transactions.id,
        pointId: transactions.pointId,
        connectorId: transactions.connectorNo,
        meterStartWh: transactions.meterStartWh,
        startAt: transactions.startAt,
      })
      .from(transactions)
      .where(visible(ctx, transactions, transactions.pointId, eq(transactions.status, "ACTIVE")))
      .orderBy(desc(transactions.startAt))
      .limit(LIVE_TRANSACTIONS),
    ctx.db
      .select({ pointId: connectors.pointId, connectorNo: connectors.connectorNo, status: connectors.status })
      .from(connectors)
      .where(visible(ctx, connectors, connectors.pointId)),
  ]);

  const byDay = new Map(dayStarts.map((d) => [d.key, { day: d.key, energyWh: 0, sessions: 0 }]));
  for (const b of buckets) {
    const start = Number(b.bucket) * BUCKET_MS;
    if (start < chartStart) continue;
    const entry = byDay.get(dayKey(localDate(start, settings.timeZone)));
    if (!entry) continue;
    entry.energyWh += Number(b.energyWh);
    entry.sessions += b.sessions;
  }

  const offline = Number(pointCounts.offline);
  const fault = Number(pointCounts.fault);
  const stationIds = new Set(stationRows.map((s) => s.id));
  const connectorsOf = new Map<number, typeof connectorRows>();
  for (const c of connectorRows) connectorsOf.set(c.pointId, [...(connectorsOf.get(c.pointId) ?? []), c]);
  return {
    timeZone: settings.timeZone,
    generatedAt: new Date(now).toISOString(),
    todayStart: new Date(todayStart).toISOString(),
    monthStart: new Date(monthStart).toISOString(),
    points: { total: pointCounts.total, online: pointCounts.total - offline - fault, offline, fault },
    /**
     * Connectors per shown status; `offline` for an empty status or an offline point
     * (docs/rules/monitoring.md "Connector states").
     */
    connectors: Object.fromEntries(connectorCounts.map((c) => [c.status, c.n])) as Record<string, number>,
    /** Energy of ended transactions started in the period (Wh); running ones add their live energy in the console. */
    today: { sessions: today.sessions, energyWh: Number(today.energyWh) },
    month: { sessions: month.sessions, energyWh: Number(month.energyWh) },
    /** Prices are not attached to sessions yet (finance work), so there is no revenue to show. */
    revenue: null,
    energyByDay: [...byDay.values()],
    running: running.map((t) => ({ ...t, startAt: t.startAt.toISOString() })),
    stations: stationRows.map((s) => ({
      id: s.id,
      name: s.name,
      address: s.address,
      lat: s.lat === null ? null : Number(s.lat),
      lng: s.lng === null ? null : Number(s.lng),
      status: s.status,
    })),
    /** Every visible point with its station, so the console can place live events on the map. */
    devices: pointRows
      .filter((p) => stationIds.has(p.stationId))
      .map((p) => ({
        id: p.id,
        stationId: p.stationId,
        online: p.online,
        fault: Boolean(Number(p.faulted)),
        ratedPower: p.ratedPowerW / 1000,
        /** connector number → its shown status (null: offline), so the console can count them live. */
        connectors: Object.fromEntries(
          (connectorsOf.get(p.id) ?? []).map((c) => [c.connectorNo, p.online ? c.status : null]),
        ) as Record<number, string | null>,
      })),
  };
});

