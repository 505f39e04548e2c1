import { and, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { bills, chargeRecords, chargeStrategyVersions, customers, payments, transactions } from "../../../db/schema";
import { outboxMessage } from "../../../domain/schemas/outbox";
import { Conflict } from "../../../domain/errors";
import type { BillPhase, BillStatus } from "../../../domain/schemas/bills";
import { STRIPE } from "../../../domain/schemas/payments";
import { owned, ownedRow } from "../../../tenants/scope";
import { reportError } from "../../http/report-error";
import { PAYABLE } from "../charge-records/states";
import { payerOf } from "../drivers/payer";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { enabledChannel, findChannel } from "./channels";
import type { PaymentOutcome } from "./gateway";
import { cardOnFile, chargeCard, gatewayOf, keyOf } from "./cards";

/**
 * Sessions paid by card (docs/rules/payments.md "Sessions paid by card"): a pre-authorisation of
 * the strategy's `preAuthAmount` on the payer's card on file when the session starts, captured
 * for the session's total when it is billed (Stripe releases the rest), on the outbox queue after
 * the billing job. Such a session is not debited from the balance: its `Charging` bills are the
 * card's, `STRIPE` (the capture; a charge of what the total exceeds the authorisation by; a
 * refund of what a capture took above a total lowered since), and a refused one is a `PayFail`
 * bill and a `PAY_FAIL` record that the operator retries from the bill.
 */

/**
 * Puts a started session's pre-authorisation on the outbox queue when the operator takes cards
 * (an enabled Stripe channel): the charger's answer never waits for the processor.
 */
export async function queueAuthorisation(ctx: Ctx, transactionId: number) {
  try {
    if (!(await enabledChannel(ctx, STRIPE))) return;
    await ctx.env.OUTBOX.send(outboxMessage.parse({ kind: "authorise", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, transactionId }));
  } catch (error) {
    // The charger's StartTransaction is answered whatever happens here; the session is then paid from the balance.
    reportError("payments", error, { transactionId });
  }
}

/** The session's pre-authorisation, if any. */
export async function preAuthOf(ctx: Ctx, transactionId: number) {
  const [row] = await ctx.db
    .select()
    .from(payments)
    .where(owned(ctx, payments, eq(payments.transactionId, transactionId), eq(payments.kind, "PRE_AUTH")))
    .orderBy(desc(payments.id))
    .limit(1);
  return row;
}

/**
 * Pre-authorises a started session: when its strategy asks for a pre-authorisation, its payer has
 * a card on file and the operator an enabled Stripe channel. Anything missing: nothing happens
 * (the session is paid from the balance as before). Idempotent per transaction; the outbox
 * queue calls it after the start (`queueAuthorisation`) and again while the answer is unknown.
 */
export const authoriseSession = verb({ actors: ["system"] }, async (ctx, transactionId: number) => {
  const existing = await preAuthOf(ctx, transactionId);
  if (existing && existing.status !== "PENDING") return { authorised: false as const, reason: "exists" as const };
  const [tx] = await ctx.db
    .select({ idTag: transactions.idTag, prices: chargeStrategyVersions.prices })
    .from(transactions)
    .leftJoin(chargeStrategyVersions, and(eq(chargeStrategyVersions.id, transactions.strategyVersionId), eq(chargeStrategyVersions.operatorId, transactions.operatorId)))
    .where(owned(ctx, transactions, eq(transactions.id, transactionId)))
    .limit(1);
  const amount = tx?.prices?.preAuthAmount ?? 0;
  if (!tx || amount <= 0) return { authorised: false as const, reason: "noPreAuth" as const };
  const payer = await payerOf(ctx, tx.idTag);
  const channel = await enabledChannel(ctx, STRIPE);
  const card = payer ? await cardOnFile(ctx, payer.payerId) : undefined;
  if (!payer || !channel || !card) return { authorised: false as const, reason: "noCard" as const };
  const now = new Date(ctx.now());
  // A request whose answer never came is asked again with the same key: the same payment at Stripe.
  const payment =
    existing ??
    (
      await ctx.db
        .insert(payments)
        .values(
          ownedRow(ctx, {
            customerId: payer.payerId,
            channelId: channel.id,
            kind: "PRE_AUTH" as const,
            status: "PENDING" as const,
            amount,
            currency: channel.currency,
            transactionId,
            createdAt: now,
            updatedAt: now,
          }),
        )
        .returning()
    )[0];
  const outcome = await (await gatewayOf(ctx, channel)).createPayment({
    amount: payment.amount,
    currency: payment.currency,
    customerRef: card.customerRef,
    paymentMethodRef: card.paymentMethodRef,
    authoriseOnly: true,
    idempotencyKey: keyOf(ctx, payment, "authorise"),
    metadata: { operatorId: String(ctx.operator.id), paymentId: String(payment.id), kind: "PRE_AUTH", transactionId: String(transactionId) },
  });
  const status = outcome.status === "AUTHORISED" ? "AUTHORISED" : outcome.status === "FAILED" ? "FAILED" : "PENDING";
  await ctx.db
    .update(payments)
    .set({ status, intentRef: outcome.ref, error: outcome.error, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, payments, eq(payments.id, payment.id), eq(payments.status, "PENDING")));
  return { authorised: status === "AUTHORISED", reason: status, paymentId: payment.id };
});

type Payment = typeof payments.$inferSelect;
type Outcome = { done: boolean; error?: string };

/** A session's card bills: the capture (`FINAL`), the charge above it (`REMAINDER`), the refund (`REFUND`). */
const cardBills = (ctx: Ctx, transactionId: number, ...conditions: SQL[]) =>
  owned(ctx, bills, eq(bills.transactionId, transactionId), eq(bills.paymentMethod, "STRIPE"), ...conditions);

/**
 * One card movement of a session as its bill (docs/rules/payments.md "Sessions paid by card"):
 * one row per (transaction, phase), so a movement asked for again rewrites its own bill and never
 * adds one. The balance does not move: before = after.
 */
function cardBill(ctx: Ctx, p: { customerId: number; transactionId: number }, phase: BillPhase, cost: number, status: BillStatus, number: string | null) {
  const now = new Date(ctx.now());
  const payer = owned(ctx, customers, eq(customers.id, p.customerId));
  const balance = sql`(select ${customers.balance} from ${customers} where ${payer})`;
  const level = sql`(select ${customers.memberLevel} from ${customers} where ${payer})`;
  return ctx.db
    .insert(bills)
    .values(
      ownedRow(ctx, {
        customerId: p.customerId,
        cost,
        balanceBefore: balance,
        balanceAfter: balance,
        memberLevelBefore: level,
        memberLevelAfter: level,
        type: "Charging" as const,
        paymentMethod: "STRIPE",
        status,
        transactionNumber: number,
        transactionId: p.transactionId,
        phase,
        // The card paid: the balance does not move.
        applied: true,
        createdAt: now,
        updatedAt: now,
      }),
    )
    .onConflictDoUpdate({
      target: [bills.operatorId, bills.transactionId, bills.phase],
      set: { status, cost, transactionNumber: sql`coalesce(${number}, ${bills.transactionNumber})`, updatedAt: now },
      setWhere: eq(bills.paymentMethod, "STRIPE"),
    });
}

/**
 * The record's state from its card bills, in the batch that wrote the last of them: `PAY_FAIL`
 * while a charge (capture or remainder) failed, unchanged while one is still `Paying`, else
 * `RECORD_COMPLETE`; `paidCost` is what the card bills took, refunds deducted. A refused refund
 * leaves the record paid: the driver is owed, the operator retries it from its bill.
 */
function recordOutcome(ctx: Ctx, transactionId: number, customerId: number) {
  const bill = (...conditions: SQL[]) => sql`(select 1 from ${bills} where ${cardBills(ctx, transactionId, ...conditions)})`;
  const paid = sql`(select coalesce(sum(${bills.cost}), 0) from ${bills} where ${cardBills(ctx, transactionId, eq(bills.status, "PaySuccess"))})`;
  const failed = sql`exists ${bill(eq(bills.status, "PayFail"), ne(bills.phase, "REFUND"))}`;
  const paying = sql`exists ${bill(eq(bills.status, "Paying"))}`;
  const balance = sql`(select ${customers.balance} from ${customers} where ${owned(ctx, customers, eq(customers.id, customerId))})`;
  return ctx.db
    .update(chargeRecords)
    .set({
      status: sql`case when ${failed} then 'PAY_FAIL' when ${paying} then ${chargeRecords.status} else 'RECORD_COMPLETE' end`,
      customerId: sql`coalesce(${chargeRecords.customerId}, ${customerId})`,
      paidCost: paid,
      balanceBefore: balance,
      balanceAfter: balance,
      updatedAt: new Date(ctx.now()),
    })
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId), inArray(chargeRecords.status, [...PAYABLE, "RECORD_COMPLETE"])));
}

