import { and, asc, count, desc, eq, exists, inArray, isNotNull, like, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { operators, points, stations, subOperatorDevices } from "../../../db/schema";
import { Forbidden, NotFound } from "../../../domain/errors";
import { pageQuery } from "../../../domain/schemas/account-service";
import { owned } from "../../../tenants/scoped";
import { auditRow } from "../audit";
import { requireMenu, type Ctx } from "../context";

/**
 * Sub-operator management › Devices (SPEC.md §2 /SubOperator/operatorDevice): a parent operator
 * assigns its stations and points to its sub-operators. An assigned station brings all of its
 * points; a point can also be assigned alone. What a sub-operator then sees is read through
 * `deviceScope` (./scope.ts).
 */
export const DEVICE_MENU = "subOperator.device";

/** D1 binds at most 100 parameters per statement: ids are checked and written in slices. */
const SLICE = 90;
/** An assignment row binds up to 4 values; 20 rows stay under D1's parameter limit. */
const INSERT_ROWS = 20;
export const MAX_STATIONS = 500;
export const MAX_POINTS = 2000;

const plain = (text: string) => `%${text.replace(/[%_]/g, "")}%`;

export const subOperatorParam = z.object({
  subOperatorId: z.coerce
    .number({ error: "monitoring.validation.subOperatorId" })
    .int({ error: "monitoring.validation.subOperatorId" })
    .positive({ error: "monitoring.validation.subOperatorId" }),
});

export const subOperatorListQuery = pageQuery.extend({ name: z.string().trim().max(64).optional() });

export const candidateQuery = pageQuery.extend({
  kind: z.enum(["station", "point"], { error: "monitoring.validation.deviceKind" }),
  name: z.string().trim().max(64).optional(),
  /** Only the devices already assigned (true) or not assigned (false). */
  assigned: z.enum(["true", "false"], { error: "monitoring.validation.assigned" }).optional(),
});

const ids = (max: number, key: string) =>
  z
    .array(z.number({ error: "monitoring.validation.deviceIds" }).int().positive({ error: "monitoring.validation.deviceIds" }), { error: "monitoring.validation.deviceIds" })
    .max(max, { error: key })
    .transform((list) => [...new Set(list)]);

export const assignmentInput = z.object({
  stationIds: ids(MAX_STATIONS, "monitoring.validation.tooManyStations").default([]),
  pointIds: ids(MAX_POINTS, "monitoring.validation.tooManyPoints").default([]),
});

const slices = <T>(list: readonly T[], size: number) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/** Only a main operator has sub-operators to assign devices to. */
function requireParent(ctx: Ctx) {
  requireMenu(ctx, DEVICE_MENU);
  if (ctx.operator.sub === 1) throw new Forbidden();
}

/** One of this operator's sub-operators; anyone else's is 404. */
async function findSubOperator(ctx: Ctx, subOperatorId: number) {
  const [sub] = await ctx.db
    .select({ id: operators.id, code: operators.code, name: operators.name, status: operators.status })
    .from(operators)
    .where(and(eq(operators.id, subOperatorId), eq(operators.parentId, ctx.operator.id), eq(operators.sub, 1)))
    .limit(1);
  if (!sub) throw new NotFound("monitoring.errors.subOperatorNotFound");
  return sub;
}

const assignedOf = (ctx: Ctx, subOperatorId: number) =>
  owned(ctx, subOperatorDevices, eq(subOperatorDevices.subOperatorId, subOperatorId));

/** The operator's sub-operators with how many stations and points each has been given. */
export async function listSubOperatorDevices(ctx: Ctx, raw: unknown) {
  requireParent(ctx);
  const q = subOperatorListQuery.parse(raw);
  const where = and(
    eq(operators.parentId, ctx.operator.id),
    eq(operators.sub, 1),
    q.name ? or(like(operators.name, plain(q.name)), like(operators.code, plain(q.name))) : undefined,
  );
  // Correlated subqueries are built with the query builder, which names their columns in full.
  const assignedCount = (column: typeof subOperatorDevices.stationId | typeof subOperatorDevices.pointId) =>
    sql<number>`${ctx.db
      .select({ n: count() })
      .from(subOperatorDevices)
      .where(and(eq(subOperatorDevices.subOperatorId, operators.id), eq(subOperatorDevices.operatorId, ctx.operator.id), isNotNull(column)))}`;
  const stationCount = assignedCount(subOperatorDevices.stationId);
  const pointCount = assignedCount(subOperatorDevices.pointId);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ id: operators.id, code: operators.code, name: operators.name, status: operators.status, stations: stationCount, points: pointCount })
      .from(operators)
      .where(where)
      .orderBy(asc(operators.code))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(operators).where(where),
  ]);
  return {
    records: rows.map((r) => ({ ...r, stations: Number(r.stations), points: Number(r.points) })),
    total,
    current: q.current,
    size: q.size,
  };
}

