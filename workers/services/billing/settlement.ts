import { and, eq, exists, inArray, sql, type SQL } from "drizzle-orm";
import { bills, chargeRecords, customerGroups, customers, dailyChargeTotals, idTags, payments, rfCards } from "../../../db/schema";
import type { ChargeRecordState } from "../../../domain/schemas/records";
import { levelAt } from "../../../domain/schemas/wallets";
import { dayKey, localDate } from "../../../domain/time";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { sameTag } from "../drivers/registry";
import type { PricedSession } from "../../../domain/pricing";

/**
 * Who pays a session and how the money moves (docs/rules/billing.md "Who pays", "Debits"). Each
 * function answers statements for one D1 batch: the balance, the bill and the record's state move
 * together or not at all.
 */

/** The account a session is charged to: the customer behind the tag, or its group's leader. */
export interface Payer {
  /** The customer behind the tag (shown on the record). */
  customerId: number;
  /** The customer debited: the same, or the group's leader when the customer pays by LEADER. */
  payerId: number;
  payerName: string;
  memberLevel: "NORMAL" | "SILVER" | "GOLD";
}

/**
 * The customer behind an id tag (docs/rules/drivers.md "RFID cards"): the card's holder, else the
 * customer a tag that is not a card names; null for the operator's remote tag and unknown tags.
 * A customer whose `payWay` is LEADER is charged to the leader of its group, when it has one.
 */
export async function payerOf(ctx: Ctx, idTag: string): Promise<Payer | null> {
  const [cards, tags] = await ctx.db.batch([
    ctx.db.select({ customerId: rfCards.customerId }).from(rfCards).where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag))).limit(1),
    ctx.db.select({ customerId: idTags.customerId }).from(idTags).where(owned(ctx, idTags, sameTag(idTags.idTag, idTag))).limit(1),
  ]);
  const customerId = cards[0]?.customerId ?? tags[0]?.customerId ?? null;
  if (customerId === null) return null;
  const [holder] = await ctx.db
    .select({
      id: customers.id,
      payWay: customers.payWay,
      leaderId: customerGroups.leaderId,
      firstName: customers.firstName,
      lastName: customers.lastName,
      memberLevel: customers.memberLevel,
      memberUntil: customers.memberUntil,
    })
    .from(customers)
    .leftJoin(customerGroups, and(eq(customerGroups.id, customers.groupId), eq(customerGroups.operatorId, ctx.operator.id)))
    .where(owned(ctx, customers, eq(customers.id, customerId)))
    .limit(1);
  if (!holder) return null;
  const payerId = holder.payWay === "LEADER" && holder.leaderId !== null ? holder.leaderId : holder.id;
  // A paid level whose period ended is NORMAL from then on, before the housekeeping lowers it (docs/rules/wallets.md "Membership").
  if (payerId === holder.id) return { customerId, payerId, payerName: `${holder.firstName} ${holder.lastName}`, memberLevel: levelAt(holder, ctx.now()) };
  const [leader] = await ctx.db
    .select({ firstName: customers.firstName, lastName: customers.lastName, memberLevel: customers.memberLevel, memberUntil: customers.memberUntil })
    .from(customers)
    .where(owned(ctx, customers, eq(customers.id, payerId)))
    .limit(1);
  if (!leader) return { customerId, payerId: holder.id, payerName: `${holder.firstName} ${holder.lastName}`, memberLevel: levelAt(holder, ctx.now()) };
  return { customerId, payerId, payerName: `${leader.firstName} ${leader.lastName}`, memberLevel: levelAt(leader, ctx.now()) };
}

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

/** The states a final price may still be settled from (the job, a retry, a settlement the operator starts). */
export const PAYABLE: ChargeRecordState[] = ["CHARGE_COMPLETE", "PAY_FAIL", "RECORD_UNSETTLED"];

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
 */
export function settleStatements(ctx: Ctx, transactionId: number, payer: Payer | null) {
  const now = ctx.now();
  const finalRecord = recordOf(ctx, transactionId, inArray(chargeRecords.status, PAYABLE), eq(chargeRecords.pricingPhase, "FINAL"));
  if (!payer) {
    return [ctx.db.update(chargeRecords).set({ status: "RECORD_UNSETTLED", customerId: null, paidBy: null, updatedAt: new Date(now) }).where(finalRecord)];
  }
  const total = sql`(select ${chargeRecords.totalCost} from ${chargeRecords} where ${finalRecord})`;
  // A session pre-authorised on a card is paid by its capture, not from the balance (docs/rules/payments.md "Sessions paid by card").
  const cardPaid = owned(ctx, payments, eq(payments.transactionId, transactionId), eq(payments.kind, "PRE_AUTH"), inArray(payments.status, ["AUTHORISED", "SUCCEEDED"]));
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