/** Captures the pre-authorisation for the total, at most what was authorised; the bill `FINAL` records it. */
async function captureAuthorised(ctx: Ctx, payment: Payment, transactionId: number, total: number): Promise<Outcome> {
  const amount = Math.min(total, payment.amount);
  const channel = await findChannel(ctx, payment.channelId);
  const attempt = payment.status === "FAILED" ? payment.attempt + 1 : payment.attempt;
  const outcome = await (await gatewayOf(ctx, channel)).capture(payment.intentRef!, amount, keyOf(ctx, { id: payment.id, attempt }, "capture"));
  if (outcome.status === "PENDING") return { done: false, error: outcome.error ?? "capture pending" };
  const paid = outcome.status === "SUCCEEDED";
  const captured = paid ? outcome.captured || amount : 0;
  const billOf = owned(ctx, bills, eq(bills.transactionId, transactionId), eq(bills.phase, "FINAL"));
  await ctx.db.batch([
    cardBill(ctx, { customerId: payment.customerId, transactionId }, "FINAL", amount, paid ? "PaySuccess" : "PayFail", payment.intentRef),
    ctx.db
      .update(payments)
      .set({ status: paid ? "SUCCEEDED" : "FAILED", captured, attempt, error: outcome.error, billId: sql`(select ${bills.id} from ${bills} where ${billOf})`, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, payments, eq(payments.id, payment.id), inArray(payments.status, ["AUTHORISED", "FAILED"]))),
    // The charge above the authorisation is due with the capture: the record stays unpaid until it is answered.
    ...(paid && total > captured ? remainderStatements(ctx, payment, transactionId, total - captured) : []),
    recordOutcome(ctx, transactionId, payment.customerId),
    auditRow(ctx, { table: "payments", module: "payments", type: "UPDATE", newData: { id: payment.id, transactionId, captured: paid ? amount : 0, error: outcome.error } }),
  ]);
  return { done: true, ...(outcome.error ? { error: outcome.error } : {}) };
}

