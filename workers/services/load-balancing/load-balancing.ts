import { count, desc, eq, inArray, ne } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { loadBalancingPoints, loadBalancings, points, stations } from "../../../db/schema";
import { batchOf, IN_LIST, slices } from "../../../db/statements";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { chargingProfileOf, limitAt, type BalancingPlan } from "../../../domain/load-balancing";
import {
  compositeScheduleQuery,
  loadBalancingInput,
  loadBalancingListQuery,
  loadBalancingStatusInput,
  type DeliveryStatus,
  type LoadBalancingInput,
  type ChargingProfilePush,
} from "../../../domain/schemas/operations";
import { settingsOf } from "../../../tenants/resolve";
import { deviceOwner, owned, ownedBy, ownedRow, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, SystemCtx, UserCtx } from "../context";
import { callCharger, command, isRefusal } from "../remote/remote-control";
import { deviceChoices } from "../stations/choices";
import { findStation } from "../stations/stations";
import { verb } from "../verb";

/**
 * Equipment › Load balancing (docs/rules/operations.md "Load balancing"): a station's power limit,
 * with time slots, delivered to its points as a charging profile through the push queue, point by
 * point, with each delivery's progress kept for the detail screen. Disabling or deleting a
 * configuration clears its profile from the chargers. Why profiles of this shape:
 * docs/decisions/0028-load-balancing-as-charging-profiles.md.
 */
export const LOAD_BALANCING_MENUS = ["equipment.loadingBalance"];

type Row = typeof loadBalancings.$inferSelect;

/** Rows of the point table per insert statement: seven bound columns each (D1's 100 parameters). */
const POINT_ROWS = 14;

const planOf = (row: Row): BalancingPlan => ({
  id: row.id,
  purpose: row.purpose,
  stackLevel: row.stackLevel,
  repeat: row.repeat,
  powerLimitW: row.powerLimitW,
  slots: row.slots,
  validFrom: row.validFrom?.getTime() ?? null,
  validTo: row.validTo?.getTime() ?? null,
});

const present = (row: Row, stationName: string | null, pointCount: number) => ({
  id: row.id,
  name: row.name,
  stationId: row.stationId,
  stationName,
  powerLimit: row.powerLimitW / 1000,
  purpose: row.purpose,
  stackLevel: row.stackLevel,
  repeat: row.repeat,
  slots: row.slots,
  validFrom: row.validFrom?.toISOString() ?? null,
  validTo: row.validTo?.toISOString() ?? null,
  status: row.status,
  pointCount,
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

async function timeZoneOf(ctx: Ctx, station: { timeZone: string | null }) {
  return station.timeZone ?? (await settingsOf(ctx.db, ctx.operator.id)).timeZone;
}

async function findConfig(ctx: Ctx, id: number) {
  const [row] = await ctx.db
    .select({ config: loadBalancings, station: stations })
    .from(loadBalancings)
    .innerJoin(stations, eq(stations.id, loadBalancings.stationId))
    .where(owned(ctx, loadBalancings, eq(loadBalancings.id, id)))
    .limit(1);
  if (!row) throw new NotFound("operations.errors.loadBalancingNotFound");
  return row;
}

const pointRowsOf = (ctx: Ctx, loadBalancingId: number) =>
  ctx.db
    .select({ row: loadBalancingPoints, serialNumber: points.serialNumber, name: points.name, online: points.online })
    .from(loadBalancingPoints)
    .innerJoin(points, eq(points.id, loadBalancingPoints.pointId))
    .where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, loadBalancingId)))
    .orderBy(points.serialNumber);

/**
 * The input's station and points: another operator's station or point is 404; every point must be
 * of the station, and the limit within the station's load power (OCPP has no such rule; the site's
 * connection does).
 */
async function checkInput(ctx: UserCtx, input: LoadBalancingInput) {
  const station = await findStation(ctx, input.stationId);
  if (station.powerLimitW === null) {
    throw new Invalid("operations.validation.stationWithoutLoad", {}, { powerLimit: "operations.validation.stationWithoutLoad" });
  }
  if (Math.round(input.powerLimit * 1000) > station.powerLimitW) {
    const params = { limit: station.powerLimitW / 1000 };
    throw new Invalid("operations.validation.aboveStationLoad", params, { powerLimit: "operations.validation.aboveStationLoad" });
  }
  const found = await rowsFor(input.pointIds, (slice) =>
    ctx.db.select({ id: points.id, stationId: points.stationId }).from(points).where(owned(ctx, points, inArray(points.id, slice))),
  );
  if (found.length !== input.pointIds.length) throw new NotFound("errors.pointNotFound");
  if (found.some((p) => p.stationId !== station.id)) {
    throw new Invalid("operations.validation.pointsOfStation", {}, { pointIds: "operations.validation.pointsOfStation" });
  }
  return station;
}

