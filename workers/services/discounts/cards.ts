import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { discountCards, discountStrategies } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { discountCardListQuery, giveCardInput, type DiscountCardStatus } from "../../../domain/schemas/discounts";
import { localMidnight } from "../../../domain/time";
import { owned } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { CUSTOMER_MENU, findCustomer } from "../drivers/customers";
import { operatorSettings } from "../settings/parameter-settings";

/**
 * Discount cards of customers (docs/rules/discounts.md "Cards", "Card states"): given by
 * activation code from the customer's page, listed there, voided with confirmation.
 */

type CardRow = typeof discountCards.$inferSelect;
type StrategyTerms = Pick<typeof discountStrategies.$inferSelect, "id" | "name" | "type" | "unit" | "discount">;

/**
 * A card's state as of `now`: an IN_USE card past its expiry reads EXPIRED, so expiry needs no
 * job (docs/rules/discounts.md "Card states").
 */
export const cardStatusSql = (now: number): SQL<DiscountCardStatus> =>
  sql<DiscountCardStatus>`case when ${discountCards.status} = 'IN_USE' and ${discountCards.expiresAt} <= ${now} then 'EXPIRED' else ${discountCards.status} end`;

export const presentDiscountCard = (c: CardRow, status: DiscountCardStatus, strategy: StrategyTerms) => ({
  id: c.id,
  strategyId: c.strategyId,
  strategyName: strategy.name,
  type: strategy.type,
  unit: strategy.unit,
  discount: strategy.discount,
  activationCode: c.code,
  customerId: c.customerId,
  status,
  remaining: c.remaining,
  validFrom: c.validFrom?.toISOString() ?? null,
  expiresAt: c.expiresAt?.toISOString() ?? null,
  activatedAt: c.activatedAt?.toISOString() ?? null,
  cancelledAt: c.cancelledAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
});
export type DiscountCard = ReturnType<typeof presentDiscountCard>;

const strategyColumns = {
  id: discountStrategies.id,
  name: discountStrategies.name,
  type: discountStrategies.type,
  unit: discountStrategies.unit,
  discount: discountStrategies.discount,
  startDate: discountStrategies.startDate,
  endDate: discountStrategies.endDate,
  months: discountStrategies.months,
};
const strategyJoin = (ctx: UserCtx) => and(eq(discountStrategies.id, discountCards.strategyId), eq(discountStrategies.operatorId, ctx.operator.id));

/** A customer's cards, newest first, filtered by state (docs/rules/lists.md). */
export const listCustomerDiscountCards = verb({ menu: CUSTOMER_MENU }, async (ctx, customerId: number, raw: unknown) => {
  await findCustomer(ctx, customerId);
  const q = discountCardListQuery.parse(raw);
  const status = cardStatusSql(ctx.now());
  const where = owned(ctx, discountCards, eq(discountCards.customerId, customerId), q.status ? sql`${status} = ${q.status}` : undefined);
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ card: discountCards, status, strategy: strategyColumns })
        .from(discountCards)
        .innerJoin(discountStrategies, strategyJoin(ctx))
        .where(where)
        .orderBy(desc(discountCards.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(discountCards).where(where))[0].total,
  );
  return { ...page, records: page.records.map((r) => presentDiscountCard(r.card, r.status, r.strategy)) };
});

/** Adds calendar months in UTC, the day clamped to the month's last (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(at: number, months: number) {
  const d = new Date(at);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.getTime();
}

/**
 * When a card given now is usable (docs/rules/discounts.md "Cards"): from the strategy's first
 * day to the end of its last day in the operator's time zone, or from now for `months` months.
 */
