import { count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { batchOf, slices } from "../../../db/statements";
import { discountCards, discountStrategies } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import {
  discountCardListQuery,
  discountStrategyInput,
  discountStrategyListQuery,
  generateInput,
  type DiscountStrategyInput,
} from "../../../domain/schemas/discounts";
import { owned, ownedRow, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { cardStatusSql, presentDiscountCard } from "./cards";

/** Finance › Discount strategies (docs/rules/discounts.md "Strategies"). */
export const DISCOUNT_MENU = "finance.discountStrategy";

type StrategyRow = typeof discountStrategies.$inferSelect;

export const presentStrategy = (s: StrategyRow) => ({
  id: s.id,
  name: s.name,
  type: s.type,
  unit: s.unit,
  quota: s.quota,
  discount: s.discount,
  startDate: s.startDate,
  endDate: s.endDate,
  months: s.months,
  activationCode: s.activationCode,
  generateNumber: s.generateNumber,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});
export type DiscountStrategy = ReturnType<typeof presentStrategy>;

/** Strategies, newest first, filtered by name and type (docs/rules/lists.md). */
export const listDiscountStrategies = verb({ menu: DISCOUNT_MENU }, async (ctx, raw: unknown) => {
  const q = discountStrategyListQuery.parse(raw);
  const where = owned(ctx, discountStrategies, containingIf(discountStrategies.name, q.name), q.type ? eq(discountStrategies.type, q.type) : undefined);
  const page = await pageOf(
    q,
    ({ limit, offset }) => ctx.db.select().from(discountStrategies).where(where).orderBy(desc(discountStrategies.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(discountStrategies).where(where))[0].total,
  );
  return { ...page, records: page.records.map(presentStrategy) };
});

export async function findStrategy(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select().from(discountStrategies).where(owned(ctx, discountStrategies, eq(discountStrategies.id, id))).limit(1);
  if (!row) throw new NotFound("discounts.errors.strategyNotFound");
  return row;
}

export const discountStrategyDetail = verb({ menu: DISCOUNT_MENU }, async (ctx, id: number) => presentStrategy(await findStrategy(ctx, id)));

const rowValues = (input: DiscountStrategyInput) => ({
  name: input.name,
  type: input.type,
  unit: input.unit,
  quota: input.quota,
  discount: input.type === "DISCOUNT" ? input.discount : null,
  startDate: input.startDate,
  endDate: input.endDate,
  months: input.months,
  activationCode: input.activationCode,
});

/** Crockford's base-32 digits: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const CODE_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Random digits per code: 60 bits, so a collision is rare; the unique index makes it harmless. */
const CODE_RANDOM = 12;
/** Card rows per insert: seven bound columns each, under D1's 100 parameters. */
const CARD_ROWS = 14;

export function newActivationCode(prefix: string | null) {
  const bytes = crypto.getRandomValues(new Uint8Array(CODE_RANDOM));
  return (prefix ?? "") + Array.from(bytes, (b) => CODE_DIGITS[b & 31]).join("");
}

/**
 * Makes `count` cards of a strategy, each with its own activation code (docs/rules/discounts.md
 * "Cards"): INVALID until given, the strategy's quota left. The codes are unique per operator by
 * the unique index; an insert that meets a taken code skips it and another round makes the rest.
 * Answers the new cards.
 */
async function generateCards(ctx: UserCtx, strategy: StrategyRow, wanted: number) {
  const made: (typeof discountCards.$inferSelect)[] = [];
  for (let round = 0; made.length < wanted && round < 5; round++) {
    const now = new Date(ctx.now());
    const rows = Array.from({ length: wanted - made.length }, () => ({
      strategyId: strategy.id,
      code: newActivationCode(strategy.activationCode),
      status: "INVALID" as const,
      remaining: strategy.quota,
      createdAt: now,
      updatedAt: now,
    }));
    const inserts = slices(rows, CARD_ROWS).map((slice) => ctx.db.insert(discountCards).values(ownedRows(ctx, slice)).onConflictDoNothing().returning());
    const results = (await batchOf(ctx.db, inserts)) as (typeof made)[];
    made.push(...results.flat());
  }
  if (made.length < wanted) throw new Conflict("discounts.errors.codesExhausted");
  await ctx.db.batch([
    ctx.db
      .update(discountStrategies)
      .set({ generateNumber: sql`${discountStrategies.generateNumber} + ${made.length}`, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, discountStrategies, eq(discountStrategies.id, strategy.id))),
    auditRow(ctx, { table: "discount_cards", module: "discountStrategy", type: "CREATE", newData: { strategyId: strategy.id, count: made.length } }),
  ]);
  return made;
}

export const createDiscountStrategy = verb({ menu: DISCOUNT_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = discountStrategyInput.parse(raw);
  const now = new Date(ctx.now());
  const values = rowValues(input);
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(discountStrategies)
      .values(ownedRow(ctx, { ...values, createdAt: now, updatedAt: now }))
      .returning(),
    auditRow(ctx, { table: "discount_strategies", module: "discountStrategy", type: "CREATE", newData: values }),
  ]);
  if (input.generateNumber > 0) await generateCards(ctx, created, input.generateNumber);
  return presentStrategy(await findStrategy(ctx, created.id));
});

/** Whether any card of the strategy was given to a customer: then its terms are what they hold. */
async function anyGiven(ctx: UserCtx, strategyId: number) {
  const [row] = await ctx.db
    .select({ id: discountCards.id })
    .from(discountCards)
    .where(owned(ctx, discountCards, eq(discountCards.strategyId, strategyId), isNotNull(discountCards.customerId)))
    .limit(1);
  return Boolean(row);
}

/**
 * A strategy's terms change while none of its cards is given; the cards not given take the new
 * quota. Once one is given, the type, unit and quota stay as the customer got them (409).
 */
export const updateDiscountStrategy = verb({ menu: DISCOUNT_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findStrategy(ctx, id);
  const input = discountStrategyInput.parse(raw);
  const values = rowValues(input);
  const termsChanged = values.type !== before.type || values.unit !== before.unit || values.quota !== before.quota;
  if (termsChanged && (await anyGiven(ctx, id))) throw new Conflict("discounts.errors.strategyInUse");
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db.update(discountStrategies).set({ ...values, updatedAt: now }).where(owned(ctx, discountStrategies, eq(discountStrategies.id, id))),
    ctx.db
      .update(discountCards)
      .set({ remaining: values.quota, updatedAt: now })
      .where(owned(ctx, discountCards, eq(discountCards.strategyId, id), eq(discountCards.status, "INVALID"))),
    auditRow(ctx, { table: "discount_strategies", module: "discountStrategy", type: "UPDATE", oldData: presentStrategy(before), newData: values }),
  ]);
  return presentStrategy(await findStrategy(ctx, id));
});