/** The session's charge above its pre-authorisation, if one was asked for. */
const remainderOf = async (ctx: Ctx, transactionId: number) =>
  (
    await ctx.db
      .select()
      .from(payments)
      .where(owned(ctx, payments, eq(payments.transactionId, transactionId), eq(payments.kind, "REMAINDER")))
      .orderBy(desc(payments.id))
      .limit(1)
  )[0];

/**
 * What a charge above the pre-authorisation came to (its answer, or its webhook): the payment,
 * its `REMAINDER` bill and the record, in one batch guarded by the payment's state, so an answer
 * and a webhook for the same charge settle it once.
 */
export async function settleRemainder(ctx: Ctx, payment: Payment, outcome: Pick<PaymentOutcome, "ref" | "captured" | "error"> & { paid: boolean }) {
  const transactionId = payment.transactionId!;
  await ctx.db.batch([
    ctx.db
      .update(payments)
      .set({ status: outcome.paid ? "SUCCEEDED" : "FAILED", captured: outcome.paid ? outcome.captured || payment.amount : 0, intentRef: outcome.ref ?? payment.intentRef, error: outcome.error, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, payments, eq(payments.id, payment.id), eq(payments.status, "PENDING"))),
    ctx.db
      .update(bills)
      .set({ status: outcome.paid ? "PaySuccess" : "PayFail", transactionNumber: outcome.ref ?? payment.intentRef, updatedAt: new Date(ctx.now()) })
      .where(
        owned(
          ctx,
          bills,
          eq(bills.transactionId, transactionId),
          eq(bills.phase, "REMAINDER"),
          eq(bills.status, "Paying"),
          sql`exists (select 1 from ${payments} where ${owned(ctx, payments, eq(payments.id, payment.id), eq(payments.status, outcome.paid ? "SUCCEEDED" : "FAILED"))})`,
        ),
      ),
    recordOutcome(ctx, transactionId, payment.customerId),
  ]);
}