/**
 * Two enabled configurations with the same purpose and stack level on one point would replace
 * each other's profile on the charger (OCPP 1.6 §5.16), so the second is refused.
 */
async function checkOverlap(ctx: Ctx, self: number | null, plan: { purpose: string; stackLevel: number }, pointIds: number[]) {
  const clash = await rowsFor(pointIds, (slice) =>
    ctx.db
      .select({ name: loadBalancings.name })
      .from(loadBalancingPoints)
      .innerJoin(loadBalancings, eq(loadBalancings.id, loadBalancingPoints.loadBalancingId))
      .where(
        owned(
          ctx,
          loadBalancingPoints,
          inArray(loadBalancingPoints.pointId, slice),
          eq(loadBalancings.status, "VALID"),
          eq(loadBalancings.purpose, plan.purpose as Row["purpose"]),
          eq(loadBalancings.stackLevel, plan.stackLevel),
          self === null ? undefined : ne(loadBalancings.id, self),
        ),
      )
      .limit(1),
  );
  if (clash.length) throw new Conflict("operations.errors.overlap", { name: clash[0].name });
}

const columnsOf = (input: LoadBalancingInput) => ({
  stationId: input.stationId,
  name: input.name,
  powerLimitW: Math.round(input.powerLimit * 1000),
  purpose: input.purpose,
  stackLevel: input.stackLevel,
  repeat: input.repeat,
  slots: input.slots,
  validFrom: input.validFrom ? new Date(input.validFrom) : null,
  validTo: input.validTo ? new Date(input.validTo) : null,
});

function insertPoints(ctx: Ctx, loadBalancingId: number, pointIds: number[]) {
  return slices(pointIds, POINT_ROWS).map((slice) =>
    ctx.db.insert(loadBalancingPoints).values(ownedRows(ctx, slice.map((pointId) => ({ loadBalancingId, pointId })))),
  );
}

/** One push message per point; `sendBatch` takes at most 100 messages. */
async function enqueue(ctx: Ctx, loadBalancingId: number, pointIds: number[], action: ChargingProfilePush["action"], tracked: boolean) {
  for (const slice of slices(pointIds, 100)) {
    await ctx.env.PUSH.sendBatch(
      slice.map((pointId) => ({
        body: {
          kind: "chargingProfile",
          action,
          operatorId: ctx.operator.id,
          operatorCode: ctx.operator.code,
          loadBalancingId,
          pointId,
          tracked,
        } satisfies ChargingProfilePush,
      })),
    );
  }
}

/** Points whose charger may hold the profile: any delivery that went further than the queue. */
const reached = <R extends { delivery: DeliveryStatus }>(rows: R[]) => rows.filter((r) => r.delivery !== "NotSent" && r.delivery !== "Queued");

export const listLoadBalancing = verb({ menu: LOAD_BALANCING_MENUS }, async (ctx, raw: unknown) => {
  const q = loadBalancingListQuery.parse(raw);
  const where = owned(
    ctx,
    loadBalancings,
    q.stationId ? eq(loadBalancings.stationId, q.stationId) : undefined,
    containingIf(loadBalancings.name, q.name),
    q.status ? eq(loadBalancings.status, q.status) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ config: loadBalancings, stationName: stations.name })
        .from(loadBalancings)
        .leftJoin(stations, eq(stations.id, loadBalancings.stationId))
        .where(where)
        .orderBy(desc(loadBalancings.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(loadBalancings).where(where))[0].total,
  );
  const ids = page.records.map((r) => r.config.id);
  const counts = await rowsFor(ids, (slice) =>
    ctx.db
      .select({ id: loadBalancingPoints.loadBalancingId, n: count() })
      .from(loadBalancingPoints)
      .where(owned(ctx, loadBalancingPoints, inArray(loadBalancingPoints.loadBalancingId, slice)))
      .groupBy(loadBalancingPoints.loadBalancingId),
  );
  const countOf = new Map(counts.map((c) => [c.id, c.n]));
  return { ...page, records: page.records.map((r) => present(r.config, r.stationName, countOf.get(r.config.id) ?? 0)) };
});

