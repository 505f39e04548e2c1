import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { bills, operators } from "../../../db/schema";
import { Forbidden } from "../../../domain/errors";
import { collectionAccountInput, collectionTotalsQuery } from "../../../domain/schemas/statements";
import { dayRange } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * The collection account (/financialManagement/financialAcount, docs/rules/statements.md
 * "Collection account"): the operator's own charge, clearing, card-payment and PayPal accounts,
 * kept on its operator row, and what it collected per payment way in a period.
 */
export const COLLECTION_MENU = "finance.financialAcount";

/** Money the operator collected: top-ups and charging paid, once the payment succeeded. */
export const COLLECTED_TYPES = ["Recharge", "Charging"] as const;

/** A sub-operator's accounts are its own profile (subOperatorInfo), not this screen's. */
function requireMain(ctx: UserCtx) {
  if (ctx.operator.sub === 1) throw new Forbidden();
}

async function accountOf(ctx: UserCtx) {
  const [row] = await ctx.db
    .select({
      code: operators.code,
      name: operators.name,
      chargeAccount: operators.chargeAccount,
      clearingAccount: operators.clearingAccount,
      cardPaymentAccount: operators.cardPaymentAccount,
      paypalAccount: operators.paypalAccount,
    })
    .from(operators)
    .where(eq(operators.id, ctx.operator.id))
    .limit(1);
  return row;
}

/** GET /finance-service/collection-account */
export const collectionAccount = verb({ menu: COLLECTION_MENU }, async (ctx) => {
  requireMain(ctx);
  return accountOf(ctx);
});

/** PUT /finance-service/collection-account: an omitted or blank field clears that account. */
export const updateCollectionAccount = verb({ menu: COLLECTION_MENU, mutates: true }, async (ctx, raw: unknown) => {
  requireMain(ctx);
  const input = collectionAccountInput.parse(raw);
  const before = await accountOf(ctx);
  const values = {
    chargeAccount: input.chargeAccount ?? null,
    clearingAccount: input.clearingAccount ?? null,
    cardPaymentAccount: input.cardPaymentAccount ?? null,
    paypalAccount: input.paypalAccount ?? null,
  };
  await ctx.db.batch([
    ctx.db
      .update(operators)
      .set({ ...values, updatedAt: new Date(ctx.now()) })
      .where(eq(operators.id, ctx.operator.id)),
    auditRow(ctx, { table: "operators", module: "collectionAccount", type: "UPDATE", oldData: before, newData: values }),
  ]);
  return accountOf(ctx);
});

/**
 * GET /finance-service/collection-account/totals: successful top-ups and charging payments of a
 * period of local days, summed per type and payment way, in minor units of the operator's currency.
 */
export const collectionTotals = verb({ menu: COLLECTION_MENU }, async (ctx, raw: unknown) => {
  requireMain(ctx);
  const q = collectionTotalsQuery.parse(raw);
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const { from, to } = dayRange(q.from, q.to, settings.timeZone);
  const rows = await ctx.db
    .select({ type: bills.type, paymentMethod: bills.paymentMethod, count: sql<number>`COUNT(*)`, amount: sql<number>`COALESCE(SUM(${bills.cost}), 0)` })
    .from(bills)
    .where(
      owned(
        ctx,
        bills,
        and(eq(bills.status, "PaySuccess"), inArray(bills.type, [...COLLECTED_TYPES]), gte(bills.createdAt, new Date(from)), lt(bills.createdAt, new Date(to))),
      ),
    )
    .groupBy(bills.type, bills.paymentMethod)
    .orderBy(bills.type, bills.paymentMethod);
  const records = rows.map((r) => ({ type: r.type, paymentMethod: r.paymentMethod, count: Number(r.count), amount: Number(r.amount) }));
  const sum = (type?: string) => records.filter((r) => !type || r.type === type).reduce((n, r) => n + r.amount, 0);
  return {
    from: q.from,
    to: q.to,
    currency: settings.currencyCode,
    records,
    totals: { recharge: sum("Recharge"), charging: sum("Charging"), all: sum() },
  };
});
