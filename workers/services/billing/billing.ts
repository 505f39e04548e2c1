import { eq, isNull } from "drizzle-orm";
import { transactions } from "../../../db/schema";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { billedStatements, ensureChargeRecord } from "../charge-records/lifecycle";
import { verb } from "../verb";
import { queueSettlement } from "./deliveries";

/**
 * Writes a stopped transaction's energy and duration onto its record and adds the session to the
 * daily totals (docs/rules/records.md "Daily totals"). Idempotent: the totals, the record's state
 * and `billed_at` change in one batch, each conditioned on `billed_at IS NULL`, so a job
 * delivered twice changes nothing. Pricing joins here. A settled record then goes to the
 * operator's bill-push URL and invoice system through the outbox queue (docs/rules/settings.md
 * "Bill push"); a delivery that could not be queued the first time is queued when the job is retried.
 */
export const billTransaction = verb({ actors: ["system"] }, async (ctx, transactionId: number) => {
  const [tx] = await ctx.db.select().from(transactions).where(owned(ctx, transactions, eq(transactions.id, transactionId))).limit(1);
  if (!tx || tx.meterStopWh === null || tx.stopAt === null) return { billed: false as const, reason: "notStopped" };
  if (tx.billedAt !== null) {
    await queueSettlement(ctx, transactionId);
    return { billed: false as const, reason: "alreadyBilled" };
  }
  // A register that went backwards is never billed negative (docs/rules/ocpp.md "Meter values").
  const energyWh = Math.max(0, tx.meterStopWh - tx.meterStartWh);
  const durationS = Math.max(0, Math.round((tx.stopAt.getTime() - tx.startAt.getTime()) / 1000));
  const [settings] = await Promise.all([settingsOf(ctx.db, ctx.operator.id), ensureChargeRecord(ctx, transactionId)]);
  const [, , updated] = await ctx.db.batch([
    ...billedStatements(ctx, { transactionId, startAt: tx.startAt, energyWh, durationS }, settings.timeZone),
    ctx.db
      .update(transactions)
      .set({ energyWh, durationS, billedAt: new Date(ctx.now()) })
      .where(owned(ctx, transactions, eq(transactions.id, transactionId), isNull(transactions.billedAt)))
      .returning({ id: transactions.id }),
  ]);
  await queueSettlement(ctx, transactionId);
  return updated.length > 0 ? { billed: true as const, energyWh, durationS } : { billed: false as const, reason: "alreadyBilled" };
});
