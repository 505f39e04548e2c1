import { and, asc, count, desc, eq, exists, isNotNull, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { containing } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { operators, points, stations, subOperatorDevices } from "../../../db/schema";
import { slices } from "../../../db/statements";
import { Forbidden, NotFound } from "../../../domain/errors";
import { assignmentInput, candidateQuery, subOperatorListQuery } from "../../../domain/schemas/sub-operators";
import { owned, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { ownedCount } from "../owned-count";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * Sub-operator management › Devices (/SubOperator/operatorDevice): a parent operator
 * assigns its stations and points to its sub-operators. An assigned station brings all of its
 * points; a point can also be assigned alone. What a sub-operator then sees is read through
 * `visible` and `visibleStations` (tenants/scope.ts).
 */
export const DEVICE_MENU = "subOperator.device";

/** An assignment row binds up to 4 values; 20 rows stay under D1's parameter limit. */
const INSERT_ROWS = 20;

/** Only a main operator has sub-operators to assign devices to. */
function requireParent(ctx: UserCtx) {
  if (ctx.operator.sub === 1) throw new Forbidden();
}

/** One of this operator's sub-operators; anyone else's is 404. */
async function findSubOperator(ctx: UserCtx, subOperatorId: number) {
  const [sub] = await ctx.db
    .select({ id: operators.id, code: operators.code, name: operators.name, status: operators.status })
    .from(operators)
    .where(and(eq(operators.id, subOperatorId), eq(operators.parentId, ctx.operator.id), eq(operators.sub, 1)))
    .limit(1);
  if (!sub) throw new NotFound("monitoring.errors.subOperatorNotFound");
  return sub;
}

const assignedOf = (ctx: UserCtx, subOperatorId: number) =>
  owned(ctx, subOperatorDevices, eq(subOperatorDevices.subOperatorId, subOperatorId));

/** The operator's sub-operators with how many stations and points each has been given. */
export const listSubOperatorDevices = verb({ menu: DEVICE_MENU }, async (ctx, raw: unknown) => {
  requireParent(ctx);
  const q = subOperatorListQuery.parse(raw);
  const where = and(
    eq(operators.parentId, ctx.operator.id),
    eq(operators.sub, 1),
    q.name ? or(containing(operators.name, q.name), containing(operators.code, q.name)) : undefined,
  );
  // Correlated subqueries are built with the query builder, which names their columns in full.
  const assignedCount = (column: typeof subOperatorDevices.stationId | typeof subOperatorDevices.pointId) =>
    sql<number>`${ctx.db
      .select({ n: count() })
      .from(subOperatorDevices)
      .where(owned(ctx, subOperatorDevices, eq(subOperatorDevices.subOperatorId, operators.id), isNotNull(column)))}`;
  const stationCount = assignedCount(subOperatorDevices.stationId);
  const pointCount = assignedCount(subOperatorDevices.pointId);
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ id: operators.id, code: operators.code, name: operators.name, status: operators.status, stations: stationCount, points: pointCount })
          .from(operators)
          .where(where)
          .orderBy(asc(operators.code))
          .limit(limit)
          .offset(offset)
      ).map((r) => ({ ...r, stations: Number(r.stations), points: Number(r.points) })),
    async () => (await ctx.db.select({ total: count() }).from(operators).where(where))[0].total,
  );
});

/** What a sub-operator has been given: its stations and points, with their names. */
export const assignedDevices = verb({ menu: DEVICE_MENU }, async (ctx, subOperatorId: number) => {
  requireParent(ctx);
  const subOperator = await findSubOperator(ctx, subOperatorId);
  const [stationRows, pointRows] = await Promise.all([
    ctx.db
      .select({ id: stations.id, name: stations.name, address: stations.address })
      .from(subOperatorDevices)
      .innerJoin(stations, eq(stations.id, subOperatorDevices.stationId))
      .where(owned(ctx, subOperatorDevices, eq(subOperatorDevices.subOperatorId, subOperatorId), isNotNull(subOperatorDevices.stationId), eq(stations.operatorId, ctx.operator.id)))
      .orderBy(desc(stations.rank), asc(stations.name)),
    ctx.db
      .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, stationName: stations.name })
      .from(subOperatorDevices)
      .innerJoin(points, eq(points.id, subOperatorDevices.pointId))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(owned(ctx, subOperatorDevices, eq(subOperatorDevices.subOperatorId, subOperatorId), isNotNull(subOperatorDevices.pointId), eq(points.operatorId, ctx.operator.id)))
      .orderBy(asc(points.serialNumber)),
  ]);
  return {
    subOperator,
    stationIds: stationRows.map((s) => s.id),
    pointIds: pointRows.map((p) => p.id),
    stations: stationRows,
    points: pointRows,
  };
});