export function validityOf(strategy: { startDate: string | null; endDate: string | null; months: number | null }, now: number, timeZone: string) {
  if (strategy.startDate && strategy.endDate) {
    const [y1, m1, d1] = strategy.startDate.split("-").map(Number);
    const [y2, m2, d2] = strategy.endDate.split("-").map(Number);
    return { validFrom: localMidnight(y1, m1, d1, timeZone), expiresAt: localMidnight(y2, m2, d2 + 1, timeZone) };
  }
  return { validFrom: now, expiresAt: addMonths(now, strategy.months ?? 1) };
}

/**
 * POST /customer-service/customer/{id}/discount-card `{activationCode}`: an INVALID card becomes
 * the customer's, IN_USE from now on. The update is conditioned on the card still being INVALID,
 * so a code is given once even when two requests race. A code of another operator is unknown.
 */
export const giveDiscountCard = verb({ menu: CUSTOMER_MENU, mutates: true, movesMoney: true }, async (ctx, customerId: number, raw: unknown) => {
  await findCustomer(ctx, customerId);
  const { activationCode } = giveCardInput.parse(raw);
  const [row] = await ctx.db
    .select({ card: discountCards, strategy: strategyColumns })
    .from(discountCards)
    .innerJoin(discountStrategies, strategyJoin(ctx))
    .where(owned(ctx, discountCards, eq(discountCards.code, activationCode)))
    .limit(1);
  if (!row) throw new NotFound("discounts.errors.codeNotFound");
  if (row.card.status !== "INVALID") throw new Conflict("discounts.errors.codeUsed");
  const now = ctx.now();
  const { validFrom, expiresAt } = validityOf(row.strategy, now, (await operatorSettings(ctx)).timeZone);
  if (expiresAt <= now) throw new Conflict("discounts.errors.strategyExpired");
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(discountCards)
      .set({ customerId, status: "IN_USE", validFrom: new Date(validFrom), expiresAt: new Date(expiresAt), activatedAt: new Date(now), updatedAt: new Date(now) })
      .where(owned(ctx, discountCards, eq(discountCards.id, row.card.id), eq(discountCards.status, "INVALID")))
      .returning(),
    auditRow(ctx, { table: "discount_cards", module: "discountCard", type: "UPDATE", newData: { customerId, cardId: row.card.id, status: "IN_USE" } }),
  ]);
  if (updated.length === 0) throw new Conflict("discounts.errors.codeUsed");
  return presentDiscountCard(updated[0], "IN_USE", row.strategy);
});

/**
 * PUT /customer-service/customer/{id}/discount-card/{cardId}/void: the card is CANCELLED and
 * billing no longer draws on it; a card already cancelled is a 409.
 */
export const voidDiscountCard = verb({ menu: CUSTOMER_MENU, mutates: true, movesMoney: true }, async (ctx, customerId: number, cardId: number) => {
  await findCustomer(ctx, customerId);
  const status = cardStatusSql(ctx.now());
  const [row] = await ctx.db
    .select({ card: discountCards, status, strategy: strategyColumns })
    .from(discountCards)
    .innerJoin(discountStrategies, strategyJoin(ctx))
    .where(owned(ctx, discountCards, eq(discountCards.id, cardId), eq(discountCards.customerId, customerId)))
    .limit(1);
  if (!row) throw new NotFound("discounts.errors.cardNotFound");
  if (row.card.status === "CANCELLED") throw new Conflict("discounts.errors.cardCancelled");
  const now = new Date(ctx.now());
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(discountCards)
      .set({ status: "CANCELLED", cancelledAt: now, updatedAt: now })
      .where(owned(ctx, discountCards, eq(discountCards.id, cardId), sql`${discountCards.status} <> 'CANCELLED'`))
      .returning(),
    auditRow(ctx, { table: "discount_cards", module: "discountCard", type: "UPDATE", oldData: { cardId, status: row.status }, newData: { cardId, status: "CANCELLED" } }),
  ]);
  if (updated.length === 0) throw new Conflict("discounts.errors.cardCancelled");
  return presentDiscountCard(updated[0], "CANCELLED", row.strategy);
});