/** A configuration with its points' delivery progress, and the limit in force now. */
export const loadBalancingDetail = verb({ menu: LOAD_BALANCING_MENUS }, async (ctx, id: number) => {
  const { config, station } = await findConfig(ctx, id);
  const [rows, timeZone] = await Promise.all([pointRowsOf(ctx, id), timeZoneOf(ctx, station)]);
  const now = ctx.now();
  const limitNowW = config.status === "VALID" ? limitAt(planOf(config), now, timeZone) : null;
  return {
    ...present(config, station.name, rows.length),
    timeZone,
    stationPowerLimit: station.powerLimitW === null ? null : station.powerLimitW / 1000,
    limitNow: limitNowW === null ? null : limitNowW / 1000,
    points: rows.map((r) => ({
      pointId: r.row.pointId,
      serialNumber: r.serialNumber,
      name: r.name,
      online: r.online,
      action: r.row.action,
      delivery: r.row.delivery,
      detail: r.row.detail,
      updatedAt: r.row.updatedAt.toISOString(),
    })),
  };
});

export const createLoadBalancing = verb({ menu: LOAD_BALANCING_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  const input = loadBalancingInput.parse(raw);
  await checkInput(ctx, input);
  await checkOverlap(ctx, null, input, input.pointIds);
  const [created] = await ctx.db
    .insert(loadBalancings)
    .values(ownedRow(ctx, columnsOf(input)))
    .returning({ id: loadBalancings.id });
  try {
    await batchOf(ctx.db, [...insertPoints(ctx, created.id, input.pointIds), auditRow(ctx, { table: "load_balancings", module: "loadBalancing", type: "CREATE", newData: { id: created.id, ...input } })]);
  } catch (error) {
    // D1 has no interactive transactions: a configuration never stays without its points.
    await ctx.db.delete(loadBalancings).where(owned(ctx, loadBalancings, eq(loadBalancings.id, created.id)));
    throw error;
  }
  return loadBalancingDetail(ctx, created.id);
});

/**
 * Editing replaces the configuration and its points; every point is to be delivered again, and a
 * point taken out of it gets ClearChargingProfile if its charger may hold the profile.
 */
export const updateLoadBalancing = verb({ menu: LOAD_BALANCING_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = loadBalancingInput.parse(raw);
  const { config } = await findConfig(ctx, id);
  await checkInput(ctx, input);
  if (config.status === "VALID") await checkOverlap(ctx, id, input, input.pointIds);
  const before = await ctx.db.select().from(loadBalancingPoints).where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id)));
  const kept = new Set(input.pointIds);
  const removed = reached(before.filter((r) => !kept.has(r.pointId))).map((r) => r.pointId);
  await batchOf(ctx.db, [
    ctx.db.delete(loadBalancingPoints).where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id))),
    ...insertPoints(ctx, id, input.pointIds),
    ctx.db.update(loadBalancings).set({ ...columnsOf(input), updatedAt: new Date(ctx.now()) }).where(owned(ctx, loadBalancings, eq(loadBalancings.id, id))),
    auditRow(ctx, { table: "load_balancings", module: "loadBalancing", type: "UPDATE", oldData: config, newData: input }),
  ]);
  if (removed.length) await enqueue(ctx, id, removed, "clear", false);
  return loadBalancingDetail(ctx, id);
});

/** Enabling checks the overlap again; disabling clears the profile from every point, progress shown. */
export const setLoadBalancingStatus = verb({ menu: LOAD_BALANCING_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { status } = loadBalancingStatusInput.parse(raw);
  const { config } = await findConfig(ctx, id);
  const rows = await ctx.db.select().from(loadBalancingPoints).where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id)));
  if (status === config.status) return loadBalancingDetail(ctx, id);
  if (status === "VALID") await checkOverlap(ctx, id, config, rows.map((r) => r.pointId));
  const toClear = status === "INVALID" ? reached(rows).map((r) => r.pointId) : [];
  await batchOf(ctx.db, [
    ctx.db.update(loadBalancings).set({ status, updatedAt: new Date(ctx.now()) }).where(owned(ctx, loadBalancings, eq(loadBalancings.id, id))),
    ...rowsUpdate(ctx, id, toClear, { action: "clear", delivery: "Queued", detail: null }),
    auditRow(ctx, { table: "load_balancings", module: "loadBalancing", type: "UPDATE", oldData: { status: config.status }, newData: { id, status } }),
  ]);
  if (toClear.length) await enqueue(ctx, id, toClear, "clear", true);
  return loadBalancingDetail(ctx, id);
});

