import { count, desc, eq, gte, lt, sql } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { customers, recharges } from "../../../db/schema";
import { Conflict, Invalid } from "../../../domain/errors";
import { rechargeInput, rechargeQuery } from "../../../domain/schemas/wallets";
import { owned } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { CUSTOMER_MENU, customerName, findCustomer } from "../drivers/customers";
import { operatorSettings } from "../settings/parameter-settings";
import { verb } from "../verb";
import { periodOf } from "../list-period";
import { billFrom, moneyText, movement, transactionCode } from "./ledger";
import { customerJoin } from "../drivers/joins";

/**
 * Recharges (docs/rules/wallets.md "Recharges"): a top-up or a deduction of a customer's balance
 * by an administrator, with its recharge record and its `Recharge` bill, in one D1 batch.
 * Recharging is the recharge screen's; the expense-record screen (watch only) and the customer
 * screen read the records.
 */
export const RECHARGE_MENU = "users.userRecharge";
export const RECHARGE_READ_MENUS = [RECHARGE_MENU, "finance.expenseRecord", CUSTOMER_MENU];

const rechargeColumns = {
  recharge: recharges,
  firstName: customers.firstName,
  lastName: customers.lastName,
  email: customers.email,
};

function presentRecharge(r: { recharge: typeof recharges.$inferSelect; firstName: string | null; lastName: string | null; email: string | null }) {
  const x = r.recharge;
  return {
    id: x.id,
    transactionCode: x.transactionCode,
    customerId: x.customerId,
    customerName: r.firstName === null ? null : customerName({ firstName: r.firstName, lastName: r.lastName ?? "" }),
    way: x.way,
    /** Minor units; negative for a deduction. */
    amount: x.amount,
    balanceBefore: x.balanceBefore,
    balanceAfter: x.balanceAfter,
    thirdPartyCode: x.thirdPartyCode,
    administrator: x.administrator,
    /** The customer's e-mail address (the account recharged). */
    email: r.email,
    remark: x.remark,
    createdAt: x.createdAt.toISOString(),
  };
}
export type Recharge = ReturnType<typeof presentRecharge>;


const insufficient = (ctx: UserCtx, settings: Awaited<ReturnType<typeof operatorSettings>>, balance: number) =>
  new Conflict("wallets.errors.deductionAboveBalance", { balance: moneyText(ctx, settings, balance) });

/**
 * POST /finance-service/recharge: a positive amount tops up (at least the minimum recharge of the
 * parameter settings), a negative one deducts (never below a zero balance). The record, the bill
 * and the balance move in one batch whose balances are read inside it, so concurrent recharges
 * all count (docs/decisions/0045-recharges-guarded-in-one-batch.md).
 */
export const recharge = verb({ menu: RECHARGE_MENU, mutates: true, movesMoney: true }, async (ctx, raw: unknown) => {
  const input = rechargeInput.parse(raw);
  const [customer, settings] = await Promise.all([findCustomer(ctx, input.customerId), operatorSettings(ctx)]);
  if (input.amount > 0 && input.amount < settings.minimumRecharge) {
    throw new Invalid("wallets.validation.minimumRecharge", { minimum: moneyText(ctx, settings, settings.minimumRecharge) }, { amount: "wallets.validation.minimumRecharge" });
  }
  // The friendly pre-check; the schema's check is what holds under concurrency.
  if (input.amount < 0 && customer.balance + input.amount < 0) throw insufficient(ctx, settings, customer.balance);
  const now = ctx.now();
  const code = transactionCode("R", now);
  const remark = input.remark || null;
  const theCustomer = owned(ctx, customers, eq(customers.id, customer.id));
  const theRecharge = owned(ctx, recharges, eq(recharges.transactionCode, code));
  await movement(
    ctx,
    [
      sql`INSERT INTO recharges (operator_id, customer_id, transaction_code, way, amount, balance_before, balance_after, third_party_code, administrator_id, administrator, remark, created_at)
        SELECT ${customers.operatorId}, ${customers.id}, ${code}, 'ADMIN', ${input.amount}, ${customers.balance}, ${customers.balance} + ${input.amount}, NULL,
          ${ctx.actor.accountId}, ${ctx.actor.username}, ${remark}, ${now}
        FROM ${customers} WHERE ${theCustomer}`,
      billFrom(
        sql`SELECT ${recharges.operatorId}, ${recharges.customerId}, ${recharges.amount}, ${recharges.balanceBefore}, ${recharges.balanceAfter},
          ${customers.memberLevel}, ${customers.memberLevel}, 'Recharge', ${recharges.way}, 'PaySuccess', ${recharges.remark}, ${recharges.transactionCode}
        FROM ${recharges} JOIN ${customers} ON ${customerJoin(ctx, recharges.customerId)} WHERE ${theRecharge}`,
        now,
      ),
      ctx.db
        .update(customers)
        .set({ balance: sql`${customers.balance} + ${input.amount}`, updatedAt: new Date(now) })
        .where(owned(ctx, customers, eq(customers.id, customer.id), sql`exists (select 1 from ${recharges} where ${theRecharge})`)),
      auditRow(ctx, { table: "recharges", module: "recharge", type: "CREATE", newData: { ...input, transactionCode: code } }),
    ],
    "recharges_deduction_covered",
    async () => insufficient(ctx, settings, (await findCustomer(ctx, customer.id)).balance),
  );
  const [row] = await ctx.db.select(rechargeColumns).from(recharges).leftJoin(customers, customerJoin(ctx, recharges.customerId)).where(theRecharge).limit(1);
  return presentRecharge(row);
});

/** GET /finance-service/recharge: newest first, filtered by customer, way and period, paged on the server. */
export const listRecharges = verb({ menu: RECHARGE_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = rechargeQuery.parse(raw);
  const { from, to } = await periodOf(ctx, q);
  const where = owned(
    ctx,
    recharges,
    q.customerId ? eq(recharges.customerId, q.customerId) : undefined,
    q.way ? eq(recharges.way, q.way) : undefined,
    from ? gte(recharges.createdAt, from) : undefined,
    to ? lt(recharges.createdAt, to) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select(rechargeColumns)
        .from(recharges)
        .leftJoin(customers, customerJoin(ctx, recharges.customerId))
        .where(where)
        .orderBy(desc(recharges.createdAt), desc(recharges.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(recharges).where(where))[0].total,
  );
  return { ...page, records: page.records.map(presentRecharge) };
});

