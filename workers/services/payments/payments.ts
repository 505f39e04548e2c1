import { desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { bills, customers, paymentCards, paymentChannels, payments, paymentWebhookEvents, recharges } from "../../../db/schema";
import { pageOf } from "../../../db/paging";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { CHANNEL_TYPES, cardTopUpInput, channelTopUpInput, PAYPAL, paymentCardInput, paymentQuery, STRIPE, SUPPORTED_CHANNEL_TYPES, wayOfChannel } from "../../../domain/schemas/payments";
import { operatorByCode } from "../../../tenants/resolve";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { transactionCode } from "../wallets/ledger";
import { systemCtx, type Ctx } from "../context";
import { verb } from "../verb";
import { adHocAuthorised } from "./ad-hoc";
import { preAuthOf, retrySessionPayment, settleRemainder } from "./capture";
import { cardOnFile, chargeCard, gatewayOf } from "./cards";
import { enabledChannel, findChannel } from "./channels";
import type { PaymentEvent, PaymentOutcome } from "./gateway";

/**
 * Card payments through a channel's gateway (docs/rules/payments.md "Payments"): top-ups charged
 * to a customer's card on file, which become balance only when the processor's signed webhook
 * says the money arrived; retries of a failed payment; the webhook itself.
 */

export const TOP_UP_MENU = "users.userRecharge";
export const BILL_MENU = "finance.billManagement";
export const CARD_MENU = "users.userProfile";

type Channel = Awaited<ReturnType<typeof findChannel>>;
type Payment = typeof payments.$inferSelect;

const paymentWhere = (ctx: Ctx, id: number, ...conditions: SQL[]) => owned(ctx, payments, eq(payments.id, id), ...conditions);
const billWhere = (ctx: Ctx, id: number, ...conditions: SQL[]) => owned(ctx, bills, eq(bills.id, id), ...conditions);

function presentPayment(p: Payment) {
  return {
    id: p.id,
    customerId: p.customerId,
    channelId: p.channelId,
    kind: p.kind,
    status: p.status,
    amount: p.amount,
    captured: p.captured,
    refunded: p.refunded,
    currency: p.currency,
    intentRef: p.intentRef,
    billId: p.billId,
    transactionId: p.transactionId,
    attempt: p.attempt,
    error: p.error,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

async function customerOf(ctx: Ctx, id: number) {
  const [row] = await ctx.db.select({ id: customers.id, balance: customers.balance }).from(customers).where(owned(ctx, customers, eq(customers.id, id))).limit(1);
  if (!row) throw new NotFound();
  return row;
}

/** PUT /customer-service/customer/{id}/payment-card: the Stripe customer and card, or the PayPal customer and vault, kept on file. */
export const setPaymentCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, customerId: number, raw: unknown) => {
  const input = paymentCardInput.parse(raw);
  await customerOf(ctx, customerId);
  const now = new Date(ctx.now());
  const values = { customerRef: input.customerRef, paymentMethodRef: input.paymentMethodRef, updatedAt: now };
  await ctx.db.batch([
    ctx.db
      .insert(paymentCards)
      .values(ownedRow(ctx, { ...values, customerId, channelType: input.channelType, createdAt: now }))
      .onConflictDoUpdate({ target: [paymentCards.operatorId, paymentCards.customerId, paymentCards.channelType], set: values }),
    auditRow(ctx, { table: "payment_cards", module: "payments", type: "UPDATE", newData: { customerId, ...input } }),
  ]);
  return { customerId, ...input };
});

/**
 * Asks the gateway for a payment and records what it answered. A refusal fails the payment and
 * its bill at once; success waits for the webhook (docs/rules/payments.md "Top-ups").
 */
async function requestTopUp(ctx: Ctx, payment: Payment, channel: Channel, card: typeof paymentCards.$inferSelect) {
  const outcome = await chargeCard(ctx, payment, channel, card);
  await ctx.db.batch([
    ctx.db
      .update(payments)
      .set({ intentRef: outcome.ref ?? payment.intentRef, error: outcome.error, updatedAt: new Date(ctx.now()) })
      .where(paymentWhere(ctx, payment.id)),
    ctx.db
      .update(bills)
      .set({ transactionNumber: outcome.ref ?? payment.intentRef, updatedAt: new Date(ctx.now()) })
      .where(billWhere(ctx, payment.billId!)),
  ]);
  if (outcome.status === "FAILED") await failTopUp(ctx, payment.id, outcome.error);
  return outcome;
}

async function cardOf(ctx: Ctx, customerId: number, channelType: number = STRIPE) {
  const card = await cardOnFile(ctx, customerId, channelType);
  if (!card) throw new Conflict("payments.errors.noCard");
  return card;
}

/**
 * The operator's enabled channel of a type that has an adapter; the other types answer "not
 * supported yet" before anything is looked up (docs/rules/payments.md "Gateways").
 */
async function payingChannel(ctx: Ctx, type: number) {
  if (!SUPPORTED_CHANNEL_TYPES.includes(type)) throw new Conflict("payments.errors.noAdapter");
  const channel = await enabledChannel(ctx, type);
  if (!channel) throw type === STRIPE ? new Conflict("payments.errors.noChannel") : new Conflict("paypal.errors.noChannel", { type: CHANNEL_TYPES[type] });
  return channel;
}

const billView = async (ctx: Ctx, id: number) => (await ctx.db.select().from(bills).where(billWhere(ctx, id)).limit(1))[0];
const paymentView = async (ctx: Ctx, id: number) => (await ctx.db.select().from(payments).where(paymentWhere(ctx, id)).limit(1))[0];

/**
 * POST /finance-service/stripe-top-up `{customerId, amount, remark?}`: a `Recharge` bill in
 * `Paying` and its payment, written together; then Stripe is asked to charge the card on file.
 */
export const startCardTopUp = verb({ menu: TOP_UP_MENU, mutates: true, movesMoney: true }, async (ctx, raw: unknown) =>
  topUp(ctx, { ...cardTopUpInput.parse(raw), channelType: STRIPE }),
);

/**
 * POST /finance-service/card-top-up `{channelType, customerId, amount, remark?}`: the same top-up
 * through the operator's channel of a type, Stripe or PayPal (way `STRIPE` or `PAYPAL`); another
 * type answers "not supported yet" (docs/rules/payments.md "Top-ups", "PayPal").
 */
export const startChannelTopUp = verb({ menu: TOP_UP_MENU, mutates: true, movesMoney: true }, async (ctx, raw: unknown) => topUp(ctx, channelTopUpInput.parse(raw)));

async function topUp(ctx: Ctx, input: { customerId: number; amount: number; remark?: string; channelType: number }) {
  const customer = await customerOf(ctx, input.customerId);
  const channel = await payingChannel(ctx, input.channelType);
  const way = wayOfChannel(channel.type);
  if (input.amount < channel.minimumValue) {
    throw new Invalid("payments.validation.belowMinimum", { minimum: channel.minimumValue }, { amount: "payments.validation.belowMinimum" });
  }
  const card = await cardOf(ctx, customer.id, channel.type);
  const now = new Date(ctx.now());
  const [[bill], [payment]] = await ctx.db.batch([
    ctx.db
      .insert(bills)
      .values(
        ownedRow(ctx, {
          customerId: customer.id,
          cost: input.amount,
          balanceBefore: customer.balance,
          balanceAfter: customer.balance,
          type: "Recharge" as const,
          paymentMethod: way,
          status: "Paying" as const,
          remark: input.remark ?? null,
          createdAt: now,
          updatedAt: now,
        }),
      )
      .returning(),
    // The bill just inserted: statements of a batch run in order on one connection.
    ctx.db
      .insert(payments)
      .values(
        ownedRow(ctx, {
          customerId: customer.id,
          channelId: channel.id,
          kind: "TOP_UP" as const,
          status: "PENDING" as const,
          amount: input.amount,
          currency: channel.currency,
          billId: sql`last_insert_rowid()`,
          createdAt: now,
          updatedAt: now,
        }),
      )
      .returning(),
    auditRow(ctx, { table: "bills", module: "payments", type: "CREATE", newData: { ...input, paymentMethod: way, status: "Paying" } }),
  ]);
  await requestTopUp(ctx, payment, channel, card);
  return { bill: await billView(ctx, bill.id), payment: presentPayment(await paymentView(ctx, payment.id)) };
}

/**
 * POST /finance-service/bill/{id}/retry-payment: a failed card payment is asked for again with a
 * new idempotency key; the bill is `Paying` until the webhook answers (docs/rules/payments.md
 * "Retries"). A failed capture of a session is captured again.
 */
export const retryBillPayment = verb({ menu: BILL_MENU, mutates: true, movesMoney: true }, async (ctx, billId: number) => {
  const bill = await billView(ctx, billId);
  if (!bill) throw new NotFound();
  if (bill.type === "Charging" && bill.paymentMethod === "STRIPE" && bill.transactionId !== null) {
    // A session paid by card: its capture, its charge above the pre-authorisation or its refund.
    if (bill.status !== "PayFail") throw new Conflict("payments.errors.notFailed");
    const preAuth = await preAuthOf(ctx, bill.transactionId);
    if (!preAuth) throw new Conflict("payments.errors.notCardPayment");
    if (!(await findChannel(ctx, preAuth.channelId)).enabled) throw new Conflict("payments.errors.noChannel");
    const outcome = await retrySessionPayment(ctx, { id: bill.id, transactionId: bill.transactionId, phase: bill.phase });
    if (!outcome.done) throw new Conflict("payments.errors.unreachable", { error: outcome.error ?? "" });
    const [payment] = await ctx.db.select().from(payments).where(owned(ctx, payments, eq(payments.billId, billId))).orderBy(desc(payments.id)).limit(1);
    return { bill: await billView(ctx, billId), payment: presentPayment(payment ?? (await paymentView(ctx, preAuth.id))) };
  }
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(owned(ctx, payments, eq(payments.billId, billId)))
    .orderBy(desc(payments.id))
    .limit(1);
  if (!payment) throw new Conflict("payments.errors.notCardPayment");
  if (bill.status !== "PayFail" || payment.status !== "FAILED") throw new Conflict("payments.errors.notFailed");
  const channel = await findChannel(ctx, payment.channelId);
  if (!channel.enabled) throw new Conflict("payments.errors.noChannel");
  const card = await cardOf(ctx, payment.customerId, channel.type);
  const [claimed] = await ctx.db.batch([
    ctx.db
      .update(payments)
      .set({ status: "PENDING", attempt: sql`${payments.attempt} + 1`, error: null, updatedAt: new Date(ctx.now()) })
      // Two retries at once: one claims the failed payment.
      .where(paymentWhere(ctx, payment.id, eq(payments.status, "FAILED")))
      .returning(),
    ctx.db.update(bills).set({ status: "Paying", updatedAt: new Date(ctx.now()) }).where(billWhere(ctx, billId, eq(bills.status, "PayFail"))),
    auditRow(ctx, { table: "bills", module: "payments", type: "UPDATE", oldData: { id: billId, status: "PayFail" }, newData: { id: billId, status: "Paying" } }),
  ]);
  if (!claimed.length) throw new Conflict("payments.errors.notFailed");
  await requestTopUp(ctx, claimed[0], channel, card);
  return { bill: await billView(ctx, billId), payment: presentPayment(await paymentView(ctx, payment.id)) };
});

/** GET /finance-service/payment: card payments, newest first, for the operator to follow and retry. */
export const listPayments = verb({ menu: [BILL_MENU, TOP_UP_MENU] }, async (ctx, raw: unknown) => {
  const q = paymentQuery.parse(raw);
  const where = owned(ctx, payments, q.status ? eq(payments.status, q.status) : undefined, q.customerId ? eq(payments.customerId, q.customerId) : undefined);
  return pageOf(
    q,
    async ({ limit, offset }) => (await ctx.db.select().from(payments).where(where).orderBy(desc(payments.createdAt), desc(payments.id)).limit(limit).offset(offset)).map(presentPayment),
    async () => (await ctx.db.select({ n: sql<number>`count(*)` }).from(payments).where(where))[0].n,
  );
});

/** A top-up the processor refused: its bill fails, unless the money already arrived. */
async function failTopUp(ctx: Ctx, paymentId: number, error: string | null) {
  const payment = await paymentView(ctx, paymentId);
  if (!payment || payment.status === "SUCCEEDED") return;
  await ctx.db.batch([
    ctx.db.update(payments).set({ status: "FAILED", error, updatedAt: new Date(ctx.now()) }).where(paymentWhere(ctx, paymentId, inArray(payments.status, ["PENDING", "FAILED"]))),
    ...(payment.billId ? [ctx.db.update(bills).set({ status: "PayFail", updatedAt: new Date(ctx.now()) }).where(billWhere(ctx, payment.billId, eq(bills.status, "Paying")))] : []),
  ]);
}

/**
 * The money of a top-up arrived: in one batch the bill becomes `PaySuccess` with the balance
 * before and after, the balance rises by the bill, and the bill is marked applied. Each statement
 * is guarded by the bill's state, so a webhook delivered twice raises the balance once.
 */
function topUpSucceededStatements(ctx: Ctx, payment: Payment, captured: number, ref: string) {
  const billId = payment.billId!;
  const customer = owned(ctx, customers, eq(customers.id, payment.customerId));
  const balance = sql`(select ${customers.balance} from ${customers} where ${customer})`;
  const unapplied = billWhere(ctx, billId, eq(bills.status, "PaySuccess"), eq(bills.applied, false));
  const now = new Date(ctx.now());
  const unappliedBill = sql`(select ${bills.cost} from ${bills} where ${unapplied})`;
  return [
    ctx.db.update(payments).set({ status: "SUCCEEDED", captured, error: null, updatedAt: now }).where(paymentWhere(ctx, payment.id)),
    ctx.db
      .update(bills)
      .set({ status: "PaySuccess", balanceBefore: balance, balanceAfter: sql`${balance} + ${bills.cost}`, updatedAt: now })
      .where(billWhere(ctx, billId, inArray(bills.status, ["Paying", "PayFail"]), eq(bills.applied, false))),
    // The recharge record of the top-up (docs/rules/wallets.md "Recharges"), written once: only while its bill is unapplied.
    ctx.db
      .insert(recharges)
      .select(
        sql`select null, ${customers.operatorId}, ${customers.id}, ${transactionCode("R", now.getTime())}, (select ${bills.paymentMethod} from ${bills} where ${unapplied}), ${unappliedBill}, ${customers.balance}, ${customers.balance} + ${unappliedBill},
              ${ref}, null, null, (select ${bills.remark} from ${bills} where ${unapplied}), ${now.getTime()}
            from ${customers} where ${customer} and exists (select 1 from ${bills} where ${unapplied})`,
      ),
    ctx.db
      .update(customers)
      .set({ balance: sql`${customers.balance} + (select ${bills.cost} from ${bills} where ${unapplied})`, updatedAt: now })
      .where(owned(ctx, customers, eq(customers.id, payment.customerId), sql`exists (select 1 from ${bills} where ${unapplied})`)),
    ctx.db.update(bills).set({ applied: true }).where(unapplied),
  ];
}

/**
 * Whether an event's money is the payment's (docs/rules/payments.md "Webhooks"): whole minor units
 * (the adapter's parse), in the payment's currency, for the amount it was created for, and never
 * more taken than that; a top-up's success takes it all.
 */
function asAskedFor(payment: Payment, event: PaymentEvent) {
  if (event.currency !== undefined && event.currency.toUpperCase() !== payment.currency.toUpperCase()) return false;
  if (event.amount !== undefined && event.amount !== payment.amount) return false;
  if (event.captured > payment.amount) return false;
  return !(payment.kind === "TOP_UP" && event.type === "succeeded" && event.captured !== payment.amount);
}

/** What a verified event changes (docs/rules/payments.md "Webhooks"). */
async function applyEvent(ctx: Ctx, event: PaymentEvent) {
  const byRef = await ctx.db.select().from(payments).where(owned(ctx, payments, eq(payments.intentRef, event.ref))).limit(1);
  // The webhook can come before the create call's answer was recorded: the metadata names the payment.
  const paymentId = Number(event.metadata.paymentId);
  const named = Number.isSafeInteger(paymentId) && paymentId > 0 ? await paymentView(ctx, paymentId) : undefined;
  // A payment named by the metadata whose own intent is another is not this event's.
  const payment = byRef[0] ?? (named && (named.intentRef === null || named.intentRef === event.ref) ? named : undefined);
  if (!payment) return "unknown";
  if (!asAskedFor(payment, event)) return "mismatch";
  if (payment.kind === "TOP_UP") {
    if (event.type === "succeeded") {
      await ctx.db.batch([
        ctx.db.update(payments).set({ intentRef: event.ref }).where(paymentWhere(ctx, payment.id)),
        ...topUpSucceededStatements(ctx, payment, event.captured, event.ref),
        auditRow(ctx, { table: "bills", module: "payments", type: "UPDATE", newData: { id: payment.billId, status: "PaySuccess", intentRef: event.ref } }),
      ]);
    } else if (event.type === "failed") await failTopUp(ctx, payment.id, event.error);
    return event.type;
  }
  if (payment.kind === "REMAINDER" && (event.type === "succeeded" || event.type === "failed")) {
    // The charge's own answer may have been lost: the webhook settles it, once (guarded by the payment's state).
    await settleRemainder(ctx, payment, { ref: event.ref, captured: event.captured, error: event.error, paid: event.type === "succeeded" });
    return event.type;
  }
  // An ad-hoc session's hold: authorised starts its charger (docs/rules/payments.md "Ad-hoc payment").
  if (event.type === "authorised" && payment.kind === "PRE_AUTH" && payment.transactionId === null && (await adHocAuthorised(ctx, payment.id, event.ref))) return event.type;
  if (event.type === "authorised") {
    await ctx.db.update(payments).set({ status: "AUTHORISED", intentRef: event.ref }).where(paymentWhere(ctx, payment.id, eq(payments.status, "PENDING")));
  }
  return event.type;
}

/**
 * POST /finance-service/payment-webhook/{operatorCode}/stripe: Stripe's events for one operator.
 * Public, but nothing is believed until the `Stripe-Signature` holds under the operator's own
 * signing secret (docs/rules/payments.md "Webhooks"); an unsigned or stale call is a 400. A
 * disabled channel still verifies the events of the payments it started.
 */
export const receiveStripeWebhook = verb({ actors: ["public"] }, async (ctx, operatorCode: string, payload: string, headers: Headers) => {
  const operator = await operatorByCode(ctx.db, operatorCode);
  if (!operator) throw new NotFound();
  const sys = systemCtx(ctx.env, operator, "stripe webhook", ctx.now);
  // A disabled channel still hears about the payments it started.
  const [channel] = await sys.db.select().from(paymentChannels).where(owned(sys, paymentChannels, eq(paymentChannels.type, STRIPE))).limit(1);
  if (!channel) throw new NotFound();
  const event = await (await gatewayOf(sys, channel)).verifyWebhook(payload, headers, ctx.now());
  if (!event) throw new Invalid("payments.errors.badSignature");
  return { received: true, outcome: await applyEvent(sys, event) };
});

/**
 * POST /finance-service/payment-webhook/{operatorCode}/paypal: PayPal's events for one operator
 * (docs/rules/payments.md "PayPal"). Nothing is believed until PayPal's verify endpoint says the
 * transmission headers sign this event for the channel's webhook id (400 otherwise); an event id
 * applied before is answered `duplicate` and changes nothing. Its money is then checked as
 * Stripe's is (`asAskedFor`).
 */
export const receivePayPalWebhook = verb({ actors: ["public"] }, async (ctx, operatorCode: string, payload: string, headers: Headers) => {
  const operator = await operatorByCode(ctx.db, operatorCode);
  if (!operator) throw new NotFound();
  const sys = systemCtx(ctx.env, operator, "paypal webhook", ctx.now);
  // A disabled channel still hears about the payments it started.
  const [channel] = await sys.db.select().from(paymentChannels).where(owned(sys, paymentChannels, eq(paymentChannels.type, PAYPAL))).limit(1);
  if (!channel) throw new NotFound();
  const event = await (await gatewayOf(sys, channel)).verifyWebhook(payload, headers, ctx.now());
  if (!event) throw new Invalid("payments.errors.badSignature");
  const seen = owned(sys, paymentWebhookEvents, eq(paymentWebhookEvents.channelType, PAYPAL), eq(paymentWebhookEvents.eventId, event.id));
  if ((await sys.db.select({ id: paymentWebhookEvents.id }).from(paymentWebhookEvents).where(seen).limit(1)).length) return { received: true, outcome: "duplicate" };
  const outcome = await applyEvent(sys, event);
  // Recorded after it applied: a delivery that failed half-way is applied again by PayPal's retry, each statement guarded by its state.
  await sys.db
    .insert(paymentWebhookEvents)
    .values(ownedRow(sys, { channelType: PAYPAL, eventId: event.id, eventType: event.type, outcome, createdAt: new Date(ctx.now()) }))
    .onConflictDoNothing();
  return { received: true, outcome };
});

export type { PaymentOutcome };
