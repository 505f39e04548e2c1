import { count, desc, eq, gte, lt } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { bills, customers } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { billListQuery } from "../../../domain/schemas/wallets";
import { owned } from "../../../tenants/scope";
import { CUSTOMER_MENU, customerName } from "../drivers/customers";
import { verb } from "../verb";
import { periodOf } from "../list-period";
import { customerJoin } from "../drivers/joins";

/**
 * Bills and expense records (docs/rules/wallets.md "Bills"): every movement of a balance, read by
 * the bill screen (which manages them), the expense-record screen (watch only) and the customer
 * screen. `Charging` bills come from the billing job, `Recharge` and `Member` from this area.
 */
export const BILL_MENU = "finance.billManagement";
export const BILL_READ_MENUS = [BILL_MENU, "finance.expenseRecord", CUSTOMER_MENU];

const billColumns = { bill: bills, firstName: customers.firstName, lastName: customers.lastName, email: customers.email };

function presentBill(r: { bill: typeof bills.$inferSelect; firstName: string | null; lastName: string | null; email: string | null }) {
  const b = r.bill;
  return {
    id: b.id,
    customerId: b.customerId,
    customerName: r.firstName === null ? null : customerName({ firstName: r.firstName, lastName: r.lastName ?? "" }),
    email: r.email,
    /** Minor units: what moved (a `Recharge` deduction is negative). */
    cost: b.cost,
    balanceBefore: b.balanceBefore,
    balanceAfter: b.balanceAfter,
    memberLevelBefore: b.memberLevelBefore,
    memberLevelAfter: b.memberLevelAfter,
    type: b.type,
    paymentMethod: b.paymentMethod,
    status: b.status,
    /** A `Member` bill's source: 1 an administrator's account, 2 a new card, 3 an existing card. */
    remark: b.remark,
    transactionNumber: b.transactionNumber,
    /** The charging transaction a `Charging` bill debited. */
    transactionId: b.transactionId,
    /** A `Charging` bill's movement: `FINAL` the session's debit or capture, `REMAINDER` a card charge above the pre-authorisation, `REFUND` a refund (docs/rules/payments.md "Sessions paid by card"). */
    phase: b.phase,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}
export type Bill = ReturnType<typeof presentBill>;

/** GET /finance-service/bill: newest first, filtered by customer, type, status and period. */
export const listBills = verb({ menu: BILL_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = billListQuery.parse(raw);
  const { from, to } = await periodOf(ctx, q);
  const where = owned(
    ctx,
    bills,
    q.customerId ? eq(bills.customerId, q.customerId) : undefined,
    q.type ? eq(bills.type, q.type) : undefined,
    q.status ? eq(bills.status, q.status) : undefined,
    from ? gte(bills.createdAt, from) : undefined,
    to ? lt(bills.createdAt, to) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db.select(billColumns).from(bills).leftJoin(customers, customerJoin(ctx, bills.customerId)).where(where).orderBy(desc(bills.createdAt), desc(bills.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(bills).where(where))[0].total,
  );
  return { ...page, records: page.records.map(presentBill) };
});

/** GET /finance-service/bill/{id}: another operator's bill is 404. */
export const billDetail = verb({ menu: BILL_READ_MENUS }, async (ctx, id: number) => {
  const [row] = await ctx.db.select(billColumns).from(bills).leftJoin(customers, customerJoin(ctx, bills.customerId)).where(owned(ctx, bills, eq(bills.id, id))).limit(1);
  if (!row) throw new NotFound("wallets.errors.billNotFound");
  return presentBill(row);
});
