import { eq, inArray, sql } from "drizzle-orm";
import { alarms, connectors, points, transactions } from "../../../db/schema";
import type { BatchItem } from "drizzle-orm/batch";
import { d1Statement, IN_LIST } from "../../../db/statements";
import { slices } from "../../../domain/slices";
import type { BillingMessage } from "../../../domain/schemas/billing";
import { OCPP_ERROR_LEVEL } from "../../../domain/schemas/operations";
import { owned, ownedRow } from "../../../tenants/scope";
import { recordsAwaitingUnplug, unpluggedRecords, unplugStatement } from "../charge-records/lifecycle";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { openWorkOrdersForAlarms } from "../maintenance/work-orders";
import { system } from "./charger-scope";
import { type AbnormalReason, abnormalStatements } from "./transaction-reviews";
import { connectionIntervalStatements, statusIntervalStatements } from "../uptime/intervals";
import { type ReportedStatus, reportedStatusesStatement } from "./reported-statuses";

/**
 * The changes a charger's object queues for D1 after its answers (boot facts, statuses, alarms, the
 * online flag), landed in ordered batches with the operator's other chargers' (docs/rules/ocpp.md
 * "Hot path", docs/decisions/0015, 0076); the alarms they raise open work orders.
 */

/** The charger's own point, within its operator (kept local: the tenancy check reads each module's own filters). */
const ofPoint = (ctx: SystemCtx, pointId: number) => owned(ctx, points, eq(points.id, pointId));

export interface BootFacts {
  vendor: string;
  model: string;
  firmwareVersion?: string;
  boxSerialNumber?: string;
  iccid?: string;
  imsi?: string;
  meterSerialNumber?: string;
  meterType?: string;
}

function nullable(facts: BootFacts) {
  return {
    vendor: facts.vendor,
    model: facts.model,
    firmwareVersion: facts.firmwareVersion ?? null,
    boxSerialNumber: facts.boxSerialNumber ?? null,
    iccid: facts.iccid ?? null,
    imsi: facts.imsi ?? null,
    meterSerialNumber: facts.meterSerialNumber ?? null,
    meterType: facts.meterType ?? null,
  };
}

export interface StatusChange {
  connectorId: number;
  status: string;
  errorCode: string;
  info?: string;
  vendorErrorCode?: string;
  at: number;
}

/**
 * An alarm raised or cleared by what a charger reports without a status (OCPP 2.0.1 N07–N08
 * NotifyEvent): one fault code on one connector (0 the charger itself), raised when none of its
 * code is open there, and only that code's alarm closed when it clears (docs/rules/maintenance.md).
 */
export interface AlarmChange {
  connectorId: number;
  type: string;
  raised: boolean;
  message?: string;
  at: number;
}

/**
 * A change a charger's Durable Object hands to D1 after it has answered, in batches and in the
 * order the charger sent them (docs/rules/ocpp.md "Hot path"): the online flag, a boot (what the
 * charger says of itself; its open transactions cannot survive a reboot), a connector's status,
 * an alarm raised or cleared on its own.
 */
export type ChargerChange =
  | { kind: "online"; online: boolean; at: number; /** The protocol of the connection that came up (absent: kept from before 2.0.1, 1.6). */ version?: "1.6" | "2.0.1" }
  | { kind: "boot"; facts: BootFacts; at: number }
  | { kind: "status"; status: StatusChange }
  | { kind: "alarm"; alarm: AlarmChange }
  /** The charger's quarantine began (`until`) or ended (null), mirrored for the API (docs/rules/ocpp.md "A charger that keeps reconnecting"). */
  | { kind: "quarantine"; until: number | null; connections: number | null; at: number };

/** An alarm a status change raised, for the live view. */
export interface RaisedAlarm {
  connectorId: number;
  level: string;
  type: string;
  at: number;
}

/** One charger's changes in a batch of several chargers: its context names the charger in the log. */
export interface ChargerChanges {
  ctx: SystemCtx;
  pointId: number;
  changes: ChargerChange[];
}

type ActiveTransaction = { id: number; connectorNo: number };

/**
 * Connectors' rows take their reported statuses (connector 0 has none: it is the point itself):
 * with their history, the statements every status brings, a statement per 19 statuses
 * (workers/services/ocpp/reported-statuses.ts).
 */
