import { asc, count, desc, eq, inArray } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { groupBy, pageOf, rowsFor } from "../../../db/paging";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { pointProtocol, pointQuarantine } from "../../../domain/schemas/equipment";
import { loadQuery, panelQuery, stationPickerQuery } from "../../../domain/schemas/monitoring";
import { chargePointName } from "../../ocpp/identity";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { visible, visibleStations } from "../../../tenants/scope";
import { balancingLimits } from "../load-balancing/load-balancing";
import { powerHistory } from "./meter-curve";

/**
 * Station-level monitoring: the station picker of the monitoring screens, the remote-control
 * panel of one station (docs/rules/monitoring.md "Remote-control panel") and load monitoring
 * (docs/rules/monitoring.md "Load monitoring").
 */
export const LOAD_MENUS = ["monitoring.loadMonitoring", "sub.monitoring.loadMonitoring"];
export const PANEL_MENUS = ["equipment.remoteControl"];
/** Every screen that picks a station to look at. */
export const STATION_PICKER_MENUS = [
  "finance.chargeRecord",
  "finance.financialStatements",
  "sub.finance.financialStatements",
  "sub.finance.bill",
  "sub.finance.chargeRecord",
  ...PANEL_MENUS,
  ...LOAD_MENUS,
  "monitoring.charging",
  "monitoring.chargingPile",
  "monitoring.connector",
  "monitoring.alarmRecord",
  "monitoring.reliability",
  "operation.historicalAlarmInfo",
  "sub.monitoring.charging",
  "sub.monitoring.chargingPile",
  "sub.monitoring.connector",
  "sub.monitoring.alarm",
  "sub.equipment.station",
  "sub.equipment.point",
];

/** At most this many stations in a picker; the name filter narrows them. */
const PICKER_LIMIT = 50;
/** Load monitoring looks back this far, in steps of a minute, on first paint. */
const HISTORY_MS = 60 * 60 * 1000;
const HISTORY_STEP_MS = 60 * 1000;
/** Transactions whose samples are read for the history (a station rarely runs more at once). */
const HISTORY_SESSIONS = 50;
/** Points of one station returned for the load view. */
const LOAD_POINTS = 500;

/**
 * Stations the context may see, highest rank first (docs/rules/lists.md "Filters and sorting"), for
 * a picker.
 */
export const stationOptions = verb({ menu: STATION_PICKER_MENUS }, async (ctx, raw: unknown) => {
  const q = stationPickerQuery.parse(raw);
  const rows = await ctx.db
    .select({ id: stations.id, name: stations.name, status: stations.status })
    .from(stations)
    .where(visibleStations(ctx, containingIf(stations.name, q.name)))
    .orderBy(desc(stations.rank), asc(stations.name))
    .limit(PICKER_LIMIT);
  return rows;
});

/**
 * The station the panel opens on when none is chosen: the first of the picker's order. The panel
 * needs a base, a location, to manage from (docs/rules/monitoring.md "Remote-control panel").
 */
async function firstPanelStation(ctx: UserCtx) {
  const [station] = await ctx.db.select().from(stations).where(visibleStations(ctx)).orderBy(desc(stations.rank), asc(stations.name)).limit(1);
  if (!station) throw new Conflict("errors.noBase");
  return station;
}

export async function scopedStation(ctx: UserCtx, id: number) {
  const [station] = await ctx.db.select().from(stations).where(visibleStations(ctx, eq(stations.id, id))).limit(1);
  if (!station) throw new NotFound("errors.stationNotFound");
  return station;
}

const presentConnector = (c: typeof connectors.$inferSelect, online: boolean, transactionId: number | undefined) => ({
  connectorId: c.connectorNo,
  name: c.name,
  standard: c.standard,
  power: c.powerW / 1000,
  // An empty status means offline (docs/rules/monitoring.md "Connector states").
  status: online ? c.status : null,
  errorCode: c.errorCode,
  transactionId: transactionId ?? null,
});

