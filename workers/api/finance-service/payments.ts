import { api, describeAccess, idParam, route } from "../app";
import { cardTopUpInput, paymentCardInput, paymentQuery } from "../../../domain/schemas/payments";
import { listPayments, receiveStripeWebhook, retryBillPayment, setPaymentCard, startCardTopUp } from "../../services/payments/payments";
import { publicCtxOf } from "../../services/context";
import { ok } from "../envelope";

/**
 * Card payments (docs/rules/payments.md "Payments"): top-ups on a customer's card on file, retries
 * of a failed payment from its bill, and the processor's signed webhook.
 */
const tag = "Finance service: card payments";

route(
  { method: "put", path: "/customer-service/customer/{id}/payment-card", summary: "Keep a customer's Stripe customer and card on file", tag, verb: setPaymentCard, params: idParam, body: paymentCardInput },
  (ctx, { params, body }) => setPaymentCard(ctx, params.id, body),
);
route(
  { method: "post", path: "/finance-service/stripe-top-up", summary: "Top a customer up from their card on file: a Paying bill until Stripe's webhook", tag, verb: startCardTopUp, body: cardTopUpInput },
  (ctx, { body }) => startCardTopUp(ctx, body),
);
route(
  { method: "post", path: "/finance-service/bill/{id}/retry-payment", summary: "Ask again for a failed card payment (a top-up or a session's capture)", tag, verb: retryBillPayment, params: idParam },
  (ctx, { params }) => retryBillPayment(ctx, params.id),
);
route({ method: "get", path: "/finance-service/payment", summary: "Card payments, newest first", tag, verb: listPayments, query: paymentQuery }, (ctx, { query }) =>
  listPayments(ctx, query),
);

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
