import { eq, exists, inArray, sql, type SQL } from "drizzle-orm";
import { bills, chargeRecords, customers, dailyChargeTotals, payments } from "../../../db/schema";
import { dayKey, localDate } from "../../../domain/time";
import { owned } from "../../../tenants/scope";
import { PAYABLE } from "../charge-records/states";
import type { Ctx } from "../context";
import type { Payer } from "../drivers/payer";
import type { PricedSession } from "../../../domain/pricing";

/**
 * Who pays a session and how the money moves (docs/rules/billing.md "Who pays", "Debits"). Each
 * function answers statements for one D1 batch: the balance, the bill and the record's state move
 * together or not at all.
 */

/** The cost columns of a record, from the engine's answer. */
export function costColumns(priced: PricedSession) {
  const sumOf = (kind: string) => priced.lines.filter((l) => l.kind === kind).reduce((t, l) => t + l.amount, 0);
  return {
    electricCost: priced.electricCost,
    serviceCost: priced.serviceCost,
    reservationCost: priced.reservationCost,
    occupancyCost: priced.occupancyCost,
    idleDuringCost: sumOf("IDLE_DURING"),
    idleAfterCost: sumOf("IDLE_AFTER"),
    discountCost: priced.discountCost,
    memberDiscountCost: priced.memberDiscountCost,
    cardDiscountCost: priced.cardDiscountCost,
    voucherCost: priced.voucherCost,
    taxCost: priced.taxCost,
    totalCost: priced.totalCost,
  };
}

const recordOf = (ctx: Ctx, transactionId: number, ...conditions: SQL[]) =>
  owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId), ...conditions);

/**
 * The revenue of the session's day changed by what a repricing adds (new total less the
 * provisional one), before the record takes the new total; only while the record is provisional,
 * so a repricing applied twice adds once (docs/rules/records.md "Daily totals").
 */
export function repricedTotalsStatement(ctx: Ctx, t: { transactionId: number; pointId: number; startAt: Date }, newTotal: number, timeZone: string) {
  const day = dayKey(localDate(t.startAt.getTime(), timeZone));
  const provisional = recordOf(ctx, t.transactionId, eq(chargeRecords.pricingPhase, "PROVISIONAL"));
  const oldTotal = ctx.db.select({ total: sql`coalesce(${chargeRecords.totalCost}, 0)` }).from(chargeRecords).where(provisional);
  return ctx.db
    .update(dailyChargeTotals)
    .set({ revenue: sql`${dailyChargeTotals.revenue} + ${newTotal} - (${oldTotal})` })
    .where(
      owned(
        ctx,
        dailyChargeTotals,
        eq(dailyChargeTotals.day, day),
        eq(dailyChargeTotals.pointId, t.pointId),
        exists(ctx.db.select({ one: sql`1` }).from(chargeRecords).where(provisional)),
      ),
    );
}

/**
 * The debit of a finally priced record (docs/decisions/0043-one-debit-per-transaction-and-phase.md):
 *
 * 1. a `Charging` bill for the record's total, `PaySuccess` when the balance less the total stays
 *    at or above minus the overdraft credit, else `PayFail` with the balance unchanged; its unique
 *    key (transaction, phase) makes a second job's insert a no-op;
 *    a `PayFail` bill is tried again (a retry, a later settlement) by the same rule;
 * 2. the balance moves by a `PaySuccess` bill not yet applied, and the bill is marked applied;
 * 3. the record takes the bill's outcome: RECORD_COMPLETE with what was paid and the balance
 *    before and after, or PAY_FAIL; RECORD_UNSETTLED when nobody is behind the tag.
 *
 * Only a record in CHARGE_COMPLETE, PAY_FAIL or RECORD_UNSETTLED with its final price is settled.
 *
 * `balancePayment`: the operator's parameter setting. Off, no balance moves: a session paid by
 * card still follows its card bills, any other record is RECORD_UNSETTLED with the reason
 * `BALANCE_PAYMENT_OFF`, for the cashier (docs/rules/billing.md "Paying from the balance off").
 */
