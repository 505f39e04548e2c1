import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { z } from "zod";
import type { PaymentEvent, PaymentGateway, PaymentOutcome, PaymentRequest } from "./gateway";
import { outgoingCallSignal } from "../../http/outgoing";

/**
 * The Stripe adapter (docs/rules/payments.md "Stripe"): PaymentIntents over Stripe's HTTP API
 * with `fetch`, form-encoded, the secret key as a bearer token and an `Idempotency-Key` on every
 * call that creates or moves money. A session's pre-authorisation is a PaymentIntent with
 * `capture_method=manual`, confirmed off-session with the card on file; billing captures the
 * session's total (`amount_to_capture`), and Stripe releases what was authorised beyond it.
 * Webhooks are verified as Stripe documents: `Stripe-Signature: t=<unix>,v1=<hex>` where v1 is
 * HMAC-SHA256 of `<t>.<raw body>` under the endpoint's signing secret, within five minutes.
 */

export const STRIPE_API = "https://api.stripe.com";
/** Stripe's default tolerance between the signed timestamp and now. */
export const SIGNATURE_TOLERANCE_S = 300;

const intent = z.object({
  id: z.string(),
  status: z.string(),
  // Stripe's amounts are whole minor units, never negative (docs/rules/payments.md "Webhooks").
  amount: z.number().int().min(0),
  amount_received: z.number().int().min(0).optional().default(0),
  currency: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional().default({}),
  client_secret: z.string().nullish(),
  last_payment_error: z.object({ message: z.string().optional(), code: z.string().optional() }).nullish(),
});
type Intent = z.infer<typeof intent>;

const failure = z.object({
  error: z.object({
    message: z.string().optional(),
    code: z.string().optional(),
    decline_code: z.string().optional(),
    payment_intent: intent.optional(),
  }),
});

const event = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({ object: intent }),
});

/** Stripe's form encoding, including `metadata[key]`. */
function form(fields: Record<string, string | number | boolean | Record<string, string> | undefined>) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === "object") for (const [k, v] of Object.entries(value)) body.append(`${key}[${k}]`, v);
    else body.append(key, String(value));
  }
  return body;
}

/** Still waiting for the driver's card (a hold confirmed in the browser): neither taken nor refused. */
const UNCONFIRMED = new Set(["requires_payment_method", "requires_confirmation", "requires_action", "processing"]);

function outcomeOf(pi: Intent): PaymentOutcome {
  const status =
    pi.status === "succeeded" ? "SUCCEEDED" : pi.status === "requires_capture" ? "AUTHORISED" : UNCONFIRMED.has(pi.status) ? "PENDING" : "FAILED";
  const error = status === "FAILED" ? (pi.last_payment_error?.message ?? pi.status) : null;
  return { ref: pi.id, status, captured: pi.amount_received, error };
}

/** The v1 signature of a payload at a time: what Stripe sends and what tests sign with. */
export function stripeSignature(secret: string, timestamp: number, payload: string) {
  return encodeHexLowerCase(hmac(SHA256, new TextEncoder().encode(secret), new TextEncoder().encode(`${timestamp}.${payload}`)));
}

/** Compares two hex strings in time that does not depend on where they differ. */
function sameText(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether a `Stripe-Signature` header signs `payload` under `secret` within the tolerance. */
export function verifyStripeSignature(payload: string, header: string | null, secret: string, now: number) {
  if (!header) return false;
  const parts = header.split(",").map((p) => p.trim().split("="));
  const timestamp = Number(parts.find(([k]) => k === "t")?.[1]);
  const signatures = parts.filter(([k, value]) => k === "v1" && value).map(([, value]) => value);
  if (!Number.isInteger(timestamp) || !signatures.length) return false;
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_S) return false;
  const expected = stripeSignature(secret, timestamp, payload);
  return signatures.some((s) => sameText(s, expected));
}

export interface StripeConfig {
  secretApiKey: string;
  webhookSecret: string;
  /** The API base; Stripe's own unless the channel names another (a local fake in tests). */
  apiBase: string;
}

