import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { bills, chargeRecords, chargeStrategyVersions, customers, payments, transactions } from "../../../db/schema";
import { outboxMessage } from "../../../domain/schemas/outbox";
import { STRIPE } from "../../../domain/schemas/payments";
import { owned, ownedRow } from "../../../tenants/scope";
import { reportError } from "../../http/report-error";
import { PAYABLE, payerOf } from "../billing/settlement";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { enabledChannel, findChannel } from "./channels";
import { cardOnFile, gatewayOf, keyOf } from "./payments";

/**
 * Sessions paid by card (docs/rules/payments.md "Sessions paid by card"): a pre-authorisation of
 * the strategy's `preAuthAmount` on the payer's card on file when the session starts, captured
 * for the session's total when it is billed (Stripe releases the rest), on the outbox queue after
 * the billing job. Such a session is not debited from the balance: its `Charging` bill is the
 * capture's, `STRIPE`, and a refused capture is a `PayFail` bill and a `PAY_FAIL` record that the
 * operator retries from the bill.
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

/**
 * Captures a billed session's pre-authorisation for its total (at most what was authorised) and
 * settles its record by the answer, all in one batch. Idempotent: a captured payment is left
 * alone, and the bill's unique key (transaction, phase) keeps one bill per session. `done: false`
 * only when the processor could not be reached (the queue tries again); a refusal is recorded.
 */
export async function capture(ctx: Ctx, transactionId: number): Promise<{ done: boolean; error?: string }> {
  const payment = await preAuthOf(ctx, transactionId);
  if (!payment || payment.status === "SUCCEEDED" || !payment.intentRef) return { done: true };
  if (payment.status === "PENDING") return { done: false, error: "authorisation not confirmed yet" };
  const [record] = await ctx.db
    .select({ totalCost: chargeRecords.totalCost, status: chargeRecords.status, pricingPhase: chargeRecords.pricingPhase })
    .from(chargeRecords)
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId)))
    .limit(1);
  if (!record || record.pricingPhase !== "FINAL" || !PAYABLE.includes(record.status)) return { done: true };
  const amount = Math.min(record.totalCost ?? 0, payment.amount);
  const channel = await findChannel(ctx, payment.channelId);
  const attempt = payment.status === "FAILED" ? payment.attempt + 1 : payment.attempt;
  const outcome = await (await gatewayOf(ctx, channel)).capture(payment.intentRef, amount, keyOf(ctx, { id: payment.id, attempt }, "capture"));
  if (outcome.status === "PENDING") return { done: false, error: outcome.error ?? "capture pending" };
  const paid = outcome.status === "SUCCEEDED";
  const now = new Date(ctx.now());
  const payer = owned(ctx, customers, eq(customers.id, payment.customerId));
  const balance = sql`(select ${customers.balance} from ${customers} where ${payer})`;
  const level = sql`(select ${customers.memberLevel} from ${customers} where ${payer})`;
  const status = paid ? ("PaySuccess" as const) : ("PayFail" as const);
  const billOf = owned(ctx, bills, eq(bills.transactionId, transactionId), eq(bills.phase, "FINAL"));
  await ctx.db.batch([
    ctx.db
      .insert(bills)
      .values(
        ownedRow(ctx, {
          customerId: payment.customerId,
          cost: amount,
          balanceBefore: balance,
          balanceAfter: balance,
          memberLevelBefore: level,
          memberLevelAfter: level,
          type: "Charging" as const,
          paymentMethod: "STRIPE",
          status,
          transactionNumber: payment.intentRef,
          transactionId,
          phase: "FINAL" as const,
          // The card paid: the balance does not move.
          applied: true,
          createdAt: now,
          updatedAt: now,
        }),
      )
      .onConflictDoUpdate({ target: [bills.operatorId, bills.transactionId, bills.phase], set: { status, cost: amount, updatedAt: now }, setWhere: eq(bills.paymentMethod, "STRIPE") }),
    ctx.db
      .update(payments)
      .set({ status: paid ? "SUCCEEDED" : "FAILED", captured: paid ? outcome.captured || amount : 0, attempt, error: outcome.error, billId: sql`(select ${bills.id} from ${bills} where ${billOf})`, updatedAt: now })
      .where(owned(ctx, payments, eq(payments.id, payment.id), inArray(payments.status, ["AUTHORISED", "FAILED"]))),
    ctx.db
      .update(chargeRecords)
      .set({
        status: paid ? "RECORD_COMPLETE" : "PAY_FAIL",
        customerId: sql`coalesce(${chargeRecords.customerId}, ${payment.customerId})`,
        paidCost: paid ? amount : 0,
        balanceBefore: balance,
        balanceAfter: balance,
        updatedAt: now,
      })
      .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId), inArray(chargeRecords.status, PAYABLE))),
    auditRow(ctx, { table: "payments", module: "payments", type: "UPDATE", newData: { id: payment.id, transactionId, captured: paid ? amount : 0, error: outcome.error } }),
  ]);
  return { done: true, ...(outcome.error ? { error: outcome.error } : {}) };
}

/** The outbox consumer's capture of a billed session (docs/rules/payments.md "Sessions paid by card"). */
export const captureSession = verb({ actors: ["system"] }, (ctx, transactionId: number) => capture(ctx, transactionId));
