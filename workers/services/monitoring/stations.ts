import { asc, count, desc, eq, inArray, like } from "drizzle-orm";
import { z } from "zod";
import { connectors, points, stations, transactions } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { pageQuery } from "../../../domain/schemas/account-service";
import { chargePointName } from "../../ocpp/identity";
import { requireMenu, type Ctx } from "../context";
import { deviceScope } from "../sub-operators/scope";
import { powerHistory } from "./meter-curve";

/**
 * Station-level monitoring: the station picker of the monitoring screens, the remote-control
 * panel of one station (SPEC.md §2 home panel) and load monitoring (SPEC.md §3 load balancing).
 */
export const LOAD_MENUS = ["monitoring.loadMonitoring", "sub.monitoring.loadMonitoring"];
export const PANEL_MENUS = ["equipment.remoteControl"];
/** Every screen that picks a station to look at. */
export const STATION_PICKER_MENUS = [
  ...PANEL_MENUS,
  ...LOAD_MENUS,
  "monitoring.charging",
  "monitoring.chargingPile",
  "monitoring.connector",
  "monitoring.alarmRecord",
  "operation.historicalAlarmInfo",
  "sub.monitoring.charging",
  "sub.monitoring.chargingPile",
  "sub.monitoring.connector",
  "sub.monitoring.alarm",
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

const stationId = z.coerce
  .number({ error: "monitoring.validation.stationRequired" })
  .int({ error: "monitoring.validation.stationRequired" })
  .positive({ error: "monitoring.validation.stationRequired" });

export const stationPickerQuery = z.object({ name: z.string().trim().max(64).optional() });
export const loadQuery = z.object({ stationId });
export const panelQuery = pageQuery.extend({ stationId });

/** Stations the context may see, highest rank first (SPEC.md §9), for a picker. */
export async function stationOptions(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, STATION_PICKER_MENUS);
  const q = stationPickerQuery.parse(raw);
  const rows = await ctx.db
    .select({ id: stations.id, name: stations.name, status: stations.status })
    .from(stations)
    .where(deviceScope(ctx).stations(q.name ? like(stations.name, `%${q.name.replace(/[%_]/g, "")}%`) : undefined))
    .orderBy(desc(stations.rank), asc(stations.name))
    .limit(PICKER_LIMIT);
  return rows;
}

async function scopedStation(ctx: Ctx, id: number) {
  const [station] = await ctx.db.select().from(stations).where(deviceScope(ctx).stations(eq(stations.id, id))).limit(1);
  if (!station) throw new NotFound("errors.stationNotFound");
  return station;
}

const presentConnector = (c: typeof connectors.$inferSelect, online: boolean, transactionId: number | undefined) => ({
  connectorId: c.connectorNo,
  name: c.name,
  standard: c.standard,
  power: c.powerW / 1000,
  // SPEC.md §4: an empty status means offline.
  status: online ? c.status : null,
  errorCode: c.errorCode,
  transactionId: transactionId ?? null,
});

/** Points of a station with their connectors and running transactions. */
async function stationPoints(ctx: Ctx, stationId: number, page: { limit: number; offset: number }) {
  const scope = deviceScope(ctx);
  const where = scope.where(points, points.id, eq(points.stationId, stationId));
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(points).where(where).orderBy(asc(points.pointNo), asc(points.serialNumber)).limit(page.limit).offset(page.offset),
    ctx.db.select({ total: count() }).from(points).where(where),
  ]);
  const ids = rows.map((p) => p.id);
  const [list, running] = ids.length
    ? await Promise.all([
        ctx.db.select().from(connectors).where(scope.where(connectors, connectors.pointId, inArray(connectors.pointId, ids))).orderBy(asc(connectors.connectorNo)),
        ctx.db
          .select({ id: transactions.id, pointId: transactions.pointId, connectorNo: transactions.connectorNo, startAt: transactions.startAt })
          .from(transactions)
          .where(scope.where(transactions, transactions.pointId, inArray(transactions.pointId, ids), eq(transactions.status, "ACTIVE")))
          .orderBy(asc(transactions.id)),
      ])
    : [[], []];
  const records = rows.map((p) => {
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
      firmwareVersion: p.firmwareVersion,
      connectors: list.filter((c) => c.pointId === p.id).map((c) => presentConnector(c, p.online, runningHere.get(c.connectorNo))),
    };
  });
  return { records, total, running };
}

/**
 * SPEC.md §2 home panel for one station: a panel per point (serial number, online state, live and
 * rated power, QR code) with its connectors and their running transactions, for remote control.
 */
export async function stationPanel(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, PANEL_MENUS);
  const q = panelQuery.parse(raw);
  const station = await scopedStation(ctx, q.stationId);
  const { records, total } = await stationPoints(ctx, station.id, { limit: q.size, offset: (q.current - 1) * q.size });
  return {
    station: { id: station.id, name: station.name, address: station.address, status: station.status },
    records,
    total,
    current: q.current,
    size: q.size,
  };
}

/**
 * A station's load against its limit (`power_limit_w`): its points and connectors (the console
 * sums their live power) and the last hour of summed power from the running transactions' samples.
 */
export async function stationLoad(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, LOAD_MENUS);
  const q = loadQuery.parse(raw);
  const station = await scopedStation(ctx, q.stationId);
  const { records, total, running } = await stationPoints(ctx, station.id, { limit: LOAD_POINTS, offset: 0 });
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
    ratedPower: records.reduce((sum, p) => sum + p.ratedPower, 0),
    points: records,
    pointsTotal: total,
    running: running.map((t) => ({ transactionId: t.id, pointId: t.pointId, connectorId: t.connectorNo, startAt: t.startAt.toISOString() })),
    history: powerHistory(sessions, from, now, HISTORY_STEP_MS),
  };
}

