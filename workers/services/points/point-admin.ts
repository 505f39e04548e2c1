import { and, asc, count, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import {
  alarms,
  connectors,
  diagnostics,
  ocppReviews,
  pointEvents,
  points,
  stations,
  statusIntervals,
  subOperatorDevices,
  transactions,
} from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import {
  defaultConnector,
  pointBatchEnableInput,
  pointInput,
  keyInput,
  pointStatusInput,
  quotaKind,
  standardFits,
  type ConnectorInput,
  type PointInput,
} from "../../../domain/schemas/equipment";
import { owned, ownedRows } from "../../../tenants/scope";
import { serialNumbersTaken } from "../platform/serial-numbers";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { chosenKeyBytes } from "../../../domain/ocpp/authorization-key";
import { generateChargerKeyBytes, hashChargerKey } from "../../auth/charger-key";
import { chargerObject, registrationChanged } from "./charger-object";
import { auditRow } from "../audit";
import { creatingMaintainer, ownDeviceRows } from "../maintenance/maintainers";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { command } from "../remote/remote-control";
import { findStation } from "../stations/stations";
import { findPoint, pointDetail } from "./points";
import { locationsChanged } from "../ocpi/cpo-push";
import { batchOf, CONNECTOR_ROWS, IN_LIST, slices } from "../../../db/statements";
import { addingOf, assertQuota, quotaExceeded, quotaOf, withinQuota, type QuotaKind } from "./quota";

/** Changing points is the point screen's own permission. */
const POINT_WRITE_MENU = "equipment.point";

type PointRow = typeof points.$inferSelect;
type ConnectorRow = typeof connectors.$inferSelect;

/** The quota refusal with today's figures, when the conditional statement claimed nothing. */
async function refusal(ctx: UserCtx, kind: QuotaKind, adding: number) {
  const quota = (await quotaOf(ctx))[kind];
  return quotaExceeded(kind, adding, quota.used, quota.authorized);
}

const taken = () => new Invalid("validation.serialTaken", {}, { serialNumber: "validation.serialTaken" });

/** Whether a serial number (the chargeBoxId, unique across the platform) is used by another point. */
async function serialTaken(ctx: UserCtx, serial: string, exceptId?: number) {
  return (await serialNumbersTaken(ctx, [serial], exceptId)).size > 0;
}

/** Connectors 1..count: those given, else one per connector with the type's default and an even share of the power. */
export function connectorList(input: Pick<PointInput, "type" | "ratedPower" | "connectorCount" | "connectors">): ConnectorInput[] {
  if (input.connectors) return [...input.connectors].sort((a, b) => a.connectorId - b.connectorId);
  const share = Math.floor((input.ratedPower * 100) / input.connectorCount) / 100;
  return Array.from({ length: input.connectorCount }, (_, i) => ({
    connectorId: i + 1,
    ...defaultConnector(input.type),
    power: share,
    name: undefined,
  }));
}

const connectorRows = (pointId: number, list: ConnectorInput[]) =>
  list.map((c) => ({
    pointId,
    connectorNo: c.connectorId,
    name: c.name ?? null,
    standard: c.standard,
    powerW: Math.round(c.power * 1000),
    chargeSpeed: c.chargeSpeed,
  }));

/**
 * Inserts a point only while the operator's authorised connector count allows it (one
 * statement: the check and the claim cannot be split by a concurrent request). Answers the new
 * id, or nothing when the quota or the serial number's uniqueness refused it.
 */
export function guardedPointInsert(ctx: UserCtx, input: Omit<PointInput, "connectors">): SQL {
  const now = ctx.now();
  return sql`
    INSERT INTO points (operator_id, station_id, serial_number, point_no, name, code, type, rated_power_w, connector_count, private_type, station_type, ocpp_version, status, created_at, updated_at)
    SELECT ${ctx.operator.id}, ${input.stationId}, ${input.serialNumber}, ${input.pointNo}, ${input.name}, ${input.code ?? null}, ${input.type},
      ${Math.round(input.ratedPower * 1000)}, ${input.connectorCount}, ${input.privateType}, ${input.stationType ?? null}, ${input.ocppVersion ?? "AUTO"}, 'INVALID', ${now}, ${now}
    WHERE ${withinQuota(ctx, quotaKind(input.type), input.connectorCount)}
    ON CONFLICT DO NOTHING
    RETURNING id`;
}

/**
 * Creating a point creates its connectors (docs/rules/equipment.md "Connectors"): from the list
 * given, or one per connector with the point's type and an even share of its power. The serial
 * number is unique across the platform; the connectors must fit the operator's authorised counts
 * (docs/rules/equipment.md "Authorised connectors"). A new point is disabled until enabled.
 */
export const createPoint = verb({ menu: POINT_WRITE_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = pointInput.parse(raw);
  // Maintenance staff whose role holds this screen answer for the points they add (docs/rules/maintenance.md "Maintainers").
  const maintainerId = await creatingMaintainer(ctx);
  await findStation(ctx, input.stationId);
  if (await serialTaken(ctx, input.serialNumber)) throw taken();
  const kind = quotaKind(input.type);
  await assertQuota(ctx, addingOf(input.type, input.connectorCount));
  const [created] = await ctx.db.all<{ id: number }>(guardedPointInsert(ctx, input));
  if (!created) {
    // Another request took the serial number or the last connectors meanwhile.
    if (await serialTaken(ctx, input.serialNumber)) throw taken();
    throw await refusal(ctx, kind, input.connectorCount);
  }
  try {
    await batchOf(ctx.db, [
      ...slices(connectorRows(created.id, connectorList(input)), CONNECTOR_ROWS).map((rows) => ctx.db.insert(connectors).values(ownedRows(ctx, rows))),
      ...(await ownDeviceRows(ctx, maintainerId, [{ point: { id: created.id, stationId: input.stationId } }])),
      auditRow(ctx, { table: "points", module: "point", type: "CREATE", newData: { id: created.id, ...input } }),
    ]);
  } catch (error) {
    // The point row claimed the quota first; without its connectors it must not stay.
    await ctx.db.delete(points).where(owned(ctx, points, eq(points.id, created.id)));
    throw error;
  }
  await locationsChanged(ctx, [input.stationId]);
  return pointDetail(ctx, { id: created.id });
});

const definingFields = (p: Pick<PointRow, "type" | "ratedPowerW" | "connectorCount" | "serialNumber" | "stationId">) =>
  JSON.stringify([p.type, p.ratedPowerW, p.connectorCount, p.serialNumber, p.stationId]);
const definingConnectors = (list: { connectorNo: number; standard: string; powerW: number; chargeSpeed: string }[]) =>
  JSON.stringify(
    [...list].sort((a, b) => a.connectorNo - b.connectorNo).map((c) => [c.connectorNo, c.standard, c.powerW, c.chargeSpeed]),
  );

/**
 * The connectors of an edit that lists none: the current ones that still fit, cut or
 * extended to the new count with the type's defaults.
 */
function keptConnectors(input: PointInput, current: ConnectorRow[]): ConnectorInput[] {
  const defaults = connectorList({ ...input, connectors: undefined });
  return defaults.map((fallback) => {
    const existing = current.find((c) => c.connectorNo === fallback.connectorId);
    if (!existing) return fallback;
    const name = existing.name ?? undefined;
    const fits = standardFits(input.type, existing.standard) && existing.powerW <= Math.round(input.ratedPower * 1000);
    if (!fits) return { ...fallback, name };
    return { connectorId: existing.connectorNo, standard: existing.standard, power: existing.powerW / 1000, chargeSpeed: existing.chargeSpeed, name };
  });
}

/**
 * Edit a point (PUT /station-service/point/{id}). An enabled point keeps what defines the
 * equipment — type, rated power, connectors (standard, power, speed), serial number and location
 * (docs/rules/equipment.md "Enabled equipment is locked"); its name, number, code, visibility,
 * station type and connector names stay editable. More connectors, or another kind, must fit the
 * authorised counts (docs/rules/equipment.md "Authorised connectors").
 */
export const updatePoint = verb({ menu: POINT_WRITE_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { point } = await findPoint(ctx, { id });
  const current = await ctx.db.select().from(connectors).where(owned(ctx, connectors, eq(connectors.pointId, id))).orderBy(asc(connectors.connectorNo));
  const first = pointInput.parse(raw);
  const input = first.connectors ? first : pointInput.parse({ ...first, connectors: keptConnectors(first, current) });
  const list = connectorList(input);
  const next = { type: input.type, ratedPowerW: Math.round(input.ratedPower * 1000), connectorCount: input.connectorCount, serialNumber: input.serialNumber, stationId: input.stationId };
  const nextRows = connectorRows(id, list);

  if (point.status === "VALID" && (definingFields(point) !== definingFields(next) || definingConnectors(current) !== definingConnectors(nextRows))) {
    throw new Conflict("points.errors.enabledLocked");
  }
  if (input.stationId !== point.stationId) await findStation(ctx, input.stationId);
  if (input.serialNumber !== point.serialNumber && (await serialTaken(ctx, input.serialNumber, id))) throw taken();

  const kind = quotaKind(input.type);
  const adding = kind !== quotaKind(point.type) ? input.connectorCount : input.connectorCount - point.connectorCount;
  let claimed = false;
  if (adding > 0) {
    await assertQuota(ctx, addingOf(input.type, adding));
    // Claims the new connectors in one conditional statement (the race check of quota.ts).
    const [row] = await ctx.db.all<{ id: number }>(sql`
      UPDATE points SET type = ${input.type}, connector_count = ${input.connectorCount}, updated_at = ${ctx.now()}
      WHERE id = ${id} AND operator_id = ${ctx.operator.id} AND ${withinQuota(ctx, kind, input.connectorCount, id)}
      RETURNING id`);
    if (!row) throw await refusal(ctx, kind, adding);
    claimed = true;
  }
  const now = new Date(ctx.now());
  try {
    await batchOf(ctx.db, [
      ctx.db
        .update(points)
        .set({
          stationId: input.stationId,
          name: input.name,
          serialNumber: input.serialNumber,
          pointNo: input.pointNo,
          code: input.code ?? null,
          type: input.type,
          ratedPowerW: next.ratedPowerW,
          connectorCount: input.connectorCount,
          privateType: input.privateType,
          stationType: input.stationType ?? null,
          ocppVersion: input.ocppVersion ?? point.ocppVersion,
          updatedAt: now,
        })
        .where(owned(ctx, points, eq(points.id, id))),
      ctx.db.delete(connectors).where(owned(ctx, connectors, eq(connectors.pointId, id), gt(connectors.connectorNo, input.connectorCount))),
      ...slices(nextRows, CONNECTOR_ROWS).map((rows) =>
        ctx.db
          .insert(connectors)
          .values(ownedRows(ctx, rows))
          .onConflictDoUpdate({
            target: [connectors.pointId, connectors.connectorNo],
            set: {
              name: sql`excluded.name`,
              standard: sql`excluded.standard`,
              powerW: sql`excluded.power_w`,
              chargeSpeed: sql`excluded.charge_speed`,
            },
          }),
      ),
      auditRow(ctx, { table: "points", module: "point", type: "UPDATE", oldData: { ...point, keyHash: undefined, connectors: current }, newData: { id, ...input } }),
    ]);
  } catch (error) {
    if (claimed) {
      await ctx.db
        .update(points)
        .set({ type: point.type, connectorCount: point.connectorCount })
        .where(owned(ctx, points, eq(points.id, id)));
    }
    if (error instanceof Error && /UNIQUE constraint failed: points\.serial_number/.test(error.message)) throw taken();
    throw error;
  }
  // The charger's object keeps the registration it judged the connection by, the version allowed
  // included: it reads it again at the next connect (docs/rules/ocpp.md "Two protocols").
  if (input.ocppVersion !== undefined && input.ocppVersion !== point.ocppVersion) await registrationChanged(ctx.env, point);
  // Its stations' locations, as roaming partners have them (docs/rules/ocpi.md "Pushes of what we publish").
  await locationsChanged(ctx, [point.stationId, input.stationId]);
  return pointDetail(ctx, { id });
});

/**
 * Delete a point (DELETE /station-service/point/{id}). Refused while it is enabled (disable it
 * first, so the charger is told) and once it has charging transactions: those are the
 * operator's financial records, so such a point is disabled, never deleted. Its connectors and
 * its technical history (alarms, status history, firmware and diagnostics events, reviews, diagnostics requests,
 * sub-operator assignments) go with it, in one batch.
 */
export const deletePoint = verb({ menu: POINT_WRITE_MENU, mutates: true }, async (ctx, id: number) => {
  const { point } = await findPoint(ctx, { id });
  if (point.status === "VALID") throw new Conflict("points.errors.deleteEnabled");
  const [{ records }] = await ctx.db.select({ records: count() }).from(transactions).where(owned(ctx, transactions, eq(transactions.pointId, id)));
  if (records > 0) throw new Conflict("points.errors.deleteHasRecords", { count: records });
  try {
    await ctx.db.batch([
      ctx.db.delete(connectors).where(owned(ctx, connectors, eq(connectors.pointId, id))),
      ctx.db.delete(alarms).where(owned(ctx, alarms, eq(alarms.pointId, id))),
      ctx.db.delete(statusIntervals).where(owned(ctx, statusIntervals, eq(statusIntervals.pointId, id))),
      ctx.db.delete(pointEvents).where(owned(ctx, pointEvents, eq(pointEvents.pointId, id))),
      ctx.db.delete(ocppReviews).where(owned(ctx, ocppReviews, eq(ocppReviews.pointId, id))),
      ctx.db.delete(diagnostics).where(owned(ctx, diagnostics, eq(diagnostics.pointId, id))),
      ctx.db.delete(subOperatorDevices).where(owned(ctx, subOperatorDevices, eq(subOperatorDevices.pointId, id))),
      ctx.db.delete(points).where(owned(ctx, points, eq(points.id, id))),
      auditRow(ctx, { table: "points", module: "point", type: "DELETE", oldData: { ...point, keyHash: undefined } }),
    ]);
    await registrationChanged(ctx.env, point);
  } catch (error) {
    // A record of a later feature still pointing at the point keeps it (the database says so).
    if (error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message)) throw new Conflict("points.errors.inUse");
    throw error;
  }
  await locationsChanged(ctx, [point.stationId]);
  return { id, deleted: true };
});

