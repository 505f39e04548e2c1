import { asc, count, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { alarms, maintenanceSettings, points, workOrderHistory, workOrders } from "../../../db/schema";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { isUniqueViolation } from "../../../db/statements";
import { Conflict, Forbidden, Invalid, NotFound } from "../../../domain/errors";
import {
  maintenanceSettingsInput,
  workOrderAuditInput,
  workOrderCreateInput,
  workOrderListQuery,
  workOrderProcessInput,
  workOrderUpdateInput,
  type WorkOrderStatus,
} from "../../../domain/schemas/maintenance";
import { isOcppFaultCode } from "../../../domain/schemas/operations";
import { owned, ownedRow, type TenantFilter } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, SystemCtx, UserCtx } from "../context";
import { faultCodesOf } from "../faults/fault-codes";
import { mailWorkOrderAssignment } from "../mail/work-orders";
import { verb } from "../verb";
import { actsAsMaintainer, handlerOf, MAINTAIN_MENU, maintainerCovers, ownMaintainerId, pickMaintainer } from "./maintainers";

/**
 * Work orders (docs/rules/maintenance.md "Work orders"): opened from an alarm or by hand, assigned
 * to a maintainer (by hand or by the assignment rule), ALREADY → PASS when processed → CLOSE when
 * the audit passes, or back to ALREADY when it does not. Every step is a conditional update on the
 * status with its history and operation-log rows in the same batch. A maintainer sees only the
 * orders assigned to them, and is mailed when one is given to them.
 */

type Row = typeof workOrders.$inferSelect;
type Action = (typeof workOrderHistory.$inferInsert)["action"];

