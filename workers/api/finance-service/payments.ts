import { api, describeAccess } from "../app";
import { resource } from "../resource";
import { cardTopUpInput, channelTopUpInput, paymentCardInput, paymentQuery } from "../../../domain/schemas/payments";
import { listPayments, receivePayPalWebhook, receiveStripeWebhook, retryBillPayment, setPaymentCard, startCardTopUp, startChannelTopUp } from "../../services/payments/payments";
import { publicCtxOf } from "../../services/context";
import { ok } from "../envelope";

/**
 * Card payments (docs/rules/payments.md "Payments"): top-ups on a customer's card on file, retries
 * of a failed payment from its bill, and the processor's signed webhook.
 */
const tag = "Finance service: card payments";
const customer = resource(tag, "/customer-service/customer");
const finance = resource(tag, "/finance-service");

export const routes = [
  customer.put("/{id}/payment-card", "Keep a customer's Stripe card (channelType 4, the default) or PayPal vault (channelType 0) on file", setPaymentCard, paymentCardInput),
  finance.post("/stripe-top-up", "Top a customer up from their card on file: a Paying bill until Stripe's webhook", startCardTopUp, cardTopUpInput),
  finance.post(
    "/card-top-up",
    "Top a customer up through the operator's Stripe or PayPal channel (channelType 4 or 0): a Paying bill until the processor's webhook; other types are not supported yet",
    startChannelTopUp,
    channelTopUpInput,
  ),
  finance.post("/bill/{id}/retry-payment", "Ask again for a failed card payment (a top-up or a session's capture)", retryBillPayment),
  finance.get("/payment", "Card payments, newest first", listPayments, paymentQuery),
];

/**
 * Stripe's webhook for one operator. Declared by hand: the signature covers the raw body, which
 * `route()` would parse first.
 */
api.openAPIRegistry.registerPath({
  method: "post",
  path: "/finance-service/payment-webhook/{operatorCode}/stripe",
  summary: "Stripe's events (payment_intent.*), verified by Stripe-Signature under the channel's signing secret",
  description: `${describeAccess(receiveStripeWebhook.access)} 400 unless the Stripe-Signature holds within five minutes.`,
  tags: [tag],
  security: [],
  responses: { 200: { description: "`{ code: 200, msg, data: { received, outcome } }`" }, 400: { description: "Bad or stale signature" }, 404: { description: "No such operator or no enabled Stripe channel" } },
});
api.post("/finance-service/payment-webhook/:operatorCode/stripe", async (c) => {
  const ctx = publicCtxOf(c.req.raw, c.env);
  const payload = await c.req.text();
  return ok(c, await receiveStripeWebhook(ctx, c.req.param("operatorCode"), payload, c.req.raw.headers), ctx.lang);
});

/**
 * PayPal's webhook for one operator (docs/rules/payments.md "PayPal"). Declared by hand: the
 * event goes back to PayPal's verify endpoint as it came, which `route()` would parse first.
 */
api.openAPIRegistry.registerPath({
  method: "post",
  path: "/finance-service/payment-webhook/{operatorCode}/paypal",
  summary: "PayPal's events (PAYMENT.CAPTURE.*, PAYMENT.AUTHORIZATION.CREATED), verified by PayPal for the channel's webhook id",
  description: `${describeAccess(receivePayPalWebhook.access)} 400 unless PayPal verifies the PayPal-Transmission-* headers; an event id seen before is answered \`duplicate\`.`,
  tags: [tag],
  security: [],
  responses: { 200: { description: "`{ code: 200, msg, data: { received, outcome } }`" }, 400: { description: "Signature not verified" }, 404: { description: "No such operator or no PayPal channel" } },
});
api.post("/finance-service/payment-webhook/:operatorCode/paypal", async (c) => {
  const ctx = publicCtxOf(c.req.raw, c.env);
  const payload = await c.req.text();
  return ok(c, await receivePayPalWebhook(ctx, c.req.param("operatorCode"), payload, c.req.raw.headers), ctx.lang);
});
