import { asc, eq } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { connectors, points, stations } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { ocppLogQuery, pointListQuery, pointProtocol, pointQuarantine } from "../../../domain/schemas/equipment";
import { owned, visible } from "../../../tenants/scope";
import { settingsOf } from "../../../tenants/resolve";
import { chargePointName } from "../../ocpp/identity";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { pointsWithConnectors } from "./point-page";

/**
 * Equipment › Charging points. The equipment screens read points; the monitoring screens read
 * them through the monitoring list (docs/rules/access.md "Watching is not operating").
 */
export const POINT_READ_MENUS = ["equipment.point", "equipment.station", "equipment.remoteControl"];
const MONITORING_POINT_MENUS = [...POINT_READ_MENUS, "monitoring.chargingPile", "monitoring.connector"];

type PointRow = typeof points.$inferSelect;
type ConnectorRow = typeof connectors.$inferSelect;

export function presentPoint(p: PointRow, stationName: string | null, list: readonly ConnectorRow[] = [], now = Date.now()) {
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
    ...pointProtocol(p),
    ...pointQuarantine(p, now),
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
      // An empty status means offline (docs/rules/monitoring.md "Connector states").
      status: p.online ? c.status : null,
      errorCode: c.errorCode,
      statusAt: c.statusAt?.toISOString() ?? null,
    })),
  };
}

/** The operator's points with their connectors, paged and filtered on the server. */
async function pointPage(ctx: Ctx, raw: unknown) {
  const q = pointListQuery.parse(raw);
  // A maintainer's list is their own points (docs/rules/maintenance.md "Maintainers").
  const where = visible(
    ctx,
    points,
    points.id,
    containingIf(points.serialNumber, q.serialNumber),
    containingIf(points.name, q.name),
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.status ? eq(points.status, q.status) : undefined,
    q.type ? eq(points.type, q.type) : undefined,
    q.online ? eq(points.online, q.online === "true") : undefined,
  );
  const page = await pointsWithConnectors(ctx, q, where);
  return { ...page, records: page.records.map((r) => presentPoint(r.point, r.stationName, r.connectors)) };
}

export const listPoints = verb({ menu: POINT_READ_MENUS }, pointPage);

/** GET /station-service/monitoring/point: the same list for the monitoring screens, read-only. */
export const listMonitoredPoints = verb({ menu: MONITORING_POINT_MENUS }, pointPage);

/** One of the operator's points by id or serial number; another operator's is 404. */
export async function findPoint(ctx: Ctx, by: { id: number } | { serialNumber: string }) {
  const [row] = await ctx.db
    .select({ point: points, stationName: stations.name })
    .from(points)
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(visible(ctx, points, points.id, "id" in by ? eq(points.id, by.id) : eq(points.serialNumber, by.serialNumber)))
    .limit(1);
  if (!row) throw new NotFound("errors.pointNotFound");
  return row;
}

export const pointDetail = verb({ menu: POINT_READ_MENUS }, async (ctx, by: { id: number } | { serialNumber: string }) => {
  const { point, stationName } = await findPoint(ctx, by);
  const list = await ctx.db
    .select()
    .from(connectors)
    .where(owned(ctx, connectors, eq(connectors.pointId, point.id)))
    .orderBy(asc(connectors.connectorNo));
  return presentPoint(point, stationName, list);
});


/** GET /station-service/point/{serialNumber}/ocpp/operationLog: every frame in and out, newest first. */
export const ocppLog = verb({ menu: POINT_READ_MENUS }, async (ctx, serialNumber: string, raw: unknown) => {
  const page = ocppLogQuery.parse(raw);
  const { point } = await findPoint(ctx, { serialNumber });
  return ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber)).operationLog(page);
});

/** What the key dialog shows besides the key: the operator's code in the endpoint, and its heartbeat interval. */
export const chargerSetup = verb({ menu: POINT_READ_MENUS }, async (ctx) => {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  return { operatorCode: ctx.operator.code, heartbeatInterval: settings.heartbeatIntervalS };
});