/** The rows a user may see: all of the operator's, or for a maintainer only their own. */
async function scopeOf(ctx: UserCtx, ...conditions: (SQL | undefined)[]): Promise<TenantFilter> {
  if (!actsAsMaintainer(ctx)) return owned(ctx, workOrders, ...conditions);
  const mine = await ownMaintainerId(ctx);
  // A maintainer account never made a maintainer sees nothing (id 0 matches no row).
  return owned(ctx, workOrders, eq(workOrders.maintainerId, mine ?? 0), ...conditions);
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

async function present(ctx: Ctx, r: Row) {
  const handler = r.maintainerId === null ? null : await handlerOf(ctx, r.maintainerId);
  return {
    id: r.id,
    pointId: r.pointId,
    alarmId: r.alarmId,
    source: r.source,
    faultCode: r.faultCode,
    serialNumber: r.serialNumber,
    status: r.status,
    abnormalTime: r.abnormalTime.toISOString(),
    cause: r.cause,
    remarks: r.remarks,
    maintainerId: r.maintainerId,
    handler: handler?.name ?? null,
    handlerAccount: handler?.username ?? null,
    handlerEmail: handler?.email ?? null,
    handlingProcess: r.handlingProcess,
    opinion: r.opinion,
    processedBy: r.processedBy,
    processedAt: iso(r.processedAt),
    auditResult: r.auditResult,
    auditOpinion: r.auditOpinion,
    auditedBy: r.auditedBy,
    auditedAt: iso(r.auditedAt),
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Work orders newest first, by status, fault code, serial number, handler and abnormal time. */
export const listWorkOrders = verb({ menu: MAINTAIN_MENU }, async (ctx, raw: unknown) => {
  const q = workOrderListQuery.parse(raw);
  const where = await scopeOf(
    ctx,
    q.status ? eq(workOrders.status, q.status) : undefined,
    q.faultCode ? eq(workOrders.faultCode, q.faultCode) : undefined,
    containingIf(workOrders.serialNumber, q.serialNumber),
    q.maintainerId ? eq(workOrders.maintainerId, q.maintainerId) : undefined,
    q.from ? gte(workOrders.abnormalTime, new Date(q.from)) : undefined,
    q.to ? lte(workOrders.abnormalTime, new Date(q.to)) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db.select().from(workOrders).where(where).orderBy(desc(workOrders.createdAt), desc(workOrders.id)).limit(limit).offset(offset);
      return Promise.all(rows.map((r) => present(ctx, r)));
    },
    async () => (await ctx.db.select({ total: count() }).from(workOrders).where(where))[0].total,
  );
});

async function rowOf(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select().from(workOrders).where(await scopeOf(ctx, eq(workOrders.id, id))).limit(1);
  if (!row) throw new NotFound("maintenance.errors.workOrderNotFound");
  return row;
}

/** One work order with its history, oldest step first. */
export const getWorkOrder = verb({ menu: MAINTAIN_MENU }, async (ctx, id: number) => {
  const row = await rowOf(ctx, id);
  const history = await ctx.db.select().from(workOrderHistory).where(owned(ctx, workOrderHistory, eq(workOrderHistory.workOrderId, id))).orderBy(asc(workOrderHistory.at), asc(workOrderHistory.id));
  return {
    ...(await present(ctx, row)),
    history: history.map((h) => ({ action: h.action, fromStatus: h.fromStatus, toStatus: h.toStatus, account: h.account, note: h.note, maintainerId: h.maintainerId, at: h.at.toISOString() })),
  };
});

const accountOf = (ctx: Ctx) => (ctx.actor.kind === "user" ? ctx.actor.username : `system: ${ctx.actor.name}`);

/** The history row of a step, for the order just inserted (`last_insert_rowid()`) or a known id. */
function historyRow(ctx: Ctx, workOrderId: number | SQL, step: { action: Action; from: WorkOrderStatus | null; to: WorkOrderStatus; note?: string | null; maintainerId?: number | null }) {
  return ctx.db.insert(workOrderHistory).values(
    ownedRow(ctx, {
      workOrderId,
      action: step.action,
      fromStatus: step.from,
      toStatus: step.to,
      account: accountOf(ctx),
      note: step.note ?? null,
      maintainerId: step.maintainerId ?? null,
      at: new Date(ctx.now()),
    }),
  );
}

/** Inserts an order with its CREATE history and log rows in one batch (409 when its alarm has one already). */
async function insertOrder(ctx: Ctx, values: Omit<typeof workOrders.$inferInsert, "operatorId" | "createdBy">) {
  const createdBy = accountOf(ctx);
  try {
    const [inserted] = await ctx.db.batch([
      ctx.db.insert(workOrders).values(ownedRow(ctx, { ...values, createdBy })).returning(),
      historyRow(ctx, sql`last_insert_rowid()`, { action: "CREATE", from: null, to: "ALREADY", note: values.cause ?? null, maintainerId: values.maintainerId ?? null }),
      auditRow(ctx, { table: "work_orders", module: "maintain", type: "CREATE", newData: { ...values, abnormalTime: values.abnormalTime.toISOString(), createdBy } }),
    ]);
    return inserted[0];
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict("maintenance.errors.alarmHasOrder");
    throw error;
  }
}

async function pointBy(ctx: Ctx, condition: SQL) {
  const [point] = await ctx.db.select({ id: points.id, stationId: points.stationId, serialNumber: points.serialNumber }).from(points).where(owned(ctx, points, condition)).limit(1);
  return point ?? null;
}

/**
 * Opens a work order from an alarm (`{alarmId}`) or by hand (`{faultCode, serialNumber,
 * abnormalTime}`). Without `maintainerId` the assignment rule picks the handler (or nobody). A
 * maintainer opens orders only for their own points, assigned to themselves.
 */
export const createWorkOrder = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = workOrderCreateInput.parse(raw);
  let point: { id: number; stationId: number | null; serialNumber: string } | null;
  let fields: { alarmId: number | null; faultCode: string; abnormalTime: Date; source: "MANUAL" | "ALARM" };
  if ("alarmId" in input) {
    const [alarm] = await ctx.db.select().from(alarms).where(owned(ctx, alarms, eq(alarms.id, input.alarmId))).limit(1);
    if (!alarm) throw new NotFound("maintenance.errors.alarmNotFound");
    point = await pointBy(ctx, eq(points.id, alarm.pointId));
    fields = { alarmId: alarm.id, faultCode: alarm.type, abnormalTime: alarm.occurredAt, source: "ALARM" };
    const [taken] = await ctx.db.select({ id: workOrders.id }).from(workOrders).where(owned(ctx, workOrders, eq(workOrders.alarmId, alarm.id))).limit(1);
    if (taken) throw new Conflict("maintenance.errors.alarmHasOrder");
  } else {
    point = await pointBy(ctx, eq(points.serialNumber, input.serialNumber));
    if (!point) throw new Invalid("maintenance.validation.unknownPoint", {}, { serialNumber: "maintenance.validation.unknownPoint" });
    if (!isOcppFaultCode(input.faultCode) && !(await faultCodesOf(ctx, [input.faultCode])).has(input.faultCode)) {
      throw new Invalid("maintenance.validation.unknownFaultCode", { codes: input.faultCode }, { faultCode: "maintenance.validation.unknownFaultCode" });
    }
    fields = { alarmId: null, faultCode: input.faultCode, abnormalTime: new Date(input.abnormalTime), source: "MANUAL" };
  }
  if (!point) throw new NotFound("maintenance.errors.pointNotFound");
  let maintainerId: number | null;
  if (actsAsMaintainer(ctx)) {
    maintainerId = await ownMaintainerId(ctx);
    if (maintainerId === null || !(await maintainerCovers(ctx, maintainerId, point))) throw new NotFound("maintenance.errors.pointNotFound");
  } else if (input.maintainerId !== undefined) {
    if (!(await handlerOf(ctx, input.maintainerId))) throw new NotFound("maintenance.errors.maintainerNotFound");
    maintainerId = input.maintainerId;
  } else {
    maintainerId = await pickMaintainer(ctx, point, fields.faultCode);
  }
  const row = await insertOrder(ctx, { ...fields, pointId: point.id, serialNumber: point.serialNumber, cause: input.cause || null, remarks: input.remarks || null, maintainerId });
  // A maintainer who opens an order for themselves needs no mail about it.
  if (!actsAsMaintainer(ctx)) await mailWorkOrderAssignment(ctx, row);
  return getWorkOrder(ctx, row.id);
});