const connectorStatuses = reportedStatusesStatement(
  (ctx, reported) =>
    sql`${reported} update ${connectors} set ${sql.identifier(connectors.status.name)} = r_status, ${sql.identifier(connectors.errorCode.name)} = r_error, ${sql.identifier(
      connectors.statusAt.name,
    )} = r_at from reported where ${owned(ctx, connectors, sql`${connectors.pointId} = r_point`, sql`${connectors.connectorNo} = r_connector`)}`,
);

/** The rows and history of these statuses, each connector at most once. */
const statusStatements = (ctx: SystemCtx, statuses: readonly ReportedStatus[]) => [
  ...connectorStatuses(
    ctx,
    statuses.filter((s) => s.connectorNo > 0),
  ),
  // docs/rules/monitoring.md "Uptime": the history, connector 0 (the point itself) included.
  ...statusIntervalStatements(ctx, statuses),
];

/**
 * Whether a charger's statuses may be written with other chargers' at the end of the batch: they
 * come after its other changes and name each connector once, so that landing them last keeps
 * its order (its alarms, unplugs and ABNORMAL marks do not read connector rows or history), and
 * no other batch of its point is in this one (a batch sent again after an eviction).
 */
function statusesLast(changes: ChargerChange[], pointOnce: boolean) {
  if (!pointOnce) return false;
  const first = changes.findIndex((c) => c.kind === "status");
  if (first < 0) return false;
  const statuses = changes.slice(first);
  const connectorsNamed = new Set(statuses.map((c) => (c.kind === "status" ? c.status.connectorId : -1)));
  return statuses.every((c) => c.kind === "status") && connectorsNamed.size === statuses.length;
}

type OpenAlarm = { connectorNo: number; type: string };
/** A record awaiting its unplug on a connector, and when its session stopped. */
type AwaitingUnplug = { connectorNo: number; stopAt: Date | null };

/** What a batch's statements are planned from, per point, as D1 had it before the batch. */
interface PointFacts {
  active: ActiveTransaction[];
  open: OpenAlarm[];
  awaitingUnplug: AwaitingUnplug[];
}

/**
 * The running transactions, open alarms and records awaiting their unplug of these points, in one
 * read batch (100 bound parameters per statement).
 */
