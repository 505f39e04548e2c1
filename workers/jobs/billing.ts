import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { transactions } from "../../db/schema";

/** A billing job: one per StopTransaction (ARCHITECTURE.md §6). */
export const billingMessage = z.object({ transactionId: z.number().int().positive() });

/**
 * Writes a stopped transaction's energy and duration onto its record. Idempotent: the row is
 * billed once (`billed_at` is set in the same statement), so a message delivered twice changes
 * nothing. Pricing joins here when the finance work lands.
 */
export async function billTransaction(db: Db, transactionId: number, now: number) {
  const [tx] = await db.select().from(transactions).where(eq(transactions.id, transactionId)).limit(1);
  if (!tx || tx.meterStopWh === null || tx.stopAt === null) return { billed: false as const, reason: "notStopped" };
  // A register that went backwards is never billed negative (ARCHITECTURE.md §5).
  const energyWh = Math.max(0, tx.meterStopWh - tx.meterStartWh);
  const durationS = Math.max(0, Math.round((tx.stopAt.getTime() - tx.startAt.getTime()) / 1000));
  const [updated] = await db
    .update(transactions)
    .set({ energyWh, durationS, billedAt: new Date(now) })
    .where(and(eq(transactions.id, transactionId), isNull(transactions.billedAt)))
    .returning({ id: transactions.id });
  return updated ? { billed: true as const, energyWh, durationS } : { billed: false as const, reason: "alreadyBilled" };
}

export async function consumeBilling(batch: MessageBatch<unknown>, db: Db) {
  for (const message of batch.messages) {
    const parsed = billingMessage.safeParse(message.body);
    if (!parsed.success) {
      console.error("billing: unreadable message", message.body);
      message.ack();
      continue;
    }
    try {
      await billTransaction(db, parsed.data.transactionId, Date.now());
      message.ack();
    } catch (error) {
      console.error(`billing ${parsed.data.transactionId} failed`, error);
      message.retry();
    }
  }
}