/** Changes a pending order (ALREADY) only: any other is 409. A maintainer cannot hand an order to someone else. */
export const updateWorkOrder = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = workOrderUpdateInput.parse(raw);
  const before = await rowOf(ctx, id);
  if (before.status !== "ALREADY") throw new Conflict("maintenance.errors.notPending");
  const reassigned = input.maintainerId !== undefined && input.maintainerId !== before.maintainerId;
  if (reassigned && actsAsMaintainer(ctx)) throw new Forbidden("maintenance.errors.maintainerCannotAssign");
  if (reassigned && input.maintainerId !== null && !(await handlerOf(ctx, input.maintainerId!))) throw new NotFound("maintenance.errors.maintainerNotFound");
  const changes = {
    ...(input.cause !== undefined && { cause: input.cause || null }),
    ...(input.remarks !== undefined && { remarks: input.remarks || null }),
    ...(input.abnormalTime !== undefined && { abnormalTime: new Date(input.abnormalTime) }),
    ...(input.maintainerId !== undefined && { maintainerId: input.maintainerId }),
  };
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(workOrders)
      .set({ ...changes, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, workOrders, eq(workOrders.id, id), eq(workOrders.status, "ALREADY")))
      .returning(),
    historyRow(ctx, id, { action: "UPDATE", from: "ALREADY", to: "ALREADY", maintainerId: changes.maintainerId ?? before.maintainerId }),
    auditRow(ctx, {
      table: "work_orders",
      module: "maintain",
      type: "UPDATE",
      oldData: { id, cause: before.cause, remarks: before.remarks, maintainerId: before.maintainerId },
      newData: { id, ...changes },
    }),
  ]);
  if (!updated[0]) throw new Conflict("maintenance.errors.notPending");
  if (reassigned) await mailWorkOrderAssignment(ctx, updated[0]);
  return getWorkOrder(ctx, id);
});

/**
 * A transition, conditional on the status it leaves, so that two people acting at once cannot both
 * succeed; the history and log rows go in the same batch and land only with it.
 */
async function transition(ctx: UserCtx, id: number, from: WorkOrderStatus, to: WorkOrderStatus, action: Action, set: Partial<Row>, note: string) {
  const before = await rowOf(ctx, id);
  if (before.status !== from) throw new Conflict(from === "ALREADY" ? "maintenance.errors.notPending" : "maintenance.errors.notProcessed");
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(workOrders)
      .set({ ...set, status: to, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, workOrders, eq(workOrders.id, id), eq(workOrders.status, from)))
      .returning(),
    historyRow(ctx, id, { action, from, to, note, maintainerId: before.maintainerId }),
    auditRow(ctx, { table: "work_orders", module: "maintain", type: "UPDATE", oldData: { id, status: from }, newData: { id, status: to, ...set } }),
  ]);
  if (!updated[0]) throw new Conflict(from === "ALREADY" ? "maintenance.errors.notPending" : "maintenance.errors.notProcessed");
  return getWorkOrder(ctx, id);
}