/** A strategy goes with its cards while none is given; after that it stays (409). */
export const deleteDiscountStrategy = verb({ menu: DISCOUNT_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findStrategy(ctx, id);
  if (await anyGiven(ctx, id)) throw new Conflict("discounts.errors.strategyInUse");
  await ctx.db.batch([
    ctx.db.delete(discountCards).where(owned(ctx, discountCards, eq(discountCards.strategyId, id), sql`${discountCards.customerId} is null`)),
    ctx.db.delete(discountStrategies).where(owned(ctx, discountStrategies, eq(discountStrategies.id, id))),
    auditRow(ctx, { table: "discount_strategies", module: "discountStrategy", type: "DELETE", oldData: presentStrategy(before) }),
  ]);
  return null;
});

/** POST /finance-service/discount-strategy/{id}/generate `{count}`: answers the new cards. */
export const generateDiscountCards = verb({ menu: DISCOUNT_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const strategy = await findStrategy(ctx, id);
  const { count: wanted } = generateInput.parse(raw);
  const made = await generateCards(ctx, strategy, wanted);
  return { count: made.length, records: made.map((c) => presentDiscountCard(c, c.status, strategy)) };
});

/** The cards of a strategy, newest first, filtered by state and code (the export reads it page by page). */
export const listStrategyCards = verb({ menu: DISCOUNT_MENU }, async (ctx, id: number, raw: unknown) => {
  const strategy = await findStrategy(ctx, id);
  const q = discountCardListQuery.parse(raw);
  const status = cardStatusSql(ctx.now());
  const where = owned(
    ctx,
    discountCards,
    eq(discountCards.strategyId, id),
    containingIf(discountCards.code, q.code?.toUpperCase()),
    q.status ? sql`${status} = ${q.status}` : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) => ctx.db.select({ card: discountCards, status }).from(discountCards).where(where).orderBy(desc(discountCards.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(discountCards).where(where))[0].total,
  );
  return { ...page, records: page.records.map((r) => presentDiscountCard(r.card, r.status, strategy)) };
});