/** Tells a connected charger its new availability; an offline one learns it at its next boot. */
async function announceAvailability(ctx: UserCtx, point: Pick<PointRow, "operatorId" | "serialNumber">, status: "VALID" | "INVALID") {
  await registrationChanged(ctx.env, point);
  const stub = chargerObject(ctx.env, point);
  const outcome = await stub.send("ChangeAvailability", { connectorId: 0, type: status === "VALID" ? "Operative" : "Inoperative" });
  return outcome.ok ? (outcome.response as { status: string }).status : outcome.reason;
}

/**
 * Enable or disable a point (docs/rules/equipment.md "Points"): a point cannot be enabled before
 * its station is. A connected charger is told at once with ChangeAvailability (Inoperative or
 * Operative); a session already running finishes, and remote starts are refused while disabled
 * (docs/rules/ocpp.md "Boot and acceptance").
 */
export const setPointStatus = verb({ menu: POINT_WRITE_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { status } = pointStatusInput.parse(raw);
  const { point } = await findPoint(ctx, { id });
  if (status === "VALID") {
    const station = await findStation(ctx, point.stationId);
    if (station.status !== "VALID") throw new Conflict("errors.stationDisabled");
  }
  await ctx.db.batch([
    ctx.db.update(points).set({ status, updatedAt: new Date(ctx.now()) }).where(owned(ctx, points, eq(points.id, id))),
    auditRow(ctx, { table: "points", module: "point", type: "UPDATE", oldData: { id, status: point.status }, newData: { id, status } }),
  ]);
  await locationsChanged(ctx, [point.stationId]);
  return { id, status, availability: await announceAvailability(ctx, point, status) };
});

