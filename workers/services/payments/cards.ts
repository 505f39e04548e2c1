import { eq } from "drizzle-orm";
import { paymentCards, payments } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import { PAYPAL, STRIPE, SUPPORTED_CHANNEL_TYPES } from "../../../domain/schemas/payments";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { findChannel, openCredentials } from "./channels";
import type { PaymentGateway } from "./gateway";
import { paypalGateway } from "./paypal";
import { stripeGateway } from "./stripe";
import { operatorSettings } from "../settings/parameter-settings";

/**
 * A customer's card on file and the calls that charge it through a channel's gateway
 * (docs/rules/payments.md "Gateways", "Stripe"). Top-ups (`payments.ts`) and a session's
 * pre-authorisation and capture (`capture.ts`) both charge cards; this is the piece they share,
 * so that neither imports the other's verbs.
 */

type Channel = Awaited<ReturnType<typeof findChannel>>;
type Payment = typeof payments.$inferSelect;

/**
 * The adapter of a channel, by its type (docs/rules/payments.md "Gateways"): Stripe and PayPal;
 * any other type is configured but answers "not supported yet" (409).
 */
export async function gatewayOf(ctx: Pick<Ctx, "env" | "operator" | "db">, channel: Channel): Promise<PaymentGateway> {
  if (!SUPPORTED_CHANNEL_TYPES.includes(channel.type)) throw new Conflict("payments.errors.noAdapter");
  const credentials = await openCredentials(ctx, channel);
  if (channel.type === PAYPAL) {
    return paypalGateway({
      clientId: credentials.clientId ?? "",
      secret: credentials.secret ?? "",
      webhookId: credentials.webhookId ?? "",
      environment: channel.environment,
      apiBase: channel.gateway,
      // The channel's currency is the operator's main one (docs/rules/payments.md "Channels"): its decimals are the minor units'.
      decimals: mainCurrencyOf(await operatorSettings(ctx)).decimals,
    });
  }
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

/** The customer's card (or PayPal vault) on file with a channel type, Stripe unless told, if any. */
export async function cardOnFile(ctx: Ctx, customerId: number, channelType: number = STRIPE) {
  const [card] = await ctx.db
    .select()
    .from(paymentCards)
    .where(owned(ctx, paymentCards, eq(paymentCards.customerId, customerId), eq(paymentCards.channelType, channelType)))
    .limit(1);
  return card;
}