/** Points of a station with their connectors and running transactions. */
export async function stationPoints(ctx: UserCtx, stationId: number, request: { current: number; size: number }) {
  const where = visible(ctx, points, points.id, eq(points.stationId, stationId));
  const page = await pageOf(
    request,
    ({ limit, offset }) => ctx.db.select().from(points).where(where).orderBy(asc(points.pointNo), asc(points.serialNumber)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(points).where(where))[0].total,
  );
  const ids = page.records.map((p) => p.id);
  const [list, running] = await Promise.all([
    rowsFor(ids, (slice) =>
      ctx.db.select().from(connectors).where(visible(ctx, connectors, connectors.pointId, inArray(connectors.pointId, slice))).orderBy(asc(connectors.connectorNo)),
    ),
    rowsFor(ids, (slice) =>
      ctx.db
        .select({ id: transactions.id, pointId: transactions.pointId, connectorNo: transactions.connectorNo, startAt: transactions.startAt })
        .from(transactions)
        .where(visible(ctx, transactions, transactions.pointId, inArray(transactions.pointId, slice), eq(transactions.status, "ACTIVE"))),
    ),
  ]);
  running.sort((a, b) => a.id - b.id);
  const connectorsOf = groupBy(list, (c) => c.pointId);
  const records = page.records.map((p) => {
    const runningHere = new Map(running.filter((t) => t.pointId === p.id).map((t) => [t.connectorNo, t.id]));
    return {
      id: p.id,
      serialNumber: p.serialNumber,
      pointNo: p.pointNo,
      name: p.name,
      type: p.type,
      ratedPower: p.ratedPowerW / 1000,
      status: p.status,
      online: p.online,
      ...pointProtocol(p),
      ...pointQuarantine(p, ctx.now()),
      firmwareVersion: p.firmwareVersion,
      connectors: (connectorsOf.get(p.id) ?? []).map((c) => presentConnector(c, p.online, runningHere.get(c.connectorNo))),
    };
  });
  return { ...page, records, running };
}

/**
 * The remote-control panel of one station: a panel per point (serial number, online state, live
 * and rated power, QR code) with its connectors and their running transactions
 * (docs/rules/monitoring.md "Remote-control panel").
 */
export const stationPanel = verb({ menu: PANEL_MENUS }, async (ctx, raw: unknown) => {
  const q = panelQuery.parse(raw);
  const station = q.stationId === undefined ? await firstPanelStation(ctx) : await scopedStation(ctx, q.stationId);
  const { running: _, ...page } = await stationPoints(ctx, station.id, q);
  return { station: { id: station.id, name: station.name, address: station.address, status: station.status }, ...page };
});

/**
 * A station's load against its limit (`power_limit_w`): its points and connectors (the console
 * sums their live power) and the last hour of summed power from the running transactions' samples.
 */
export const stationLoad = verb({ menu: LOAD_MENUS }, async (ctx, raw: unknown) => {
  const q = loadQuery.parse(raw);
  const station = await scopedStation(ctx, q.stationId);
  const { records, total, running } = await stationPoints(ctx, station.id, { current: 1, size: LOAD_POINTS });
  const now = ctx.now();
  const serialOf = new Map(records.map((p) => [p.id, p.serialNumber]));
  const sessions = await Promise.all(
    running.slice(-HISTORY_SESSIONS).map(async (t) => {
      const serialNumber = serialOf.get(t.pointId);
      const samples = serialNumber
        ? await ctx.env.CHARGE_POINT.getByName(chargePointName(station.operatorId, serialNumber)).meterSamples(t.id)
        : [];
      return { samples };
    }),
  );
  const from = Math.floor((now - HISTORY_MS) / HISTORY_STEP_MS) * HISTORY_STEP_MS;
  return {
    station: {
      id: station.id,
      name: station.name,
      /** kW, or null when the station has no limit set. */
      powerLimit: station.powerLimitW === null ? null : station.powerLimitW / 1000,
    },
    // The load-balancing limits in force now (docs/rules/operations.md "Load balancing").
    balancing: await balancingLimits(ctx, station),
    ratedPower: records.reduce((sum, p) => sum + p.ratedPower, 0),
    points: records,
    pointsTotal: total,
    running: running.map((t) => ({ transactionId: t.id, pointId: t.pointId, connectorId: t.connectorNo, startAt: t.startAt.toISOString() })),
    history: powerHistory(sessions, from, now, HISTORY_STEP_MS),
  };
});

