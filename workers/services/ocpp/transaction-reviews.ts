import { eq, inArray, lt, sql } from "drizzle-orm";
import { batchOf, IN_LIST, slices } from "../../../db/statements";
import { ocppReviews, operators, points, transactions } from "../../../db/schema";
import { acrossTenants, owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { abnormalRecordsStatement } from "../charge-records/lifecycle";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { system } from "./charger-scope";

/**
 * Transactions the system marks ABNORMAL and the review rows an operator reads: a reboot, a connector
 * found free, a silent charger, a start from a charger not accepted, a register that went backwards
 * (docs/rules/ocpp.md "Transactions", "Meter values").
 */

/** Why the system marked a transaction ABNORMAL (docs/rules/ocpp.md "Transactions"). */
export type AbnormalReason = "rebooted" | "availableWithoutStop" | "silent" | "notAccepted";

/**
 * The statements that mark these running transactions ABNORMAL, with a review row each and one
 * operation-log row: the review rows are inserted from the same rows the updates then change, so
 * the change never stands without its record (docs/rules/ocpp.md "Transactions"). The ids go in
 * slices, a review insert, an update and a records update per slice; `updates` says where the
 * updates are, which answer the ids they changed.
 */
export function abnormalStatements(ctx: SystemCtx, ids: number[], reason: AbnormalReason) {
  if (ids.length === 0) return undefined;
  // A charger that never sent its stops can have more running transactions at its reboot than one
  // statement may name (docs/rules/lists.md "D1's 100 parameters").
  const running = slices(ids, IN_LIST);
  const reviews = running.map((slice) =>
    ctx.db.insert(ocppReviews).select(
      ctx.db
        // Every column of ocpp_reviews, in its order (drizzle's insert-select asks for that); a null id autoincrements.
        .select({
          id: sql<number>`null`.as("id"),
          operatorId: transactions.operatorId,
          pointId: transactions.pointId,
          kind: sql<string>`'ABNORMAL'`.as("kind"),
          transactionId: transactions.id,
          detail: sql<string>`${JSON.stringify({ reason })}`.as("detail"),
          createdAt: sql<number>`${ctx.now()}`.as("created_at"),
        })
        .from(transactions)
        .where(owned(ctx, transactions, inArray(transactions.id, slice), eq(transactions.status, "ACTIVE"))),
    ),
  );
  const updates = running.map((slice) =>
    ctx.db
      .update(transactions)
      .set({ status: "ABNORMAL", abnormalReason: reason })
      .where(owned(ctx, transactions, inArray(transactions.id, slice), eq(transactions.status, "ACTIVE")))
      .returning({ id: transactions.id }),
  );
  const statements = [
    ...reviews,
    auditRow(ctx, { table: "transactions", module: "ocpp", type: "UPDATE", newData: { ids, status: "ABNORMAL", reason } }),
    ...updates,
    ...running.map((slice) => abnormalRecordsStatement(ctx, slice)),
  ];
  return { statements, updates: { from: reviews.length + 1, count: updates.length } };
}

/** Marks these running transactions ABNORMAL in one batch; answers the ids it changed. */
async function markAbnormal(ctx: SystemCtx, ids: number[], reason: AbnormalReason) {
  const marking = abnormalStatements(ctx, ids, reason);
  if (!marking) return [];
  const { from, count } = marking.updates;
  const results = await batchOf(ctx.db, marking.statements);
  return (results.slice(from, from + count) as { id: number }[][]).flat().map((t) => t.id);
}

/** A StartTransaction from a charger whose boot was not Accepted: kept for review, never billed (OCPP 1.6 §4.2). */
export const NOT_ACCEPTED: AbnormalReason = "notAccepted";

/**
 * The review and log rows of a start refused because the charger was not accepted. The record
 * is ABNORMAL from its insert on, so it can never be billed even if these rows were lost.
 */
export function notAcceptedRecords(ctx: SystemCtx, start: { id: number; pointId: number }) {
  return [
    ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId: start.pointId, kind: "ABNORMAL" as const, transactionId: start.id, detail: { reason: NOT_ACCEPTED } })),
    auditRow(ctx, { table: "transactions", module: "ocpp", type: "CREATE", newData: { ids: [start.id], status: "ABNORMAL", reason: NOT_ACCEPTED } }),
  ];
}

/** A register that went backwards is kept for review, never billed negative (docs/rules/ocpp.md "Meter values"). */
export const recordRegisterBackwards = verb(system, async (ctx, pointId: number, transactionId: number, connectorId: number) => {
  await ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId, kind: "REGISTER_BACKWARDS" as const, transactionId, detail: { connectorId } }));
});

/**
 * Running transactions of every operator's points that have been offline since before
 * `silentSince`, for the cron to mark ABNORMAL operator by operator.
 */
export const silentTransactions = verb(system, async (ctx, silentSince: Date) =>
  ctx.db
    .select({ id: transactions.id, operatorId: transactions.operatorId, operatorCode: operators.code })
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .innerJoin(operators, eq(operators.id, transactions.operatorId))
    // Housekeeping looks at every operator's chargers; each operator's marking is its own verb call.
    .where(acrossTenants("housekeeping looks at every operator's silent chargers; each operator's marking is its own verb call", eq(transactions.status, "ACTIVE"), eq(points.online, false), lt(points.onlineChangedAt, silentSince)))
    .limit(500),
);

/** Marks an operator's silent transactions ABNORMAL, with review and operation-log rows. */
export const markSilent = verb(system, (ctx, ids: number[]) => markAbnormal(ctx, ids, "silent"));