export function stripeGateway(config: StripeConfig): PaymentGateway {
  const base = (config.apiBase || STRIPE_API).replace(/\/$/, "");

  async function call(path: string, body: URLSearchParams | null, idempotencyKey: string | null): Promise<PaymentOutcome & { clientSecret: string | null }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: body ? "POST" : "GET",
        headers: {
          Authorization: `Bearer ${config.secretApiKey}`,
          ...(body && { "Content-Type": "application/x-www-form-urlencoded" }),
          ...(idempotencyKey && { "Idempotency-Key": idempotencyKey }),
        },
        ...(body && { body }),
        signal: outgoingCallSignal(),
      });
    } catch (error) {
      // Unreachable: nothing is known to have moved; the same key makes a retry safe.
      return { ref: null, status: "PENDING", captured: 0, error: error instanceof Error ? error.message : String(error), clientSecret: null };
    }
    const json: unknown = await response.json().catch(() => null);
    if (response.ok) {
      const parsed = intent.safeParse(json);
      if (parsed.success) return { ...outcomeOf(parsed.data), clientSecret: parsed.data.client_secret ?? null };
      return { ref: null, status: "FAILED", captured: 0, error: `unreadable answer from Stripe (${response.status})`, clientSecret: null };
    }
    const refused = failure.safeParse(json);
    const message = refused.success ? (refused.data.error.message ?? refused.data.error.code ?? "refused") : `Stripe answered ${response.status}`;
    const pi = refused.success ? refused.data.error.payment_intent : undefined;
    return { ref: pi?.id ?? null, status: "FAILED", captured: pi?.amount_received ?? 0, error: message.slice(0, 300), clientSecret: null };
  }

  return {
    createPayment: (r: PaymentRequest) =>
      call(
        "/v1/payment_intents",
        form({
          amount: r.amount,
          currency: r.currency.toLowerCase(),
          customer: r.customerRef,
          payment_method: r.paymentMethodRef,
          confirm: true,
          off_session: true,
          capture_method: r.authoriseOnly ? "manual" : "automatic",
          metadata: r.metadata,
        }),
        r.idempotencyKey,
      ),
    // A hold the driver confirms with Stripe.js (or the test double's card form): no customer, no card on file.
    createHold: (r) =>
      call(
        "/v1/payment_intents",
        form({
          amount: r.amount,
          currency: r.currency.toLowerCase(),
          capture_method: "manual",
          "payment_method_types[]": "card",
          metadata: r.metadata,
        }),
        r.idempotencyKey,
      ),
    retrieve: (ref) => call(`/v1/payment_intents/${encodeURIComponent(ref)}`, null, null),
    cancel: (ref, idempotencyKey) => call(`/v1/payment_intents/${encodeURIComponent(ref)}/cancel`, form({}), idempotencyKey),
    capture: (ref, amount, idempotencyKey) => call(`/v1/payment_intents/${encodeURIComponent(ref)}/capture`, form({ amount_to_capture: amount }), idempotencyKey),
    async refund(ref, amount, idempotencyKey) {
      const response = await fetch(`${base}/v1/refunds`, {
        method: "POST",
        headers: { Authorization: `Bearer ${config.secretApiKey}`, "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": idempotencyKey },
        body: form({ payment_intent: ref, amount }),
        signal: outgoingCallSignal(),
      }).catch(() => null);
      const json: unknown = await response?.json().catch(() => null);
      const refund = z.object({ id: z.string() }).safeParse(json);
      if (response?.ok && refund.success) return { ref: refund.data.id, error: null };
      const refused = failure.safeParse(json);
      return { ref: null, error: refused.success ? (refused.data.error.message ?? "refused") : "Stripe did not answer" };
    },
    async verifyWebhook(payload, headers, now): Promise<PaymentEvent | null> {
      if (!verifyStripeSignature(payload, headers.get("Stripe-Signature"), config.webhookSecret, now)) return null;
      let json: unknown;
      try {
        json = JSON.parse(payload);
      } catch {
        return null;
      }
      const parsed = event.safeParse(json);
      if (!parsed.success) return null;
      const pi = parsed.data.data.object;
      const type =
        parsed.data.type === "payment_intent.succeeded"
          ? "succeeded"
          : parsed.data.type === "payment_intent.payment_failed"
            ? "failed"
            : parsed.data.type === "payment_intent.amount_capturable_updated"
              ? "authorised"
              : "other";
      return { id: parsed.data.id, type, ref: pi.id, captured: pi.amount_received, amount: pi.amount, currency: pi.currency, error: pi.last_payment_error?.message ?? null, metadata: pi.metadata };
    },
  };
}