/** Processing records the handling process and opinion, who and when: ALREADY → PASS. */
export const processWorkOrder = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = workOrderProcessInput.parse(raw);
  const now = new Date(ctx.now());
  return transition(ctx, id, "ALREADY", "PASS", "PROCESS", { handlingProcess: input.handlingProcess, opinion: input.opinion, processedBy: ctx.actor.username, processedAt: now }, input.opinion);
});

/**
 * The audit of a processed order: PASS closes it (CLOSE), NO_PASS sends it back to be done again
 * (ALREADY). Maintenance staff do not audit their own work (403).
 */
export const auditWorkOrder = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = workOrderAuditInput.parse(raw);
  if (actsAsMaintainer(ctx)) throw new Forbidden("maintenance.errors.maintainerCannotAudit");
  const audit = { auditResult: input.result, auditOpinion: input.opinion, auditedBy: ctx.actor.username, auditedAt: new Date(ctx.now()) };
  return input.result === "PASS"
    ? transition(ctx, id, "PASS", "CLOSE", "AUDIT_PASS", audit, input.opinion)
    : transition(ctx, id, "PASS", "ALREADY", "AUDIT_NO_PASS", audit, input.opinion);
});

// ── automatic work orders ───────────────────────────────────────────────────────────────────

async function autoOpenOf(ctx: Ctx) {
  const [row] = await ctx.db.select({ autoOpen: maintenanceSettings.autoOpen }).from(maintenanceSettings).where(owned(ctx, maintenanceSettings)).limit(1);
  return row?.autoOpen ?? false;
}

export const getMaintenanceSettings = verb({ menu: MAINTAIN_MENU }, async (ctx) => ({ autoOpen: await autoOpenOf(ctx) }));

export const updateMaintenanceSettings = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const { autoOpen } = maintenanceSettingsInput.parse(raw);
  if (actsAsMaintainer(ctx)) throw new Forbidden("maintenance.errors.maintainerCannotAssign");
  const before = await autoOpenOf(ctx);
  await ctx.db.batch([
    ctx.db
      .insert(maintenanceSettings)
      .values(ownedRow(ctx, { autoOpen, updatedAt: new Date(ctx.now()) }))
      .onConflictDoUpdate({ target: maintenanceSettings.operatorId, set: { autoOpen, updatedAt: new Date(ctx.now()) } }),
    auditRow(ctx, { table: "maintenance_settings", module: "maintain", type: "UPDATE", oldData: { autoOpen: before }, newData: { autoOpen } }),
  ]);
  return { autoOpen };
});

/**
 * When the operator lets alarms open work orders, each alarm a charger raised whose fault code a
 * maintainer of the point is bound to opens one, assigned by the rule (docs/rules/maintenance.md
 * "Automatic work orders"). An alarm nobody is bound to opens nothing.
 */
export const openWorkOrdersForAlarms = verb({ actors: ["system"] }, async (ctx: SystemCtx, pointId: number, raised: { connectorId: number; type: string }[]) => {
  if (raised.length === 0 || !(await autoOpenOf(ctx))) return [];
  const point = await pointBy(ctx, eq(points.id, pointId));
  if (!point) return [];
  const opened: number[] = [];
  for (const alarm of raised) {
    const maintainerId = await pickMaintainer(ctx, point, alarm.type);
    if (maintainerId === null) continue;
    const [row] = await ctx.db
      .select()
      .from(alarms)
      .where(owned(ctx, alarms, eq(alarms.pointId, pointId), eq(alarms.connectorNo, alarm.connectorId), eq(alarms.type, alarm.type), eq(alarms.status, "Undisposed")))
      .orderBy(desc(alarms.id))
      .limit(1);
    if (!row) continue;
    try {
      const order = await insertOrder(ctx, {
        pointId,
        alarmId: row.id,
        source: "AUTO",
        faultCode: row.type,
        serialNumber: point.serialNumber,
        abnormalTime: row.occurredAt,
        cause: row.message,
        remarks: null,
        maintainerId,
      });
      opened.push(order.id);
      await mailWorkOrderAssignment(ctx, order);
    } catch (error) {
      // Applied twice (a flush cut short): the alarm's order exists already.
      if (!(error instanceof Conflict)) throw error;
    }
  }
  return opened;
});
