import { api, describeAccess, idParam, route } from "../app";
import { cardTopUpInput, channelTopUpInput, paymentCardInput, paymentQuery } from "../../../domain/schemas/payments";
import { listPayments, receivePayPalWebhook, receiveStripeWebhook, retryBillPayment, setPaymentCard, startCardTopUp, startChannelTopUp } from "../../services/payments/payments";
import { publicCtxOf } from "../../services/context";
import { ok } from "../envelope";

/**
 * Card payments (docs/rules/payments.md "Payments"): top-ups on a customer's card on file, retries
 * of a failed payment from its bill, and the processor's signed webhook.
 */
const tag = "Finance service: card payments";

export const routes = [
  route(
    { method: "put", path: "/customer-service/customer/{id}/payment-card", summary: "Keep a customer's Stripe card (channelType 4, the default) or PayPal vault (channelType 0) on file", tag, verb: setPaymentCard, params: idParam, body: paymentCardInput },
    (ctx, { params, body }) => setPaymentCard(ctx, params.id, body),
  ),
  route(
    { method: "post", path: "/finance-service/stripe-top-up", summary: "Top a customer up from their card on file: a Paying bill until Stripe's webhook", tag, verb: startCardTopUp, body: cardTopUpInput },
    (ctx, { body }) => startCardTopUp(ctx, body),
  ),
  route(
    {
      method: "post",
      path: "/finance-service/card-top-up",
      summary: "Top a customer up through the operator's Stripe or PayPal channel (channelType 4 or 0): a Paying bill until the processor's webhook; other types are not supported yet",
      tag,
      verb: startChannelTopUp,
      body: channelTopUpInput,
    },
    (ctx, { body }) => startChannelTopUp(ctx, body),
  ),
  route(
    { method: "post", path: "/finance-service/bill/{id}/retry-payment", summary: "Ask again for a failed card payment (a top-up or a session's capture)", tag, verb: retryBillPayment, params: idParam },
    (ctx, { params }) => retryBillPayment(ctx, params.id),
  ),
  route({ method: "get", path: "/finance-service/payment", summary: "Card payments, newest first", tag, verb: listPayments, query: paymentQuery }, (ctx, { query }) =>
    listPayments(ctx, query),
  ),
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
