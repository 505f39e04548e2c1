import { count, desc, eq, gte, inArray, lte } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { alarms, points, stations, workOrders } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { alarmListQuery, disposeInput } from "../../../domain/schemas/monitoring";
import { auditRow } from "../audit";
import { verb } from "../verb";
import { owned, visible } from "../../../tenants/scope";
import type { UserCtx } from "../context";

/**
 * Alarms (Undisposed → AutoRecovery or ManualDisposed; docs/rules/monitoring.md "Alarms"). Chargers
 * raise them through StatusNotification error codes and close them (AutoRecovery) when the error
 * clears; a person closes the others with a comment. Operators see theirs, sub-operators those of
 * their assigned devices.
 */
export const ALARM_MENUS = ["monitoring.alarmRecord", "operation.historicalAlarmInfo", "sub.monitoring.alarm"];

type AlarmRow = typeof alarms.$inferSelect;

const present = (a: AlarmRow, point: { serialNumber: string; name: string; stationId: number }, stationName: string | null) => ({
  id: a.id,
  pointId: a.pointId,
  serialNumber: point.serialNumber,
  pointName: point.name,
  stationId: point.stationId,
  stationName,
  connectorId: a.connectorNo,
  level: a.level,
  type: a.type,
  message: a.message,
  status: a.status,
  comment: a.comment,
  occurredAt: a.occurredAt.toISOString(),
  recoveredAt: a.recoveredAt?.toISOString() ?? null,
});

/**
 * The work order each alarm opened, by alarm id (at most one per alarm, docs/rules/maintenance.md
 * "Work orders"). Work orders are the operator's own: a sub-operator's alarms show none.
 */
async function workOrdersOf(ctx: UserCtx, alarmIds: number[]) {
  const rows = await rowsFor(alarmIds, (slice) =>
    ctx.db.select({ alarmId: workOrders.alarmId, id: workOrders.id }).from(workOrders).where(owned(ctx, workOrders, inArray(workOrders.alarmId, slice))),
  );
  return new Map(rows.map((r) => [r.alarmId, r.id]));
}

const selection = { alarm: alarms, point: { serialNumber: points.serialNumber, name: points.name, stationId: points.stationId }, stationName: stations.name };

/** Alarms newest first, filtered by status, level, point, type and time range, each with the work order it opened (`workOrderId`). */
export const listAlarms = verb({ menu: ALARM_MENUS }, async (ctx, raw: unknown) => {
  const q = alarmListQuery.parse(raw);
  const where = visible(
    ctx,
    alarms,
    alarms.pointId,
    q.status ? eq(alarms.status, q.status) : undefined,
    q.level ? eq(alarms.level, q.level) : undefined,
    q.pointId ? eq(alarms.pointId, q.pointId) : undefined,
    containingIf(points.serialNumber, q.serialNumber),
    q.type ? eq(alarms.type, q.type) : undefined,
    q.from ? gte(alarms.occurredAt, new Date(q.from)) : undefined,
    q.to ? lte(alarms.occurredAt, new Date(q.to)) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select(selection)
        .from(alarms)
        .innerJoin(points, eq(points.id, alarms.pointId))
        .leftJoin(stations, eq(stations.id, points.stationId))
        .where(where)
        .orderBy(desc(alarms.occurredAt), desc(alarms.id))
        .limit(limit)
        .offset(offset);
      const orders = await workOrdersOf(
        ctx,
        rows.map((r) => r.alarm.id),
      );
      return rows.map((r) => ({ ...present(r.alarm, r.point, r.stationName), workOrderId: orders.get(r.alarm.id) ?? null }));
    },
    async () => (await ctx.db.select({ total: count() }).from(alarms).innerJoin(points, eq(points.id, alarms.pointId)).where(where))[0].total,
  );
});

/**
 * A person closes an undisposed alarm with a comment (ManualDisposed;
 * docs/rules/monitoring.md "Alarms"); the recover time is when it was disposed. The update is
 * conditional, so two people disposing at once cannot both succeed.
 */
export const disposeAlarm = verb({ menu: ALARM_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = disposeInput.parse(raw);
  const [row] = await ctx.db
    .select(selection)
    .from(alarms)
    .innerJoin(points, eq(points.id, alarms.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(visible(ctx, alarms, alarms.pointId, eq(alarms.id, id)))
    .limit(1);
  if (!row) throw new NotFound("monitoring.errors.alarmNotFound");
  if (row.alarm.status !== "Undisposed") throw new Conflict("monitoring.errors.alarmClosed");
  const recoveredAt = new Date(ctx.now());
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(alarms)
      .set({ status: "ManualDisposed", comment: input.comment, recoveredAt })
      .where(visible(ctx, alarms, alarms.pointId, eq(alarms.id, id), eq(alarms.status, "Undisposed")))
      .returning(),
    auditRow(ctx, {
      table: "alarms",
      module: "alarm",
      type: "UPDATE",
      oldData: { id, status: row.alarm.status },
      newData: { id, status: "ManualDisposed", comment: input.comment },
    }),
  ]);
  if (!updated[0]) throw new Conflict("monitoring.errors.alarmClosed");
  return present(updated[0], row.point, row.stationName);
});