export function settleStatements(ctx: Ctx, transactionId: number, payer: Payer | null, balancePayment: boolean) {
  const now = ctx.now();
  const finalRecord = recordOf(ctx, transactionId, inArray(chargeRecords.status, PAYABLE), eq(chargeRecords.pricingPhase, "FINAL"));
  if (!payer) {
    return [
      ctx.db
        .update(chargeRecords)
        // A partner's driver at our charger is owed by the partner, never a wallet (docs/rules/billing.md "Roaming at our chargers").
        .set({
          status: "RECORD_UNSETTLED",
          customerId: null,
          paidBy: null,
          unsettledReason: sql<"NO_PAYER" | "ROAMING_PARTNER">`case when ${chargeRecords.roamingPlatformId} is null then 'NO_PAYER' else 'ROAMING_PARTNER' end`,
          updatedAt: new Date(now),
        })
        .where(finalRecord),
    ];
  }
  // A session pre-authorised on a card is paid by its capture, not from the balance (docs/rules/payments.md "Sessions paid by card").
  const cardPaid = owned(ctx, payments, eq(payments.transactionId, transactionId), eq(payments.kind, "PRE_AUTH"), inArray(payments.status, ["AUTHORISED", "SUCCEEDED"]));
  if (!balancePayment) {
    return [
      ctx.db
        .update(chargeRecords)
        .set({ status: "RECORD_UNSETTLED", customerId: payer.customerId, paidBy: null, unsettledReason: "BALANCE_PAYMENT_OFF", updatedAt: new Date(now) })
        .where(recordOf(ctx, transactionId, inArray(chargeRecords.status, PAYABLE), eq(chargeRecords.pricingPhase, "FINAL"), sql`not exists (select 1 from ${payments} where ${cardPaid})`)),
    ];
  }
  const total = sql`(select ${chargeRecords.totalCost} from ${chargeRecords} where ${finalRecord})`;
  const enough = sql`${customers.balance} - ${total} >= -${customers.overdraftCredit}`;
  const billOf = owned(ctx, bills, eq(bills.transactionId, transactionId), eq(bills.phase, "FINAL"));
  const billWhere = (...conditions: SQL[]) => owned(ctx, bills, eq(bills.transactionId, transactionId), eq(bills.phase, "FINAL"), ...conditions);
  const insertBill = ctx.db
    .insert(bills)
    .select(
      sql`select null, ${customers.operatorId}, ${customers.id}, ${total}, ${customers.balance},
            case when ${enough} then ${customers.balance} - ${total} else ${customers.balance} end,
            ${customers.memberLevel}, ${customers.memberLevel}, 'Charging', 'BALANCE',
            case when ${enough} then 'PaySuccess' else 'PayFail' end,
            null, ${String(transactionId)}, ${transactionId}, 'FINAL', 0, ${now}, ${now}
          from ${customers} where ${owned(ctx, customers, eq(customers.id, payer.payerId))} and exists (select 1 from ${chargeRecords} where ${finalRecord})
            and not exists (select 1 from ${payments} where ${cardPaid})`,
    )
    .onConflictDoNothing();
  const payer_ = owned(ctx, customers, eq(customers.id, payer.payerId));
  const payerWhere = (...conditions: SQL[]) => owned(ctx, customers, eq(customers.id, payer.payerId), ...conditions);
  const retryFailed = ctx.db
    .update(bills)
    .set({
      status: "PaySuccess",
      cost: sql`${total}`,
      balanceBefore: sql`(select ${customers.balance} from ${customers} where ${payer_})`,
      balanceAfter: sql`(select ${customers.balance} - ${total} from ${customers} where ${payer_})`,
      updatedAt: new Date(now),
    })
    .where(
      billWhere(
        eq(bills.status, "PayFail"),
        eq(bills.paymentMethod, "BALANCE"),
        eq(bills.customerId, payer.payerId),
        exists(ctx.db.select({ one: sql`1` }).from(customers).where(payerWhere(sql`${enough}`))),
      ),
    );
  const unapplied = billWhere(eq(bills.status, "PaySuccess"), eq(bills.applied, false));
  const debit = ctx.db
    .update(customers)
    .set({ balance: sql`${customers.balance} - (select ${bills.cost} from ${bills} where ${unapplied})`, updatedAt: new Date(now) })
    .where(payerWhere(exists(ctx.db.select({ one: sql`1` }).from(bills).where(unapplied))));
  const applied = ctx.db.update(bills).set({ applied: true }).where(unapplied);
  const billColumn = (column: (typeof bills)[keyof typeof bills.$inferSelect]) => sql`(select ${column} from ${bills} where ${billOf})`;
  const outcome = ctx.db
    .update(chargeRecords)
    .set({
      status: sql`case ${billColumn(bills.status)} when 'PaySuccess' then 'RECORD_COMPLETE' else 'PAY_FAIL' end`,
      customerId: payer.customerId,
      paidBy: payer.payerName,
      paidCost: sql`case ${billColumn(bills.status)} when 'PaySuccess' then ${billColumn(bills.cost)} else 0 end`,
      balanceBefore: billColumn(bills.balanceBefore),
      balanceAfter: billColumn(bills.balanceAfter),
      unsettledReason: null,
      updatedAt: new Date(now),
    })
    .where(
      recordOf(
        ctx,
        transactionId,
        inArray(chargeRecords.status, PAYABLE),
        eq(chargeRecords.pricingPhase, "FINAL"),
        exists(ctx.db.select({ one: sql`1` }).from(bills).where(billOf)),
        // A card session's record follows its card bills (workers/services/payments/capture.ts), never the balance's.
        sql`not exists (select 1 from ${payments} where ${cardPaid})`,
      ),
    );
  return [insertBill, retryFailed, debit, applied, outcome];
}
