import { and, count, desc, eq, gte, like, lte } from "drizzle-orm";
import { z } from "zod";
import { alarms, points, stations } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { pageQuery } from "../../../domain/schemas/account-service";
import { auditRow } from "../audit";
import { requireMenu, type Ctx } from "../context";
import { deviceScope } from "../sub-operators/scope";

/**
 * Alarms (SPEC.md §3 alarm, §4: Undisposed → AutoRecovery or ManualDisposed). Chargers raise
 * them through StatusNotification error codes and close them (AutoRecovery) when the error
 * clears; a person closes the others with a comment. Operators see theirs, sub-operators those
 * of their assigned devices.
 */
export const ALARM_MENUS = ["monitoring.alarmRecord", "operation.historicalAlarmInfo", "sub.monitoring.alarm"];

export const ALARM_STATUSES = ["Undisposed", "AutoRecovery", "ManualDisposed"] as const;
export const ALARM_LEVELS = ["ERROR", "WARN"] as const;

const instant = z.iso.datetime({ offset: true, error: "monitoring.validation.dateTime" });

export const alarmListQuery = pageQuery
  .extend({
    status: z.enum(ALARM_STATUSES, { error: "monitoring.validation.alarmStatus" }).optional(),
    level: z.enum(ALARM_LEVELS, { error: "monitoring.validation.alarmLevel" }).optional(),
    pointId: z.coerce.number({ error: "monitoring.validation.pointId" }).int().positive({ error: "monitoring.validation.pointId" }).optional(),
    serialNumber: z.string().trim().max(64).optional(),
    type: z.string().trim().max(50).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  // SPEC.md §5: the start time must not be later than the end time.
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: "monitoring.validation.timeRange", path: ["to"] });

export const disposeInput = z.object({
  comment: z
    .string({ error: "monitoring.validation.commentRequired" })
    .trim()
    .min(1, { error: "monitoring.validation.commentRequired" })
    .max(500, { error: "monitoring.validation.commentLength" }),
});

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

const selection = { alarm: alarms, point: { serialNumber: points.serialNumber, name: points.name, stationId: points.stationId }, stationName: stations.name };

/** Alarms newest first, filtered by status, level, point, type and time range. */
export async function listAlarms(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, ALARM_MENUS);
  const q = alarmListQuery.parse(raw);
  const where = deviceScope(ctx).where(
    alarms,
    alarms.pointId,
    q.status ? eq(alarms.status, q.status) : undefined,
    q.level ? eq(alarms.level, q.level) : undefined,
    q.pointId ? eq(alarms.pointId, q.pointId) : undefined,
    q.serialNumber ? like(points.serialNumber, `%${q.serialNumber.replace(/[%_]/g, "")}%`) : undefined,
    q.type ? eq(alarms.type, q.type) : undefined,
    q.from ? gte(alarms.occurredAt, new Date(q.from)) : undefined,
    q.to ? lte(alarms.occurredAt, new Date(q.to)) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(selection)
      .from(alarms)
      .innerJoin(points, eq(points.id, alarms.pointId))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(where)
      .orderBy(desc(alarms.occurredAt), desc(alarms.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(alarms).innerJoin(points, eq(points.id, alarms.pointId)).where(where),
  ]);
  return { records: rows.map((r) => present(r.alarm, r.point, r.stationName)), total, current: q.current, size: q.size };
}

/**
 * A person closes an undisposed alarm with a comment (SPEC.md §4 ManualDisposed); the recover
 * time is when it was disposed. The update is conditional, so two people disposing at once
 * cannot both succeed.
 */
export async function disposeAlarm(ctx: Ctx, id: number, raw: unknown) {
  requireMenu(ctx, ALARM_MENUS);
  const input = disposeInput.parse(raw);
  const scope = deviceScope(ctx);
  const [row] = await ctx.db
    .select(selection)
    .from(alarms)
    .innerJoin(points, eq(points.id, alarms.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(scope.where(alarms, alarms.pointId, eq(alarms.id, id)))
    .limit(1);
  if (!row) throw new NotFound("monitoring.errors.alarmNotFound");
  if (row.alarm.status !== "Undisposed") throw new Conflict("monitoring.errors.alarmClosed");
  const recoveredAt = new Date(ctx.now());
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(alarms)
      .set({ status: "ManualDisposed", comment: input.comment, recoveredAt })
      .where(and(eq(alarms.id, id), eq(alarms.operatorId, scope.operatorId), eq(alarms.status, "Undisposed")))
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
}