/** 1 when the device in `target` is assigned to the sub-operator (a correlated subquery). */
const isAssigned = (ctx: UserCtx, subOperatorId: number, column: SQLiteColumn, target: SQLiteColumn) =>
  sql<number>`${exists(
    ctx.db
      .select({ one: sql`1` })
      .from(subOperatorDevices)
      .where(owned(ctx, subOperatorDevices, eq(subOperatorDevices.subOperatorId, subOperatorId), eq(column, target))),
  )}`;

/** The operator's stations or points, paged and searchable, each marked as assigned or not. */
export const deviceCandidates = verb({ menu: DEVICE_MENU }, async (ctx, subOperatorId: number, raw: unknown) => {
  requireParent(ctx);
  await findSubOperator(ctx, subOperatorId);
  const q = candidateQuery.parse(raw);
  if (q.kind === "station") {
    const assigned = isAssigned(ctx, subOperatorId, subOperatorDevices.stationId, stations.id);
    const where = owned(
      ctx,
      stations,
      q.name ? or(containing(stations.name, q.name), containing(stations.address, q.name)) : undefined,
      q.assigned ? (q.assigned === "true" ? sql`${assigned}` : sql`not ${assigned}`) : undefined,
    );
    return pageOf(
      q,
      async ({ limit, offset }) =>
        (
          await ctx.db
            .select({ id: stations.id, name: stations.name, address: stations.address, status: stations.status, assigned })
            .from(stations)
            .where(where)
            .orderBy(desc(stations.rank), asc(stations.name))
            .limit(limit)
            .offset(offset)
        ).map((r) => ({ ...r, assigned: Boolean(Number(r.assigned)) })),
      async () => (await ctx.db.select({ total: count() }).from(stations).where(where))[0].total,
    );
  }
  const assigned = isAssigned(ctx, subOperatorId, subOperatorDevices.pointId, points.id);
  const where = owned(
    ctx,
    points,
    q.name ? or(containing(points.serialNumber, q.name), containing(points.name, q.name)) : undefined,
    q.assigned ? (q.assigned === "true" ? sql`${assigned}` : sql`not ${assigned}`) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, stationId: points.stationId, stationName: stations.name, status: points.status, assigned })
          .from(points)
          .leftJoin(stations, eq(stations.id, points.stationId))
          .where(where)
          .orderBy(asc(points.serialNumber))
          .limit(limit)
          .offset(offset)
      ).map((r) => ({ ...r, assigned: Boolean(Number(r.assigned)) })),
    async () => (await ctx.db.select({ total: count() }).from(points).where(where))[0].total,
  );
});

/** How many of these ids are the operator's own (another operator's id counts as missing). */
/**
 * Replaces what a sub-operator has been given with these stations and points, in one batch
 * with its operation-log row. Ids of another operator's devices are 404, as if they did not exist.
 */
export const setSubOperatorDevices = verb({ menu: DEVICE_MENU, mutates: true }, async (ctx, subOperatorId: number, raw: unknown) => {
  requireParent(ctx);
  const input = assignmentInput.parse(raw);
  const subOperator = await findSubOperator(ctx, subOperatorId);
  const before = await assignedDevices(ctx, subOperatorId);
  if ((await ownedCount(ctx, stations, input.stationIds)) !== input.stationIds.length) throw new NotFound("errors.stationNotFound");
  if ((await ownedCount(ctx, points, input.pointIds)) !== input.pointIds.length) throw new NotFound("errors.pointNotFound");
  const rows = [
    ...input.stationIds.map((stationId) => ({ subOperatorId, stationId, pointId: null })),
    ...input.pointIds.map((pointId) => ({ subOperatorId, stationId: null, pointId })),
  ];
  await ctx.db.batch([
    ctx.db.delete(subOperatorDevices).where(assignedOf(ctx, subOperatorId)),
    ...slices(rows, INSERT_ROWS).map((slice) => ctx.db.insert(subOperatorDevices).values(ownedRows(ctx, slice))),
    auditRow(ctx, {
      table: "sub_operator_devices",
      module: "subOperatorDevice",
      type: "UPDATE",
      oldData: { subOperator: subOperator.code, stationIds: before.stationIds, pointIds: before.pointIds },
      newData: { subOperator: subOperator.code, stationIds: input.stationIds, pointIds: input.pointIds },
    }),
  ]);
  return assignedDevices(ctx, subOperatorId);
});
