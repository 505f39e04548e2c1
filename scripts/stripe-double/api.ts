/**
 * Stripe's API as far as the product uses it (PaymentIntents: create, confirm, capture, cancel;
 * refunds), with Stripe's test payment methods: `pm_card_chargeDeclined` is declined, any other
 * `pm_…` is accepted. A repeated `Idempotency-Key` answers what it answered the first time, as
 * Stripe does. One logic for the integration tests' fake (tests/integration/support/fakes.ts)
 * and the test double `npm start` serves on loopback (scripts/stripe-double/server.ts;
 * docs/decisions/0049-stripe-over-http-with-a-local-fake.md).
 *
 * A hold confirmed in the browser (docs/rules/payments.md "Ad-hoc payment") is created without a
 * payment method (`requires_payment_method`) and confirmed with its client secret and a
 * publishable key, as Stripe.js does: `POST /v1/payment_intents/{id}/confirm`.
 */

export interface FakeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  status: string;
  capture_method: string;
  customer: string;
  payment_method: string;
  client_secret: string;
  metadata: Record<string, string>;
  last_payment_error: { code: string; message: string } | null;
}

export interface StripeAnswer {
  status: number;
  body: unknown;
}

/** The test card numbers the double's form takes: Stripe's, the declined one refused. */
export const TEST_CARDS: Record<string, string> = { "4242424242424242": "pm_card_visa", "4000000000000002": "pm_card_chargeDeclined" };