async function pointFacts(ctx: SystemCtx, pointIds: number[]): Promise<Map<number, PointFacts>> {
  const facts = new Map<number, PointFacts>();
  if (pointIds.length === 0) return facts;
  const reads = slices(pointIds, IN_LIST).flatMap((ids) => [
    ctx.db
      .select({ pointId: transactions.pointId, id: transactions.id, connectorNo: transactions.connectorNo })
      .from(transactions)
      .where(owned(ctx, transactions, inArray(transactions.pointId, ids), eq(transactions.status, "ACTIVE"))),
    ctx.db
      .select({ pointId: alarms.pointId, connectorNo: alarms.connectorNo, type: alarms.type })
      .from(alarms)
      .where(owned(ctx, alarms, inArray(alarms.pointId, ids), eq(alarms.status, "Undisposed"))),
    recordsAwaitingUnplug(ctx, ids),
  ]);
  const results = (await ctx.db.batch(reads as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown as { pointId: number }[][];
  // The reads go in this order per slice.
  const kinds = ["active", "open", "awaitingUnplug"] as const;
  results.forEach((rows, i) => {
    for (const { pointId, ...row } of rows) {
      const of = facts.get(pointId) ?? { active: [], open: [], awaitingUnplug: [] };
      (of[kinds[i % kinds.length]] as unknown[]).push(row);
      facts.set(pointId, of);
    }
  });
  return facts;
}

/**
 * The statements of one charger's changes, in their order, given its running transactions, open
 * alarms and records awaiting their unplug as D1 had them before the batch:
 *
 * - online: the point's flag and when it changed, and its connectors' status intervals carried
 *   over into the new connection state;
 * - boot: the point's facts, and every running transaction marked ABNORMAL (`rebooted`);
 * - status: the connector row (connector 0 is the point itself) and its status interval, alarms raised by an error code
 *   and closed when it clears (AutoRecovery), and a transaction the charger forgot to stop when
 *   the connector comes back Available marked ABNORMAL (`availableWithoutStop`), and the record
 *   of a session that stopped on it unplugged (only when one awaits it);
 * - alarm: one code's alarm on one connector raised, or closed when it clears (AutoRecovery).
 */
function changeStatements(ctx: SystemCtx, pointId: number, changes: ChargerChange[], before: PointFacts, pointOnce: boolean) {
  let active = before.active;
  const { open } = before;
  let awaitingUnplug = before.awaitingUnplug;
  const openAlarms = new Set(open.map((a) => `${a.connectorNo}:${a.type}`));
  // For D1's own batch: drizzle's would build every statement again and map every result.
  const statements: D1PreparedStatement[] = [];
  const add = (...items: BatchItem<"sqlite">[]) => statements.push(...items.map((item) => d1Statement(ctx.db.$client, item as unknown as Parameters<typeof d1Statement>[1])));
  const raised: RaisedAlarm[] = [];
  /** Where this charger's unplug statements are in `statements`. */
  const unplugs: number[] = [];
  /** Its statuses for the batch's shared statements, when they can go there (`statusesLast`). */
  const reported: ReportedStatus[] = [];
  const together = statusesLast(changes, pointOnce);
  const markAbnormalLater = (ids: number[], reason: AbnormalReason) => add(...(abnormalStatements(ctx, ids, reason)?.statements ?? []));
  for (const change of changes) {
    if (change.kind === "online") {
      const connectedVersion = change.online ? (change.version ?? "1.6") : null;
      add(ctx.db.update(points).set({ online: change.online, onlineChangedAt: new Date(change.at), connectedVersion }).where(ofPoint(ctx, pointId)));
      statements.push(...connectionIntervalStatements(ctx, pointId, change.online, new Date(change.at)));
    } else if (change.kind === "boot") {
      const at = new Date(change.at);
      add(ctx.db.update(points).set({ ...nullable(change.facts), lastBootAt: at, updatedAt: at }).where(ofPoint(ctx, pointId)));
      markAbnormalLater(
        active.map((t) => t.id),
        "rebooted",
      );
      active = [];
    } else if (change.kind === "quarantine") {
      add(
        ctx.db
          .update(points)
          .set({ quarantinedUntil: change.until === null ? null : new Date(change.until), quarantineConnections: change.connections })
          .where(ofPoint(ctx, pointId)),
      );
    } else if (change.kind === "alarm") {
      const a = change.alarm;
      const key = `${a.connectorId}:${a.type}`;
      if (a.raised && !openAlarms.has(key)) {
        openAlarms.add(key);
        const level = OCPP_ERROR_LEVEL.has(a.type) ? ("ERROR" as const) : ("WARN" as const);
        raised.push({ connectorId: a.connectorId, level, type: a.type, at: a.at });
        add(
          ctx.db.insert(alarms).values(ownedRow(ctx, { pointId, connectorNo: a.connectorId, level, type: a.type, message: a.message ?? null, occurredAt: new Date(a.at) })),
        );
      } else if (!a.raised && openAlarms.has(key)) {
        openAlarms.delete(key);
        add(
          ctx.db
            .update(alarms)
            .set({ status: "AutoRecovery", recoveredAt: new Date(a.at) })
            .where(owned(ctx, alarms, eq(alarms.pointId, pointId), eq(alarms.connectorNo, a.connectorId), eq(alarms.type, a.type), eq(alarms.status, "Undisposed"))),
        );
      }
    } else {
      const s = change.status;
      const at = new Date(s.at);
      const status = { pointId, connectorNo: s.connectorId, status: s.status, errorCode: s.errorCode, at };
      if (together) reported.push(status);
      else statements.push(...statusStatements(ctx, [status]));
      const onConnector = [...openAlarms].filter((key) => key.startsWith(`${s.connectorId}:`));
      if (s.errorCode === "NoError") {
        // Only when one is open: most statuses clear nothing, and each statement costs the batch.
        if (onConnector.length > 0) {
          add(
            ctx.db
              .update(alarms)
              .set({ status: "AutoRecovery", recoveredAt: at })
              .where(owned(ctx, alarms, eq(alarms.pointId, pointId), eq(alarms.connectorNo, s.connectorId), eq(alarms.status, "Undisposed"))),
          );
        }
        for (const key of onConnector) openAlarms.delete(key);
      } else if (!openAlarms.has(`${s.connectorId}:${s.errorCode}`)) {
        openAlarms.add(`${s.connectorId}:${s.errorCode}`);
        const level = OCPP_ERROR_LEVEL.has(s.errorCode) || s.status === "Faulted" ? ("ERROR" as const) : ("WARN" as const);
        raised.push({ connectorId: s.connectorId, level, type: s.errorCode, at: s.at });
        add(
          ctx.db.insert(alarms).values(
            ownedRow(ctx, {
              pointId,
              connectorNo: s.connectorId,
              level,
              type: s.errorCode,
              message: [s.info, s.vendorErrorCode].filter(Boolean).join(" · ") || null,
              occurredAt: at,
            }),
          ),
        );
      }
      if (s.status === "Available" && s.connectorId > 0) {
        // Only when a session that stopped here by then awaits it: most Availables unplug nothing.
        const unplugged = (r: AwaitingUnplug) => r.connectorNo === s.connectorId && r.stopAt !== null && r.stopAt <= at;
        if (awaitingUnplug.some(unplugged)) {
          unplugs.push(statements.length);
          add(unplugStatement(ctx, pointId, s.connectorId, at));
          awaitingUnplug = awaitingUnplug.filter((r) => !unplugged(r));
        }
        markAbnormalLater(
          active.filter((t) => t.connectorNo === s.connectorId).map((t) => t.id),
          "availableWithoutStop",
        );
        active = active.filter((t) => t.connectorNo !== s.connectorId);
      }
    }
  }
  return { statements, raised, unplugs, reported };
}

/**
 * Applies the pending changes of several chargers of one operator, each in its order, with one
 * read and one write batch for all of them (docs/rules/ocpp.md "Hot path"; a charger's
 * ChangeWriter gathers them, workers/ocpp/change-writer.ts). Applying the same changes twice
 * changes nothing more (a flush cut short by an eviction is applied again): flags are set, not
 * toggled, an alarm is raised only when none of its type is open, and only ACTIVE transactions
 * are marked. Answers, per charger, the alarms it raised.
 */
export const applyChargersChanges = verb(system, async (ctx, batch: ChargerChanges[]): Promise<RaisedAlarm[][]> => {
  if (batch.some((b) => b.ctx.operator.id !== ctx.operator.id)) throw new Error("A batch of charger changes belongs to one operator");
  const facts = await pointFacts(
    ctx,
    batch.filter((b) => b.changes.some((c) => c.kind !== "online")).map((b) => b.pointId),
  );
  const batches = new Map<number, number>();
  for (const { pointId } of batch) batches.set(pointId, (batches.get(pointId) ?? 0) + 1);
  const planned = batch.map((b) => changeStatements(b.ctx, b.pointId, b.changes, facts.get(b.pointId) ?? { active: [], open: [], awaitingUnplug: [] }, batches.get(b.pointId) === 1));
  // The chargers' statuses that can go together last: after every charger's own statements, so their offsets hold.
  const statements = [...planned.flatMap((p) => p.statements), ...statusStatements(ctx, planned.flatMap((p) => p.reported))];
  const results = statements.length > 0 ? await ctx.db.$client.batch(statements) : [];
  let offset = 0;
  for (const [i, { unplugs, raised, statements: its }] of planned.entries()) {
    const { ctx: own, pointId } = batch[i];
    // Only an unplug that ended a record's plug-in made one ready; one missed is priced by the cron.
    if (unplugs.some((at) => (results[offset + at]?.meta.changes ?? 0) > 0)) await queueFinalPricing(own, pointId);
    offset += its.length;
    // docs/rules/maintenance.md "Automatic work orders": after the alarms are written.
    if (raised.length > 0) await openWorkOrdersForAlarms(own, pointId, raised);
  }
  return planned.map((p) => p.raised);
});

/**
 * Sends the records an unplug made ready to the billing queue for their final price
 * (docs/rules/billing.md "Provisional and final"); a record missed here is priced by the cron.
 */
async function queueFinalPricing(ctx: SystemCtx, pointId: number) {
  const ready = await unpluggedRecords(ctx, pointId);
  if (ready.length === 0) return;
  await ctx.env.BILLING.sendBatch(
    ready.map(({ id }) => ({ body: { transactionId: id, operatorId: ctx.operator.id, operatorCode: ctx.operator.code } satisfies BillingMessage })),
  );
}
