import { and, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { points, stations, subOperatorDevices } from "../../../db/schema";
import type { Ctx } from "../context";

/**
 * Which devices a context may see (SPEC.md §2 sub-operator area, ARCHITECTURE.md §10). An
 * operator sees all of its own rows. A sub-operator owns no equipment: it sees the rows of its
 * parent that are assigned to it, that is the points assigned directly and every point of an
 * assigned station. Every monitoring, alarm and device read builds its `where` here, so the
 * parent's other devices stay out of a sub-operator's answers (another point's id gives 404).
 */
export interface DeviceScope {
  /** The operator whose rows are read: the operator itself, or a sub-operator's parent. */
  readonly operatorId: number;
  /** The sub-operator whose assignments narrow the rows; null for an operator. */
  readonly subOperatorId: number | null;
  /** `where` for a table with `operator_id` and a point column (points.id, connectors.point_id…). */
  where(table: { operatorId: SQLiteColumn }, pointColumn: SQLiteColumn, ...conditions: (SQL | undefined)[]): SQL;
  /** `where` for the stations table: assigned stations and the stations of assigned points. */
  stations(...conditions: (SQL | undefined)[]): SQL;
  /** The visible point ids (null: all of the operator's), for the live view's socket scope. */
  pointIds(): Promise<number[] | null>;
}

export function deviceScope(ctx: Ctx): DeviceScope {
  const sub = ctx.operator.sub === 1;
  // A sub-operator without a parent is broken data: it then reads its own (empty) rows.
  const operatorId = sub && ctx.operator.parentId ? ctx.operator.parentId : ctx.operator.id;
  const subOperatorId = sub ? ctx.operator.id : null;

  const assigned = (column: SQLiteColumn) =>
    ctx.db
      .select({ id: column })
      .from(subOperatorDevices)
      .where(and(eq(subOperatorDevices.operatorId, operatorId), eq(subOperatorDevices.subOperatorId, ctx.operator.id), isNotNull(column)));

  // Subqueries rather than id lists: D1 binds at most 100 parameters per statement.
  const visiblePoints = () =>
    ctx.db
      .select({ id: points.id })
      .from(points)
      .where(
        and(
          eq(points.operatorId, operatorId),
          or(inArray(points.stationId, assigned(subOperatorDevices.stationId)), inArray(points.id, assigned(subOperatorDevices.pointId))),
        ),
      );

  return {
    operatorId,
    subOperatorId,
    where(table, pointColumn, ...conditions) {
      return and(eq(table.operatorId, operatorId), sub ? inArray(pointColumn, visiblePoints()) : undefined, ...conditions) as SQL;
    },
    stations(...conditions) {
      const visible = sub
        ? or(
            inArray(stations.id, assigned(subOperatorDevices.stationId)),
            inArray(
              stations.id,
              ctx.db.select({ id: points.stationId }).from(points).where(and(eq(points.operatorId, operatorId), inArray(points.id, assigned(subOperatorDevices.pointId)))),
            ),
          )
        : undefined;
      return and(eq(stations.operatorId, operatorId), visible, ...conditions) as SQL;
    },
    async pointIds() {
      if (!sub) return null;
      const rows = await visiblePoints();
      return rows.map((r) => r.id);
    },
  };
}
