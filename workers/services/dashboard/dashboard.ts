import { asc, count, desc, eq, gte, sql } from "drizzle-orm";
import { connectors, dailyChargeTotals, points, stations, transactions } from "../../../db/schema";
import { settingsOf } from "../../../tenants/resolve";
import { faultedPoint } from "../monitoring/devices";
import { verb } from "../verb";
import { visible, visibleStations } from "../../../tenants/scope";
import { calendarOf, dayKey, localDate } from "../../../domain/time";
import type { MapSettings } from "../../../domain/schemas/settings";

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

export const homeDashboard = verb({ menu: HOME_MENUS }, async (ctx) => {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const now = ctx.now();
  const { todayStart, monthStart, dayStarts } = calendarOf(now, settings.timeZone, CHART_DAYS);
  const todayKey = dayKey(localDate(todayStart, settings.timeZone));
  const monthKey = dayKey(localDate(monthStart, settings.timeZone));
  const since = [dayStarts[0].key, monthKey].sort()[0];
  const faulted = faultedPoint(ctx);
  const shown = sql<string>`case when ${points.online} = 1 and ${connectors.status} is not null then ${connectors.status} else 'offline' end`;

  const [[pointCounts], connectorCounts, days, stationRows, pointRows, running, connectorRows] = await Promise.all([
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
    // The billed sessions' daily totals (docs/rules/records.md "Daily totals"), never the records themselves.
    ctx.db
      .select({
        day: dailyChargeTotals.day,
        sessions: sql<number>`sum(${dailyChargeTotals.sessions})`,
        energyWh: sql<number>`sum(${dailyChargeTotals.energyWh})`,
        revenue: sql<number>`sum(${dailyChargeTotals.revenue})`,
      })
      .from(dailyChargeTotals)
      .where(visible(ctx, dailyChargeTotals, dailyChargeTotals.pointId, gte(dailyChargeTotals.day, since)))
      .groupBy(dailyChargeTotals.day),
    ctx.db
      .select({ id: stations.id, name: stations.name, address: stations.address, lat: stations.lat, lng: stations.lng, status: stations.status, mapIconKey: stations.mapIconKey })
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
  const period = (from: string) => ({ sessions: 0, energyWh: 0, revenue: 0, from });
  const today = period(todayKey);
  const month = period(monthKey);
  for (const d of days) {
    const entry = byDay.get(d.day);
    if (entry) {
      entry.energyWh += Number(d.energyWh);
      entry.sessions += Number(d.sessions);
    }
    for (const p of [today, month]) {
      if (d.day < p.from) continue;
      p.sessions += Number(d.sessions);
      p.energyWh += Number(d.energyWh);
      p.revenue += Number(d.revenue);
    }
  }
  // Running sessions are not billed yet: they count as sessions of the day they started.
  for (const t of running) {
    const key = dayKey(localDate(t.startAt.getTime(), settings.timeZone));
    if (key >= todayKey) today.sessions++;
    if (key >= monthKey) month.sessions++;
    const entry = byDay.get(key);
    if (entry) entry.sessions++;
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
    /**
     * Sessions started in the period (billed ones and running ones) and the energy of the billed
     * ones (Wh); running ones add their live energy in the console.
     */
    today: { sessions: today.sessions, energyWh: today.energyWh },
    month: { sessions: month.sessions, energyWh: month.energyWh },
    /** The billed records' `totalCost` summed, in minor units of `currency` (0 until priced). */
    revenue: { today: today.revenue, month: month.revenue, currency: settings.currencyCode },
    energyByDay: [...byDay.values()],
    running: running.map((t) => ({ ...t, startAt: t.startAt.toISOString() })),
    stations: stationRows.map((s) => ({
      id: s.id,
      name: s.name,
      address: s.address,
      lat: s.lat === null ? null : Number(s.lat),
      lng: s.lng === null ? null : Number(s.lng),
      status: s.status,
      // The station's own marker, when the operator uploaded one (docs/rules/equipment.md "Images").
      mapIconUrl: s.mapIconKey ? `/user-service/file/show?key=${encodeURIComponent(s.mapIconKey)}` : null,
    })),
    /**
     * Where the map looks when no station has coordinates: the centre and zoom of the operator's
     * map settings, unless they are still the blank default (0°, 0°).
     */
    mapCentre: mapCentreOf(settings.parameters.map),
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


function mapCentreOf(map: MapSettings) {
  const lat = Number(map.centre.lat);
  const lng = Number(map.centre.lng);
  return lat === 0 && lng === 0 ? null : { lat, lng, zoom: map.zoom };
}