function rowsUpdate(ctx: Ctx, id: number, pointIds: number[], set: Partial<typeof loadBalancingPoints.$inferInsert>) {
  return slices(pointIds, IN_LIST).map((slice) =>
    ctx.db
      .update(loadBalancingPoints)
      .set({ ...set, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id), inArray(loadBalancingPoints.pointId, slice))),
  );
}

/** Deleting removes the configuration and clears its profile from the chargers that may hold it. */
export const deleteLoadBalancing = verb({ menu: LOAD_BALANCING_MENUS, mutates: true }, async (ctx, id: number) => {
  const { config } = await findConfig(ctx, id);
  const rows = await ctx.db.select().from(loadBalancingPoints).where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id)));
  await ctx.db.batch([
    ctx.db.delete(loadBalancingPoints).where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id))),
    ctx.db.delete(loadBalancings).where(owned(ctx, loadBalancings, eq(loadBalancings.id, id))),
    auditRow(ctx, { table: "load_balancings", module: "loadBalancing", type: "DELETE", oldData: config }),
  ]);
  const toClear = reached(rows).map((r) => r.pointId);
  if (toClear.length) await enqueue(ctx, id, toClear, "clear", false);
  return { id, cleared: toClear.length };
});

/** Queues SetChargingProfile for every point of an enabled configuration; the detail follows each. */
export const deliverLoadBalancing = verb({ menu: LOAD_BALANCING_MENUS, mutates: true }, async (ctx, id: number) => {
  const { config } = await findConfig(ctx, id);
  if (config.status !== "VALID") throw new Conflict("operations.errors.deliverDisabled");
  const rows = await ctx.db.select().from(loadBalancingPoints).where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id)));
  const ids = rows.map((r) => r.pointId);
  const now = new Date(ctx.now());
  await batchOf(ctx.db, [
    ctx.db.update(loadBalancings).set({ deliveredAt: now }).where(owned(ctx, loadBalancings, eq(loadBalancings.id, id))),
    ctx.db
      .update(loadBalancingPoints)
      .set({ action: "set", delivery: "Queued", detail: null, updatedAt: now })
      .where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id))),
    auditRow(ctx, { table: "load_balancings", module: "loadBalancing", type: "UPDATE", newData: { id, deliver: ids.length } }),
  ]);
  await enqueue(ctx, id, ids, "set", true);
  return loadBalancingDetail(ctx, id);
});

/** GetCompositeSchedule of one of the configuration's points (OCPP 1.6 §5.7): what the charger will do. */
export const compositeSchedule = verb({ menu: LOAD_BALANCING_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const q = compositeScheduleQuery.parse(raw);
  await findConfig(ctx, id);
  const [member] = await ctx.db
    .select({ id: loadBalancingPoints.id })
    .from(loadBalancingPoints)
    .where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, id), eq(loadBalancingPoints.pointId, q.pointId)))
    .limit(1);
  if (!member) throw new NotFound("errors.pointNotFound");
  return command(ctx, { id: q.pointId }, "GetCompositeSchedule", { connectorId: 0, duration: q.duration, chargingRateUnit: "W" });
});

/** Locations (with their load power) and, for one of them, its points: what the form chooses from. */
export const loadBalancingChoices = verb({ menu: LOAD_BALANCING_MENUS }, deviceChoices);

// ── the push queue's side: the system delivering to one point ───────────────────────────────

/** What one delivery came to, for the live view. */
export interface DeliveryOutcome {
  pointId: number;
  serialNumber: string;
  delivery: DeliveryStatus;
}

