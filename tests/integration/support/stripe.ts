import { flatStrategy } from "./strategies";
import { SELF } from "cloudflare:test";
import { expect, inject } from "vitest";
import { stripeSignature } from "../../../workers/services/payments/stripe";
import { makeCustomer, uniqueTag } from "./drivers";
import { call, ORIGIN } from "./http";

/**
 * An operator's Stripe channel pointed at the local fake of Stripe's API
 * (tests/integration/support/fakes.ts), its customers' cards on file and the webhooks Stripe
 * would send, signed as Stripe signs them.
 */

export const SECRET_KEY = "sk_test_plugdesk0123456789";
export const WEBHOOK_SECRET = "whsec_plugdeskTestSigningSecret";
export const CHANNELS = "/system-service/payment-channel";

const origin = () => inject("fakes").httpOrigin;

export const stripeBody = (overrides: Record<string, unknown> = {}) => ({
  type: 4,
  name: "Stripe",
  environment: "sandbox",
  gateway: `${origin()}/stripe`,
  currency: "PLN",
  minimumValue: 500,
  credentials: { secretApiKey: SECRET_KEY, sharedSecret: WEBHOOK_SECRET, clientApiKey: "pk_test_x" },
  ...overrides,
});

/** The operator's enabled Stripe channel pointed at the fake, made once. */
export async function stripeChannel(token: string, overrides: Record<string, unknown> = {}) {
  const list = (await call("GET", CHANNELS, { token })).body.data as { id: number; type: number; enabled: boolean }[];
  let channel = list.find((c) => c.type === 4);
  if (!channel) {
    const made = await call("POST", CHANNELS, { token, body: stripeBody(overrides) });
    expect(made.status).toBe(200);
    channel = made.body.data;
  }
  if (!channel!.enabled) expect((await call("PUT", `${CHANNELS}/${channel!.id}/enable`, { token, body: { enabled: true } })).status).toBe(200);
  return channel!.id;
}

/** Stripe's PaymentIntent as the fake holds it. */
export const intentOf = async (id: string) => (await fetch(`${origin()}/stripe/v1/payment_intents/${id}`, { headers: { Authorization: `Bearer ${SECRET_KEY}` } })).json();

let events = 0;
/** Posts a Stripe event to the operator's webhook, signed as Stripe signs it (or not). */
export async function webhook(type: string, intentId: string, options: { secret?: string; at?: number; operatorCode?: string; signature?: string } = {}) {
  const payload = JSON.stringify({ id: `evt_${uniqueTag()}${++events}`, object: "event", type, data: { object: await intentOf(intentId) } });
  const t = Math.floor((options.at ?? Date.now()) / 1000);
  const signature = options.signature ?? `t=${t},v1=${stripeSignature(options.secret ?? WEBHOOK_SECRET, t, payload)}`;
  const res = await SELF.fetch(`${ORIGIN}/finance-service/payment-webhook/${options.operatorCode ?? "0PL002"}/stripe`, {
    method: "POST",
    headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { msg: string; data: { outcome: string } } };
}

/** Puts a card on file for a customer (Stripe's test payment methods: `pm_card_chargeDeclined` is declined). */
export async function setCard(token: string, customerId: number, paymentMethodRef: string) {
  const card = await call("PUT", `/customer-service/customer/${customerId}/payment-card`, { token, body: { customerRef: `cus_${uniqueTag()}`, paymentMethodRef } });
  expect(card.status).toBe(200);
}

/** A customer with a Stripe card on file. */
export async function payingCustomer(token: string, paymentMethodRef = "pm_card_visa") {
  const customer = await makeCustomer(token);
  await setCard(token, customer.id, paymentMethodRef);
  return customer;
}

/** A strategy at 1.0000 zł/kWh, pre-authorising `preAuthAmount` when given: its version's id. */
export async function cardStrategy(token: string, preAuthAmount?: number) {
  return (await flatStrategy(token, preAuthAmount ? { preAuthAmount } : {})).versionId;
}