/** What a sub-operator has been given: its stations and points, with their names. */
export async function assignedDevices(ctx: Ctx, subOperatorId: number) {
  requireParent(ctx);
  const subOperator = await findSubOperator(ctx, subOperatorId);
  const [stationRows, pointRows] = await Promise.all([
    ctx.db
      .select({ id: stations.id, name: stations.name, address: stations.address })
      .from(subOperatorDevices)
      .innerJoin(stations, eq(stations.id, subOperatorDevices.stationId))
      .where(and(assignedOf(ctx, subOperatorId), isNotNull(subOperatorDevices.stationId), eq(stations.operatorId, ctx.operator.id)))
      .orderBy(desc(stations.rank), asc(stations.name)),
    ctx.db
      .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, stationName: stations.name })
      .from(subOperatorDevices)
      .innerJoin(points, eq(points.id, subOperatorDevices.pointId))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(and(assignedOf(ctx, subOperatorId), isNotNull(subOperatorDevices.pointId), eq(points.operatorId, ctx.operator.id)))
      .orderBy(asc(points.serialNumber)),
  ]);
  return {
    subOperator,
    stationIds: stationRows.map((s) => s.id),
    pointIds: pointRows.map((p) => p.id),
    stations: stationRows,
    points: pointRows,
  };
}

/** 1 when the device in `target` is assigned to the sub-operator (a correlated subquery). */
const isAssigned = (ctx: Ctx, subOperatorId: number, column: SQLiteColumn, target: SQLiteColumn) =>
  sql<number>`${exists(
    ctx.db
      .select({ one: sql`1` })
      .from(subOperatorDevices)
      .where(and(eq(subOperatorDevices.subOperatorId, subOperatorId), eq(subOperatorDevices.operatorId, ctx.operator.id), eq(column, target))),
  )}`;

/** The operator's stations or points, paged and searchable, each marked as assigned or not. */
export async function deviceCandidates(ctx: Ctx, subOperatorId: number, raw: unknown) {
  requireParent(ctx);
  await findSubOperator(ctx, subOperatorId);
  const q = candidateQuery.parse(raw);
  const page = { limit: q.size, offset: (q.current - 1) * q.size };
  if (q.kind === "station") {
    const assigned = isAssigned(ctx, subOperatorId, subOperatorDevices.stationId, stations.id);
    const where = owned(
      ctx,
      stations,
      q.name ? or(like(stations.name, plain(q.name)), like(stations.address, plain(q.name))) : undefined,
      q.assigned ? (q.assigned === "true" ? sql`${assigned}` : sql`not ${assigned}`) : undefined,
    );
    const [rows, [{ total }]] = await Promise.all([
      ctx.db
        .select({ id: stations.id, name: stations.name, address: stations.address, status: stations.status, assigned })
        .from(stations)
        .where(where)
        .orderBy(desc(stations.rank), asc(stations.name))
        .limit(page.limit)
        .offset(page.offset),
      ctx.db.select({ total: count() }).from(stations).where(where),
    ]);
    return { records: rows.map((r) => ({ ...r, assigned: Boolean(Number(r.assigned)) })), total, current: q.current, size: q.size };
  }
  const assigned = isAssigned(ctx, subOperatorId, subOperatorDevices.pointId, points.id);
  const where = owned(
    ctx,
    points,
    q.name ? or(like(points.serialNumber, plain(q.name)), like(points.name, plain(q.name))) : undefined,
    q.assigned ? (q.assigned === "true" ? sql`${assigned}` : sql`not ${assigned}`) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, stationId: points.stationId, stationName: stations.name, status: points.status, assigned })
      .from(points)
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(where)
      .orderBy(asc(points.serialNumber))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ total: count() }).from(points).where(where),
  ]);
  return { records: rows.map((r) => ({ ...r, assigned: Boolean(Number(r.assigned)) })), total, current: q.current, size: q.size };
}

/** How many of these ids are the operator's own (another operator's id counts as missing). */
async function ownedCount(ctx: Ctx, table: typeof stations | typeof points, list: number[]) {
  let found = 0;
  for (const slice of slices(list, SLICE)) {
    const [{ n }] = await ctx.db.select({ n: count() }).from(table).where(owned(ctx, table, inArray(table.id, slice)));
    found += n;
  }
  return found;
}

/**
 * Replaces what a sub-operator has been given with these stations and points, in one batch
 * with its operation-log row. Ids of another operator's devices are 404, as if they did not exist.
 */
export async function setSubOperatorDevices(ctx: Ctx, subOperatorId: number, raw: unknown) {
  requireParent(ctx);
  const input = assignmentInput.parse(raw);
  const subOperator = await findSubOperator(ctx, subOperatorId);
  const before = await assignedDevices(ctx, subOperatorId);
  if ((await ownedCount(ctx, stations, input.stationIds)) !== input.stationIds.length) throw new NotFound("errors.stationNotFound");
  if ((await ownedCount(ctx, points, input.pointIds)) !== input.pointIds.length) throw new NotFound("errors.pointNotFound");
  const rows = [
    ...input.stationIds.map((stationId) => ({ operatorId: ctx.operator.id, subOperatorId, stationId, pointId: null })),
    ...input.pointIds.map((pointId) => ({ operatorId: ctx.operator.id, subOperatorId, stationId: null, pointId })),
  ];
  await ctx.db.batch([
    ctx.db.delete(subOperatorDevices).where(assignedOf(ctx, subOperatorId)),
    ...slices(rows, INSERT_ROWS).map((slice) =>
      ctx.db.insert(subOperatorDevices).values(slice),
    ),
    auditRow(ctx, {
      table: "sub_operator_devices",
      module: "subOperatorDevice",
      type: "UPDATE",
      oldData: { subOperator: subOperator.code, stationIds: before.stationIds, pointIds: before.pointIds },
      newData: { subOperator: subOperator.code, stationIds: input.stationIds, pointIds: input.pointIds },
    }),
  ]);
  return assignedDevices(ctx, subOperatorId);
}