/**
 * Enable several points at once (PUT /station-service/point/valid/points). The station rule
 * holds per point; the batch is all or nothing, so when any point's location is disabled the
 * answer names those points and nothing changes. Each connected charger is then told.
 */
export const enablePoints = verb({ menu: POINT_WRITE_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const { ids } = pointBatchEnableInput.parse(raw);
  const rows = (
    await Promise.all(
      slices(ids, IN_LIST).map((slice) =>
        ctx.db
          .select({ point: points, stationStatus: stations.status })
          .from(points)
          .leftJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
          .where(owned(ctx, points, inArray(points.id, slice))),
      ),
    )
  ).flat();
  if (rows.length !== ids.length) throw new NotFound("errors.pointNotFound");
  const blocked = rows.filter((r) => r.stationStatus !== "VALID").map((r) => r.point);
  if (blocked.length) {
    throw new Conflict(
      "points.errors.batchStationDisabled",
      { points: blocked.map((p) => p.serialNumber).join(", ") },
      { blocked: blocked.map((p) => ({ id: p.id, serialNumber: p.serialNumber })) },
    );
  }
  const changing = rows.filter((r) => r.point.status !== "VALID").map((r) => r.point);
  if (changing.length) {
    await batchOf(ctx.db, [
      ...slices(changing.map((p) => p.id), IN_LIST).map((slice) =>
        ctx.db.update(points).set({ status: "VALID", updatedAt: new Date(ctx.now()) }).where(owned(ctx, points, inArray(points.id, slice))),
      ),
      auditRow(ctx, { table: "points", module: "point", type: "UPDATE", newData: { ids: changing.map((p) => p.id), status: "VALID" } }),
    ]);
  }
  const results = await Promise.all(
    rows.map(async ({ point }) => ({
      id: point.id,
      serialNumber: point.serialNumber,
      status: "VALID" as const,
      changed: point.status !== "VALID",
      availability: point.status !== "VALID" ? await announceAvailability(ctx, point, "VALID") : null,
    })),
  );
  await locationsChanged(ctx, [...new Set(changing.map((p) => p.stationId))]);
  return { enabled: changing.length, results };
});

