import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import { chargeRecordDiscounts, discountCards, discountStrategies } from "../../../db/schema";
import type { CardDeduction, PricedSession } from "../../../domain/pricing";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";

/**
 * Discount cards in billing (docs/rules/discounts.md "Billing order"; why:
 * docs/decisions/0047-discount-order.md). The engine takes the membership discount, then one
 * discount card, then one voucher, each from what the one before left; these functions find the
 * payer's cards and write what each took in the debit's batch.
 */

/**
 * The payer's usable DISCOUNT card and VOUCHER, in billing order: IN_USE with something left,
 * valid when the session stopped; of several, the one that expires first (then the oldest).
 */
export async function cardsFor(ctx: Ctx, payerId: number, stoppedAt: number): Promise<CardDeduction[]> {
  const pick = (type: "DISCOUNT" | "VOUCHER") =>
    ctx.db
      .select({ id: discountCards.id, remaining: discountCards.remaining, unit: discountStrategies.unit, percent: discountStrategies.discount })
      .from(discountCards)
      .innerJoin(discountStrategies, and(eq(discountStrategies.id, discountCards.strategyId), eq(discountStrategies.operatorId, discountCards.operatorId)))
      .where(
        owned(
          ctx,
          discountCards,
          eq(discountCards.customerId, payerId),
          eq(discountCards.status, "IN_USE"),
          gt(discountCards.remaining, 0),
          lte(discountCards.validFrom, new Date(stoppedAt)),
          gt(discountCards.expiresAt, new Date(stoppedAt)),
          eq(discountStrategies.type, type),
        ),
      )
      .orderBy(asc(discountCards.expiresAt), asc(discountCards.id))
      .limit(1);
  const [discount, voucher] = await ctx.db.batch([pick("DISCOUNT"), pick("VOUCHER")]);
  return [
    ...discount.map((c) => ({ source: "DISCOUNT" as const, cardId: c.id, unit: c.unit, percent: c.percent, remaining: c.remaining })),
    ...voucher.map((c) => ({ source: "VOUCHER" as const, cardId: c.id, unit: c.unit, percent: null, remaining: c.remaining })),
  ];
}

/**
 * The statements that record what each discount took from a finally priced session and draw the
 * cards down, for the debit's batch (docs/rules/discounts.md "Billing order"):
 *
 * 1. one row per source (MEMBER, DISCOUNT, VOUCHER), inserted only when the session has none yet
 *    for that source, so a second job or a message delivered twice adds nothing;
 * 2. a card row's `consumed` is NULL (which its NOT NULL column refuses, failing the whole batch)
 *    when the card is no longer IN_USE with enough left: the card changed since the price was
 *    read, the batch leaves nothing half-written and the queue's retry prices again;
 * 3. the card gives up what was consumed once (`applied`), turning EXPIRED when nothing is left.
 */
export function discountStatements(ctx: Ctx, transactionId: number, priced: PricedSession) {
  const now = ctx.now();
  const noneYet = (source: string) =>
    sql`not exists (select 1 from ${chargeRecordDiscounts} where ${owned(ctx, chargeRecordDiscounts, eq(chargeRecordDiscounts.transactionId, transactionId), sql`${chargeRecordDiscounts.source} = ${source}`)})`;
  const statements = [];
  if (priced.memberDiscountCost > 0) {
    statements.push(
      ctx.db
        .insert(chargeRecordDiscounts)
        .select(sql`select null, ${ctx.operator.id}, ${transactionId}, 'MEMBER', null, ${priced.memberDiscountCost}, 0, 1, ${now} where ${noneYet("MEMBER")}`),
    );
  }
  for (const use of priced.cardUses) {
    const usable = sql`exists (select 1 from ${discountCards} where ${owned(ctx, discountCards, eq(discountCards.id, use.cardId), eq(discountCards.status, "IN_USE"), sql`${discountCards.remaining} >= ${use.consumed}`)})`;
    const unapplied = owned(ctx, chargeRecordDiscounts, eq(chargeRecordDiscounts.transactionId, transactionId), eq(chargeRecordDiscounts.source, use.source), eq(chargeRecordDiscounts.applied, false));
    const consumed = sql`(select ${chargeRecordDiscounts.consumed} from ${chargeRecordDiscounts} where ${unapplied})`;
    statements.push(
      ctx.db
        .insert(chargeRecordDiscounts)
        .select(
          sql`select null, ${ctx.operator.id}, ${transactionId}, ${use.source}, ${use.cardId}, ${use.amount}, case when ${usable} then ${use.consumed} else null end, 0, ${now} where ${noneYet(use.source)}`,
        ),
      ctx.db
        .update(discountCards)
        .set({
          remaining: sql`${discountCards.remaining} - ${consumed}`,
          status: sql`case when ${discountCards.remaining} - ${consumed} <= 0 then 'EXPIRED' else ${discountCards.status} end`,
          updatedAt: new Date(now),
        })
        .where(owned(ctx, discountCards, eq(discountCards.id, use.cardId), sql`exists (select 1 from ${chargeRecordDiscounts} where ${unapplied})`)),
      ctx.db.update(chargeRecordDiscounts).set({ applied: true }).where(unapplied),
    );
  }
  return statements;
}