/** A fresh double: its own intents, refunds and idempotency keys. */
export function stripeApi() {
  const intents = new Map<string, FakeIntent>();
  const refunded = new Map<string, number>();
  const idempotent = new Map<string, StripeAnswer>();
  let serial = 0;
  const fail = (status: number, type: string, code: string, message: string, intent?: FakeIntent) => ({ status, body: { error: { type, code, message, ...(intent ? { payment_intent: intent } : {}) } } });

  /** Takes a payment method on an intent: declined, held (manual capture) or taken. */
  function pay(intent: FakeIntent, paymentMethod: string): StripeAnswer {
    intent.payment_method = paymentMethod;
    if (paymentMethod === "pm_card_chargeDeclined") {
      intent.last_payment_error = { code: "card_declined", message: "Your card was declined." };
      intent.status = "requires_payment_method";
      return fail(402, "card_error", "card_declined", "Your card was declined.", intent);
    }
    intent.last_payment_error = null;
    if (intent.capture_method === "manual") Object.assign(intent, { status: "requires_capture", amount_capturable: intent.amount });
    else Object.assign(intent, { status: "succeeded", amount_received: intent.amount });
    return { status: 200, body: intent };
  }

  function handle(method: string, path: string, headers: Record<string, string>, body: string): StripeAnswer {
    const form = new URLSearchParams(body);
    const auth = headers.authorization ?? "";
    const confirm = /^\/v1\/payment_intents\/(\w+)\/confirm$/.exec(path);
    // The browser confirms with the publishable key and the intent's client secret (Stripe.js).
    if (method === "POST" && confirm && /^pk_(test|live)_\w+$/.test(form.get("key") ?? "")) {
      const intent = intents.get(confirm[1]);
      if (!intent || form.get("client_secret") !== intent.client_secret) return fail(404, "invalid_request_error", "resource_missing", "No such payment_intent");
      if (intent.status !== "requires_payment_method") return fail(400, "invalid_request_error", "payment_intent_unexpected_state", `This PaymentIntent's status is ${intent.status}.`, intent);
      return pay(intent, form.get("payment_method") ?? "");
    }
    if (!/^Bearer sk_(test|live)_\w+$/.test(auth)) return fail(401, "invalid_request_error", "api_key_invalid", "Invalid API Key provided");
    const key = headers["idempotency-key"];
    const replay = key ? idempotent.get(`${path} ${key}`) : undefined;
    if (replay) return replay;
    const answer = ((): StripeAnswer => {
      const get = /^\/v1\/payment_intents\/(\w+)$/.exec(path);
      if (method === "GET" && get) return intents.has(get[1]) ? { status: 200, body: intents.get(get[1]) } : fail(404, "invalid_request_error", "resource_missing", "No such payment_intent");
      if (method === "POST" && path === "/v1/payment_intents") {
        const amount = Number(form.get("amount"));
        if (!Number.isInteger(amount) || amount < 1) return fail(400, "invalid_request_error", "parameter_invalid_integer", "Invalid integer: amount");
        const metadata: Record<string, string> = {};
        for (const [k, v] of form) {
          const m = /^metadata\[(\w+)\]$/.exec(k);
          if (m) metadata[m[1]] = v;
        }
        const id = `pi_fake${++serial}`;
        const intent: FakeIntent = {
          id,
          object: "payment_intent",
          amount,
          amount_capturable: 0,
          amount_received: 0,
          currency: form.get("currency") ?? "",
          status: "requires_payment_method",
          capture_method: form.get("capture_method") === "manual" ? "manual" : "automatic",
          customer: form.get("customer") ?? "",
          payment_method: form.get("payment_method") ?? "",
          client_secret: `${id}_secret_${crypto.randomUUID().replace(/-/g, "")}`,
          metadata,
          last_payment_error: null,
        };
        intents.set(intent.id, intent);
        // Without a payment method the intent waits for the browser to confirm it.
        return intent.payment_method ? pay(intent, intent.payment_method) : { status: 200, body: intent };
      }
      const capture = /^\/v1\/payment_intents\/(\w+)\/capture$/.exec(path);
      if (method === "POST" && capture) {
        const intent = intents.get(capture[1]);
        if (!intent) return fail(404, "invalid_request_error", "resource_missing", "No such payment_intent");
        if (intent.status !== "requires_capture") return fail(400, "invalid_request_error", "payment_intent_unexpected_state", `This PaymentIntent could not be captured because it has a status of ${intent.status}.`, intent);
        const amount = form.has("amount_to_capture") ? Number(form.get("amount_to_capture")) : intent.amount_capturable;
        if (amount > intent.amount_capturable) return fail(400, "invalid_request_error", "amount_too_large", "Amount to capture exceeds what was authorised.", intent);
        Object.assign(intent, { status: "succeeded", amount_received: amount, amount_capturable: 0 });
        return { status: 200, body: intent };
      }
      const cancel = /^\/v1\/payment_intents\/(\w+)\/cancel$/.exec(path);
      if (method === "POST" && cancel) {
        const intent = intents.get(cancel[1]);
        if (!intent) return fail(404, "invalid_request_error", "resource_missing", "No such payment_intent");
        if (intent.status === "succeeded" || intent.status === "canceled") return fail(400, "invalid_request_error", "payment_intent_unexpected_state", `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`, intent);
        Object.assign(intent, { status: "canceled", amount_capturable: 0 });
        return { status: 200, body: intent };
      }
      if (method === "POST" && path === "/v1/refunds") {
        const intent = intents.get(form.get("payment_intent") ?? "");
        if (!intent) return fail(404, "invalid_request_error", "resource_missing", "No such payment_intent");
        const amount = Number(form.get("amount") ?? intent.amount_received);
        const already = refunded.get(intent.id) ?? 0;
        if (amount + already > intent.amount_received) return fail(400, "invalid_request_error", "amount_too_large", "Refund amount is greater than the unrefunded amount.");
        refunded.set(intent.id, already + amount);
        return { status: 200, body: { id: `re_fake${++serial}`, object: "refund", amount, payment_intent: intent.id, status: "succeeded" } };
      }
      return fail(404, "invalid_request_error", "unrecognized_url", `Unrecognized request URL (${method}: ${path})`);
    })();
    if (key) idempotent.set(`${path} ${key}`, answer);
    return answer;
  }

  return { handle, intents, count: () => intents.size };
}