/**
 * A new charger key, shown once as its hex digits (what AuthorizationKey is set to): 20 random
 * bytes, or the key the operator chose (16 to 40 bytes, given as hex or text); only its keyed hash
 * is kept and the old key stops working at once. With `push`, a connected charger first receives
 * the key through ChangeConfiguration AuthorizationKey; if it refuses or is offline, nothing
 * changes (docs/rules/equipment.md "Charger keys").
 */
export const rotateChargerKey = verb({ menu: POINT_WRITE_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = keyInput.parse(raw);
  const { push } = input;
  const { point } = await findPoint(ctx, { id });
  const chosen = input.key !== undefined && input.keyFormat ? chosenKeyBytes(input.key, input.keyFormat) : null;
  const bytes = chosen ?? generateChargerKeyBytes();
  const key = encodeHexLowerCase(bytes);
  if (push) await command(ctx, { id }, "ChangeConfiguration", { key: "AuthorizationKey", value: key });
  const now = new Date(ctx.now());
  const keyHash = hashChargerKey(bytes, ctx.env.CHARGER_KEY_PEPPER);
  // The charger's object keeps the key's hash: it forgets the old one before D1 changes, and
  // learns the new one after, so the old key is refused at once (docs/rules/equipment.md "Charger keys").
  const charger = chargerObject(ctx.env, point);
  await charger.forgetRegistration();
  await ctx.db.batch([
    ctx.db
      .update(points)
      .set({ keyHash, keySetAt: now, updatedAt: now })
      .where(owned(ctx, points, eq(points.id, point.id))),
    auditRow(ctx, { table: "points", module: "point", type: "UPDATE", newData: { id: point.id, key: chosen ? "chosen" : "rotated", pushed: push } }),
  ]);
  await charger.keyChanged(keyHash);
  return { pointId: point.id, serialNumber: point.serialNumber, key, pushed: push };
});