/** The charge above the pre-authorisation, asked for: its `REMAINDER` bill `Paying` and its payment `PENDING`, once. */
function remainderStatements(ctx: Ctx, preAuth: Payment, transactionId: number, amount: number) {
  const now = ctx.now();
  const theBill = owned(ctx, bills, eq(bills.transactionId, transactionId), eq(bills.phase, "REMAINDER"));
  const asked = owned(ctx, payments, eq(payments.transactionId, transactionId), eq(payments.kind, "REMAINDER"));
  return [
    cardBill(ctx, { customerId: preAuth.customerId, transactionId }, "REMAINDER", amount, "Paying", null),
    ctx.db
      .insert(payments)
      .select(
        sql`select null, ${ctx.operator.id}, ${preAuth.customerId}, ${preAuth.channelId}, 'REMAINDER', 'PENDING', ${amount}, 0, 0, ${preAuth.currency}, null,
              ${bills.id}, ${transactionId}, 1, null, ${now}, ${now}
            from ${bills} where ${theBill} and not exists (select 1 from ${payments} where ${asked})`,
      ),
  ] as const;
}

/**
 * Charges what the session cost above the captured pre-authorisation: a new PaymentIntent,
 * off-session and captured at once, on the card on file (docs/decisions/0065-charges-above-the-pre-authorisation.md).
 * Its payment and `REMAINDER` bill (`Paying`) are written before Stripe is asked, so the key of a
 * call whose answer was lost is asked again as the same payment.
 */
async function chargeRemainder(ctx: Ctx, preAuth: Payment, transactionId: number, amount: number): Promise<Outcome> {
  let payment = await remainderOf(ctx, transactionId);
  if (payment && payment.status !== "PENDING") return { done: true, ...(payment.error ? { error: payment.error } : {}) };
  if (!payment) {
    await ctx.db.batch([...remainderStatements(ctx, preAuth, transactionId, amount), recordOutcome(ctx, transactionId, preAuth.customerId)]);
    payment = (await remainderOf(ctx, transactionId))!;
  }
  const card = await cardOnFile(ctx, payment.customerId);
  const outcome = card
    ? await chargeCard(ctx, payment, await findChannel(ctx, payment.channelId), card, { transactionId: String(transactionId) })
    : ({ ref: null, status: "FAILED", captured: 0, error: "no card on file" } satisfies PaymentOutcome);
  if (outcome.status === "PENDING" || outcome.status === "AUTHORISED") {
    if (outcome.ref) await ctx.db.update(payments).set({ intentRef: outcome.ref }).where(owned(ctx, payments, eq(payments.id, payment.id)));
    return { done: false, error: outcome.error ?? "charge pending" };
  }
  await settleRemainder(ctx, payment, { ...outcome, paid: outcome.status === "SUCCEEDED" });
  return { done: true, ...(outcome.error ? { error: outcome.error } : {}) };
}

/**
 * Gives back what the card paid above the session's total (a total lowered after the capture):
 * one refund of the difference on the pre-authorised payment, its `REFUND` bill with the amount
 * negative, as a recharge deduction is. The key names what was refunded before and the attempt,
 * so a repeated call is the same refund and a retry a new one.
 */
async function refundDifference(ctx: Ctx, payment: Payment, transactionId: number, over: number): Promise<Outcome> {
  const channel = await findChannel(ctx, payment.channelId);
  const answer = await (await gatewayOf(ctx, channel)).refund(payment.intentRef!, over, keyOf(ctx, payment, `refund${payment.refunded}`));
  const ok = answer.ref !== null;
  await ctx.db.batch([
    ctx.db
      .update(payments)
      .set({ refunded: ok ? payment.refunded + over : payment.refunded, error: answer.error, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, payments, eq(payments.id, payment.id), eq(payments.refunded, payment.refunded))),
    cardBill(ctx, { customerId: payment.customerId, transactionId }, "REFUND", -(ok ? payment.refunded + over : over), ok ? "PaySuccess" : "PayFail", answer.ref),
    recordOutcome(ctx, transactionId, payment.customerId),
    auditRow(ctx, { table: "payments", module: "payments", type: "UPDATE", newData: { id: payment.id, transactionId, refunded: ok ? over : 0, error: answer.error } }),
  ]);
  return { done: true, ...(answer.error ? { error: answer.error } : {}) };
}

