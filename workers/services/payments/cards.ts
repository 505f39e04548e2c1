import { eq } from "drizzle-orm";
import { paymentCards, payments } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import { STRIPE } from "../../../domain/schemas/payments";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { findChannel, openCredentials } from "./channels";
import type { PaymentGateway } from "./gateway";
import { stripeGateway } from "./stripe";

/**
 * A customer's card on file and the calls that charge it through a channel's gateway
 * (docs/rules/payments.md "Gateways", "Stripe"). Top-ups (`payments.ts`) and a session's
 * pre-authorisation and capture (`capture.ts`) both charge cards; this is the piece they share,
 * so that neither imports the other's verbs.
 */

type Channel = Awaited<ReturnType<typeof findChannel>>;
type Payment = typeof payments.$inferSelect;

/** The adapter of a channel (only Stripe has one: docs/rules/payments.md "Gateways"). */
export async function gatewayOf(ctx: Pick<Ctx, "env" | "operator">, channel: Channel): Promise<PaymentGateway> {
  if (channel.type !== STRIPE) throw new Conflict("payments.errors.noAdapter");
  const credentials = await openCredentials(ctx, channel);
  return stripeGateway({ secretApiKey: credentials.secretApiKey ?? "", webhookSecret: credentials.sharedSecret ?? "", apiBase: channel.gateway });
}

/** The idempotency key of a payment's call: the same attempt repeats the same request. */
export const keyOf = (ctx: Pick<Ctx, "operator">, p: Pick<Payment, "id" | "attempt">, what: string) => `plugdesk-${ctx.operator.id}-${p.id}-${what}-${p.attempt}`;

/**
 * Charges a payment to the card on file, captured at once, under the payment's attempt's key
 * (docs/rules/payments.md "Stripe"): a top-up, or a session's charge above its pre-authorisation.
 */
export async function chargeCard(ctx: Ctx, payment: Payment, channel: Channel, card: typeof paymentCards.$inferSelect, metadata: Record<string, string> = {}) {
  return (await gatewayOf(ctx, channel)).createPayment({
    amount: payment.amount,
    currency: payment.currency,
    customerRef: card.customerRef,
    paymentMethodRef: card.paymentMethodRef,
    authoriseOnly: false,
    idempotencyKey: keyOf(ctx, payment, "pay"),
    metadata: { operatorId: String(ctx.operator.id), paymentId: String(payment.id), kind: payment.kind, ...metadata },
  });
}

/** The customer's Stripe card on file, if any. */
export async function cardOnFile(ctx: Ctx, customerId: number) {
  const [card] = await ctx.db
    .select()
    .from(paymentCards)
    .where(owned(ctx, paymentCards, eq(paymentCards.customerId, customerId), eq(paymentCards.channelType, STRIPE)))
    .limit(1);
  return card;
}
