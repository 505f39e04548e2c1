import { z } from "zod";
import { fromPayPalValue, toPayPalValue } from "../../../domain/paypal-amounts";
import type { HoldRequest, PaymentEvent, PaymentGateway, PaymentOutcome, PaymentRequest } from "./gateway";
import { outgoingCallSignal } from "../../http/outgoing";

/**
 * The PayPal adapter (docs/rules/payments.md "PayPal"): Orders v2 over PayPal's REST API with
 * `fetch`, behind the same gateway as Stripe's. An OAuth2 client-credentials token
 * (`POST /v1/oauth2/token`) is the bearer of every call, and every POST carries a
 * `PayPal-Request-Id` (the payment's idempotency key), so that a repeated call is the same
 * payment at PayPal. The product's reference of a PayPal payment is the order's id: captures,
 * voids and refunds find the order's authorisation or capture from it.
 *
 * - A payment on the customer's vault (their PayPal payment token on file) is one call:
 *   `POST /v2/checkout/orders` with `payment_source.paypal.vault_id` and intent CAPTURE (a top-up)
 *   or AUTHORIZE (a pre-authorisation); PayPal completes it at once.
 * - An order the payer approves themselves (a hold, `createHold`) is authorised when it is read
 *   back approved: `POST /v2/checkout/orders/{id}/authorize`.
 * - `capture` is `POST /v2/payments/authorizations/{id}/capture` (final, for at most what was
 *   authorised; PayPal voids the rest), `cancel` is `.../void`, `refund` is
 *   `POST /v2/payments/captures/{id}/refund`.
 * - A webhook is believed only when PayPal's `POST /v1/notifications/verify-webhook-signature`
 *   answers SUCCESS for its transmission headers, the channel's webhook id and the raw event.
 *
 * Amounts cross as PayPal's decimal strings, exactly (domain/paypal-amounts.ts).
 */

export const PAYPAL_LIVE = "https://api-m.paypal.com";
export const PAYPAL_SANDBOX = "https://api-m.sandbox.paypal.com";

const money = z.object({ currency_code: z.string(), value: z.string() });
const movement = z.object({ id: z.string(), status: z.string(), amount: money.optional(), custom_id: z.string().optional() });
const order = z.object({
  id: z.string(),
  status: z.string(),
  intent: z.string().optional(),
  purchase_units: z
    .array(
      z.object({
        custom_id: z.string().optional(),
        amount: money.optional(),
        payments: z.object({ authorizations: z.array(movement).optional(), captures: z.array(movement).optional() }).optional(),
      }),
    )
    .optional()
    .default([]),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).optional().default([]),
});
type Order = z.infer<typeof order>;

const failure = z.object({ name: z.string().optional(), message: z.string().optional(), details: z.array(z.object({ issue: z.string().optional(), description: z.string().optional() })).optional() });

/** The event kinds the product reads; others are acknowledged (docs/rules/payments.md "PayPal"). */
const EVENT_TYPES: Record<string, PaymentEvent["type"]> = {
  "PAYMENT.CAPTURE.COMPLETED": "succeeded",
  "PAYMENT.CAPTURE.DENIED": "failed",
  "PAYMENT.CAPTURE.DECLINED": "failed",
  "PAYMENT.AUTHORIZATION.CREATED": "authorised",
};

const webhookEvent = z.object({
  id: z.string().min(1).max(100),
  event_type: z.string(),
  resource: z
    .object({
      id: z.string(),
      status: z.string().optional(),
      amount: money.optional(),
      custom_id: z.string().optional(),
      supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }).optional() }).optional(),
      status_details: z.object({ reason: z.string().optional() }).optional(),
    })
    .passthrough(),
});

export interface PayPalConfig {
  clientId: string;
  secret: string;
  /** The webhook's id at PayPal, which signatures are verified against; empty: no webhook is believed. */
  webhookId: string;
  environment: "sandbox" | "live";
  /** The API base; PayPal's own for the environment unless the channel names another (a local fake in tests). */
  apiBase: string;
  /** The product's minor-unit decimals of the channel's currency (its operator's main currency). */
  decimals: number;
}

type Answer = { ok: true; status: number; json: unknown } | { ok: false; status: number; json: unknown; error: string };