/**
 * Settles a billed session paid by card against its total (docs/rules/payments.md "Sessions paid
 * by card"): captures the pre-authorisation for the total, at most what was authorised (Stripe
 * releases the rest); charges what the total exceeds it by; refunds what a capture took above a
 * total lowered since. Each movement is a bill of its own and the record follows them. Idempotent:
 * a movement done is not done again. `done: false` only when the processor could not be reached
 * (the queue tries again with the same keys); a refusal is recorded for the operator to retry.
 */
export async function capture(ctx: Ctx, transactionId: number): Promise<Outcome> {
  let payment = await preAuthOf(ctx, transactionId);
  if (!payment || !payment.intentRef) return { done: true };
  if (payment.status === "PENDING") return { done: false, error: "authorisation not confirmed yet" };
  const [record] = await ctx.db
    .select({ totalCost: chargeRecords.totalCost, status: chargeRecords.status, pricingPhase: chargeRecords.pricingPhase })
    .from(chargeRecords)
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId)))
    .limit(1);
  if (!record || record.pricingPhase !== "FINAL") return { done: true };
  const total = record.totalCost ?? 0;
  if (payment.status !== "SUCCEEDED") {
    if (!PAYABLE.includes(record.status)) return { done: true };
    const captured = await captureAuthorised(ctx, payment, transactionId, total);
    payment = (await preAuthOf(ctx, transactionId))!;
    if (!captured.done || payment.status !== "SUCCEEDED") return captured;
  }
  if (total > payment.captured) return chargeRemainder(ctx, payment, transactionId, total - payment.captured);
  const over = payment.captured - payment.refunded - total;
  if (over > 0) return refundDifference(ctx, payment, transactionId, over);
  return { done: true };
}

/**
 * The operator's retry of a session's failed card movement (docs/rules/payments.md "Retries"):
 * the failed step is claimed with its next attempt (a new idempotency key), then the session is
 * settled again. Only the bill's own step is retried.
 */
export async function retrySessionPayment(ctx: Ctx, bill: { id: number; transactionId: number; phase: BillPhase | null }): Promise<Outcome> {
  const now = new Date(ctx.now());
  if (bill.phase === "REMAINDER") {
    const [claimed] = await ctx.db.batch([
      ctx.db
        .update(payments)
        .set({ status: "PENDING", attempt: sql`${payments.attempt} + 1`, error: null, updatedAt: now })
        // Two retries at once: one claims the failed charge.
        .where(owned(ctx, payments, eq(payments.transactionId, bill.transactionId), eq(payments.kind, "REMAINDER"), eq(payments.status, "FAILED")))
        .returning(),
      ctx.db.update(bills).set({ status: "Paying", updatedAt: now }).where(owned(ctx, bills, eq(bills.id, bill.id), eq(bills.status, "PayFail"))),
    ]);
    if (!claimed.length) throw new Conflict("payments.errors.notFailed");
  } else if (bill.phase === "REFUND") {
    // A refused refund is asked again under the next attempt's key.
    await ctx.db
      .update(payments)
      .set({ attempt: sql`${payments.attempt} + 1`, updatedAt: now })
      .where(owned(ctx, payments, eq(payments.transactionId, bill.transactionId), eq(payments.kind, "PRE_AUTH"), eq(payments.status, "SUCCEEDED")));
  }
  await ctx.db.batch([
    auditRow(ctx, { table: "bills", module: "payments", type: "UPDATE", oldData: { id: bill.id, status: "PayFail" }, newData: { id: bill.id, action: "retry" } }),
  ]);
  return capture(ctx, bill.transactionId);
}

/** The outbox consumer's capture of a billed session (docs/rules/payments.md "Sessions paid by card"). */
export const captureSession = verb({ actors: ["system"] }, (ctx, transactionId: number) => capture(ctx, transactionId));