function outcomeOf(outcome: Awaited<ReturnType<typeof callCharger>>, clear: boolean): { delivery: DeliveryStatus; detail: string | null } {
  if (!outcome.ok) {
    if (outcome.reason === "offline") return { delivery: "Offline", detail: null };
    if (outcome.reason === "error") return { delivery: "Rejected", detail: `${outcome.code}: ${outcome.description}`.slice(0, 500) };
    return { delivery: "Failed", detail: outcome.reason };
  }
  const status = (outcome.response as { status?: string }).status ?? null;
  // Nothing to clear is what clearing wanted (OCPP 1.6 §6.9 Unknown).
  if (clear && status === "Unknown") return { delivery: "Accepted", detail: status };
  return { delivery: isRefusal(outcome.response) ? "Rejected" : "Accepted", detail: status };
}

async function markDelivery(ctx: SystemCtx, message: ChargingProfilePush, set: { delivery: DeliveryStatus; detail?: string | null }) {
  if (!message.tracked) return;
  await ctx.db
    .update(loadBalancingPoints)
    .set({ ...set, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, message.loadBalancingId), eq(loadBalancingPoints.pointId, message.pointId)));
}

/**
 * One point's SetChargingProfile or ClearChargingProfile, as the push queue's consumer asks: the
 * row goes Sent, then to the charger's answer (Accepted, Rejected), Offline, or Failed without an
 * answer in time. A configuration deleted or disabled since its set was queued sends nothing.
 */
export const deliverToPoint = verb({ actors: ["system"] }, async (ctx, message: ChargingProfilePush): Promise<DeliveryOutcome | null> => {
  const [point] = await ctx.db.select().from(points).where(owned(ctx, points, eq(points.id, message.pointId))).limit(1);
  if (!point) return null;
  let call: { action: "SetChargingProfile"; payload: ReturnType<typeof chargingProfileOf> } | { action: "ClearChargingProfile"; payload: { id: number } };
  if (message.action === "set") {
    const [found] = await ctx.db
      .select({ config: loadBalancings, station: stations })
      .from(loadBalancings)
      .innerJoin(stations, eq(stations.id, loadBalancings.stationId))
      .where(owned(ctx, loadBalancings, eq(loadBalancings.id, message.loadBalancingId), eq(loadBalancings.status, "VALID")))
      .limit(1);
    if (!found) return null;
    const [{ n }] = await ctx.db
      .select({ n: count() })
      .from(loadBalancingPoints)
      .where(owned(ctx, loadBalancingPoints, eq(loadBalancingPoints.loadBalancingId, message.loadBalancingId)));
    call = { action: "SetChargingProfile", payload: chargingProfileOf(planOf(found.config), n, await timeZoneOf(ctx, found.station), ctx.now()) };
  } else {
    // The profile's id is the configuration's (docs/decisions/0028-load-balancing-as-charging-profiles.md).
    call = { action: "ClearChargingProfile", payload: { id: message.loadBalancingId } };
  }
  await markDelivery(ctx, message, { delivery: "Sent" });
  const outcome = await callCharger(ctx, point, call.action, call.payload as never);
  const result = outcomeOf(outcome, call.action === "ClearChargingProfile");
  await markDelivery(ctx, message, result);
  return { pointId: point.id, serialNumber: point.serialNumber, delivery: result.delivery };
});

/**
 * The limits in force now of a station's enabled configurations (kW, before sharing), for the load
 * monitor; a station with none answers an empty list.
 */
export async function balancingLimits(ctx: Ctx, station: { id: number; timeZone: string | null }) {
  const rows = await ctx.db
    .select()
    .from(loadBalancings)
    // A sub-operator watches its parent's stations: the station was found within its scope already.
    .where(ownedBy(deviceOwner(ctx), loadBalancings, eq(loadBalancings.stationId, station.id), eq(loadBalancings.status, "VALID")))
    .orderBy(desc(loadBalancings.stackLevel), desc(loadBalancings.id))
    .limit(20);
  if (!rows.length) return [];
  const timeZone = station.timeZone ?? (await settingsOf(ctx.db, deviceOwner(ctx))).timeZone;
  const now = ctx.now();
  return rows
    .map((r) => ({ id: r.id, name: r.name, purpose: r.purpose, stackLevel: r.stackLevel, limitW: limitAt(planOf(r), now, timeZone) }))
    .filter((r) => r.limitW !== null)
    .map(({ limitW, ...r }) => ({ ...r, limitNow: limitW! / 1000 }));
}