const pending = (error: string): PaymentOutcome & { clientSecret: null } => ({ ref: null, status: "PENDING", captured: 0, error, clientSecret: null });
const failed = (error: string, ref: string | null = null): PaymentOutcome & { clientSecret: null } => ({ ref, status: "FAILED", captured: 0, error: error.slice(0, 300), clientSecret: null });

export function paypalGateway(config: PayPalConfig): PaymentGateway {
  const base = (config.apiBase || (config.environment === "live" ? PAYPAL_LIVE : PAYPAL_SANDBOX)).replace(/\/$/, "");
  let token: { value: string; until: number } | null = null;
  const minorOf = (m: { currency_code: string; value: string } | undefined) => (m ? fromPayPalValue(m.value, m.currency_code, config.decimals) : null);

  /** The bearer token, `false` when PayPal refuses the channel's client id and secret, null when it did not answer. */
  async function accessToken(): Promise<string | false | null> {
    if (token && token.until > Date.now()) return token.value;
    const response = await fetch(`${base}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${btoa(`${config.clientId}:${config.secret}`)}`,
        "Content-Type": "application/x-www-form-urlencoded",
        "PayPal-Request-Id": crypto.randomUUID(),
      },
      body: "grant_type=client_credentials",
      signal: outgoingCallSignal(),
    }).catch(() => null);
    const parsed = z.object({ access_token: z.string(), expires_in: z.number().optional() }).safeParse(await response?.json().catch(() => null));
    if (response && response.status >= 400 && response.status < 500) return false;
    if (!response?.ok || !parsed.success) return null;
    // A minute early: a token that expires on the way is refused.
    token = { value: parsed.data.access_token, until: Date.now() + Math.max(0, (parsed.data.expires_in ?? 300) - 60) * 1000 };
    return token.value;
  }

  /** One call; `requestId` on a POST is PayPal's idempotency key. Unreachable: null, not known yet. */
  async function call(method: "GET" | "POST", path: string, body: unknown, requestId: string | null): Promise<Answer | null> {
    const bearer = await accessToken();
    if (bearer === false) return { ok: false, status: 401, json: null, error: "PayPal refused the channel's client id and secret" };
    if (!bearer) return null;
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        "Content-Type": "application/json",
        Prefer: "return=representation",
        ...(method === "POST" && { "PayPal-Request-Id": requestId ?? crypto.randomUUID() }),
      },
      ...(method === "POST" && { body: typeof body === "string" ? body : JSON.stringify(body ?? {}) }),
      signal: outgoingCallSignal(),
    }).catch(() => null);
    if (!response) return null;
    const json: unknown = await response.json().catch(() => null);
    if (response.ok) return { ok: true, status: response.status, json };
    const refused = failure.safeParse(json);
    const detail = refused.success ? (refused.data.details?.[0]?.issue ?? refused.data.message ?? refused.data.name) : undefined;
    return { ok: false, status: response.status, json, error: detail ?? `PayPal answered ${response.status}` };
  }

  /** The order as the product sees it: authorised, taken, waiting for the payer, or refused. */
  function outcomeOf(o: Order): PaymentOutcome {
    const unit = o.purchase_units[0];
    const captures = unit?.payments?.captures ?? [];
    const authorizations = unit?.payments?.authorizations ?? [];
    let captured = 0;
    for (const c of captures) {
      if (c.status !== "COMPLETED" && c.status !== "PENDING") continue;
      const amount = minorOf(c.amount);
      if (amount === null) return failed("unreadable amount from PayPal", o.id);
      captured += amount;
    }
    if (captures.some((c) => c.status === "COMPLETED")) return { ref: o.id, status: "SUCCEEDED", captured, error: null };
    if (captures.some((c) => c.status === "PENDING")) return { ref: o.id, status: "PENDING", captured: 0, error: null };
    if (captures.length) return { ref: o.id, status: "FAILED", captured: 0, error: captures[0].status };
    const authorization = authorizations[0];
    if (authorization) {
      if (authorization.status === "CREATED" || authorization.status === "PENDING") return { ref: o.id, status: "AUTHORISED", captured: 0, error: null };
      return { ref: o.id, status: "FAILED", captured: 0, error: authorization.status };
    }
    if (o.status === "VOIDED") return { ref: o.id, status: "FAILED", captured: 0, error: "VOIDED" };
    return { ref: o.id, status: "PENDING", captured: 0, error: null };
  }

  async function orderAnswer(answer: Answer | null): Promise<PaymentOutcome & { clientSecret: string | null }> {
    if (!answer) return pending("PayPal did not answer");
    if (!answer.ok) return answer.status >= 500 ? pending(answer.error) : failed(answer.error);
    const parsed = order.safeParse(answer.json);
    if (!parsed.success) return failed(`unreadable answer from PayPal (${answer.status})`);
    return { ...outcomeOf(parsed.data), clientSecret: parsed.data.id };
  }

  const getOrder = async (ref: string) => {
    const answer = await call("GET", `/v2/checkout/orders/${encodeURIComponent(ref)}`, null, null);
    if (!answer?.ok) return null;
    const parsed = order.safeParse(answer.json);
    return parsed.success ? parsed.data : null;
  };

  function amountOf(amount: number, currency: string) {
    const value = toPayPalValue(amount, currency, config.decimals);
    return value === null ? null : { currency_code: currency.toUpperCase(), value };
  }

  function newOrder(intent: "CAPTURE" | "AUTHORIZE", amount: number, currency: string, metadata: Record<string, string>, vaultId: string | null) {
    const value = amountOf(amount, currency);
    if (!value) return null;
    return {
      intent,
      purchase_units: [{ reference_id: metadata.paymentId ?? "default", custom_id: metadata.paymentId, amount: value }],
      ...(vaultId && { payment_source: { paypal: { vault_id: vaultId, stored_credential: { payment_initiator: "MERCHANT", usage: "SUBSEQUENT", usage_pattern: "UNSCHEDULED_PREPAID" } } } }),
    };
  }

  /** The order's authorisation still open for capture or void. */
  const openAuthorization = (o: Order) => o.purchase_units[0]?.payments?.authorizations?.find((a) => a.status === "CREATED" || a.status === "PENDING" || a.status === "PARTIALLY_CAPTURED");

  return {
    async createPayment(r: PaymentRequest) {
      const body = newOrder(r.authoriseOnly ? "AUTHORIZE" : "CAPTURE", r.amount, r.currency, r.metadata, r.paymentMethodRef);
      if (!body) return failed(`${r.amount} cannot be written in ${r.currency} at PayPal`);
      const created = await orderAnswer(await call("POST", "/v2/checkout/orders", body, r.idempotencyKey));
      return created;
    },
    async createHold(r: HoldRequest) {
      const body = newOrder("AUTHORIZE", r.amount, r.currency, r.metadata, null);
      if (!body) return failed(`${r.amount} cannot be written in ${r.currency} at PayPal`);
      return orderAnswer(await call("POST", "/v2/checkout/orders", body, r.idempotencyKey));
    },
    async retrieve(ref) {
      const o = await getOrder(ref);
      if (!o) return pending("PayPal did not answer");
      // Approved by the payer: the authorisation is asked for, once (the order's id is the request's).
      if (o.status === "APPROVED" && o.intent === "AUTHORIZE") {
        return orderAnswer(await call("POST", `/v2/checkout/orders/${encodeURIComponent(ref)}/authorize`, {}, `authorize-${ref}`));
      }
      return outcomeOf(o);
    },
    async cancel(ref, idempotencyKey) {
      const o = await getOrder(ref);
      if (!o) return pending("PayPal did not answer");
      const authorization = openAuthorization(o);
      // Never authorised (the payer never approved): nothing is held.
      if (!authorization) return { ref, status: "FAILED", captured: 0, error: "VOIDED" };
      const answer = await call("POST", `/v2/payments/authorizations/${encodeURIComponent(authorization.id)}/void`, {}, idempotencyKey);
      if (!answer) return pending("PayPal did not answer");
      if (!answer.ok) return answer.status >= 500 ? { ...pending(answer.error), ref } : failed(answer.error, ref);
      return { ref, status: "FAILED", captured: 0, error: "VOIDED" };
    },
    async capture(ref, amount, idempotencyKey) {
      const o = await getOrder(ref);
      if (!o) return pending("PayPal did not answer");
      const authorization = openAuthorization(o);
      if (!authorization) return outcomeOf(o).status === "SUCCEEDED" ? outcomeOf(o) : failed("no open authorisation at PayPal", ref);
      const value = amountOf(amount, authorization.amount?.currency_code ?? "");
      if (!value) return failed(`${amount} cannot be written at PayPal`, ref);
      const answer = await call("POST", `/v2/payments/authorizations/${encodeURIComponent(authorization.id)}/capture`, { amount: value, final_capture: true }, idempotencyKey);
      if (!answer) return { ...pending("PayPal did not answer"), ref };
      if (!answer.ok) return answer.status >= 500 ? { ...pending(answer.error), ref } : failed(answer.error, ref);
      const taken = movement.safeParse(answer.json);
      const captured = taken.success ? minorOf(taken.data.amount) : null;
      if (!taken.success || captured === null) return failed("unreadable answer from PayPal", ref);
      // PENDING: taken, held by PayPal for review; a later PAYMENT.CAPTURE.DENIED says otherwise.
      if (taken.data.status === "COMPLETED" || taken.data.status === "PENDING") return { ref, status: "SUCCEEDED", captured, error: null };
      return failed(taken.data.status, ref);
    },
    async refund(ref, amount, idempotencyKey) {
      const o = await getOrder(ref);
      const capture = o?.purchase_units[0]?.payments?.captures?.find((c) => c.status === "COMPLETED" || c.status === "PARTIALLY_REFUNDED");
      if (!capture) return { ref: null, error: o ? "no capture at PayPal to refund" : "PayPal did not answer" };
      const value = amountOf(amount, capture.amount?.currency_code ?? "");
      if (!value) return { ref: null, error: `${amount} cannot be written at PayPal` };
      const answer = await call("POST", `/v2/payments/captures/${encodeURIComponent(capture.id)}/refund`, { amount: value }, idempotencyKey);
      if (!answer) return { ref: null, error: "PayPal did not answer" };
      const refund = z.object({ id: z.string(), status: z.string() }).safeParse(answer.json);
      if (answer.ok && refund.success && refund.data.status !== "FAILED" && refund.data.status !== "CANCELLED") return { ref: refund.data.id, error: null };
      return { ref: null, error: answer.ok ? "refused" : answer.error };
    },
    async verifyWebhook(payload, headers): Promise<PaymentEvent | null> {
      if (!config.webhookId) return null;
      const transmission = {
        auth_algo: headers.get("PayPal-Auth-Algo"),
        cert_url: headers.get("PayPal-Cert-Url"),
        transmission_id: headers.get("PayPal-Transmission-Id"),
        transmission_sig: headers.get("PayPal-Transmission-Sig"),
        transmission_time: headers.get("PayPal-Transmission-Time"),
      };
      if (Object.values(transmission).some((value) => !value)) return null;
      let json: unknown;
      try {
        json = JSON.parse(payload);
      } catch {
        return null;
      }
      const parsed = webhookEvent.safeParse(json);
      if (!parsed.success) return null;
      // The event goes back as it came, byte for byte: a re-serialised event would not match its signature.
      const fields = JSON.stringify({ ...transmission, webhook_id: config.webhookId });
      const body = `${fields.slice(0, -1)},"webhook_event":${payload}}`;
      const answer = await call("POST", "/v1/notifications/verify-webhook-signature", body, `verify-${transmission.transmission_id}`);
      const verdict = z.object({ verification_status: z.string() }).safeParse(answer?.ok ? answer.json : null);
      if (!verdict.success || verdict.data.verification_status !== "SUCCESS") return null;

      const event = parsed.data;
      const resource = event.resource;
      const type = EVENT_TYPES[event.event_type] ?? "other";
      const amount = resource.amount ? minorOf(resource.amount) : undefined;
      // Money that cannot be read exactly is not read at all (docs/rules/payments.md "Webhooks").
      if (amount === null) return null;
      const orderId = resource.supplementary_data?.related_ids?.order_id ?? resource.id;
      const currency = resource.amount?.currency_code;
      const metadata: Record<string, string> = resource.custom_id ? { paymentId: resource.custom_id } : {};
      if (type === "succeeded") return { id: event.id, type, ref: orderId, captured: amount ?? 0, currency, error: null, metadata };
      if (type === "authorised") return { id: event.id, type, ref: orderId, captured: 0, amount, currency, error: null, metadata };
      return { id: event.id, type, ref: orderId, captured: 0, currency, error: type === "failed" ? (resource.status_details?.reason ?? resource.status ?? event.event_type) : null, metadata };
    },
  };
}
