import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/payments.json";
import { paypalGateway } from "../../workers/services/payments/paypal";
import { makeCustomer, uniqueTag } from "./support/drivers";
import { call, ORIGIN, tokenFor } from "./support/http";
import { CLIENT_ID, CLIENT_SECRET, type FakeOrder } from "./support/paypal";
import { CHANNELS } from "./support/stripe";
import { row } from "./support/d1";

/**
 * PayPal behind the payment gateway (docs/rules/payments.md "PayPal") against the local fake of
 * PayPal's REST API (tests/integration/support/paypal.ts, served by tests/integration/support/fakes.ts):
 * orders created, authorised, captured, voided and refunded; webhooks verified by PayPal's verify
 * endpoint and applied once; top-ups recorded with way PAYPAL; the other types not supported yet.
 */

const { httpOrigin } = inject("fakes");
const M = en.payments;
const WEBHOOK_ID = "WHPLUGDESKTEST0001";
const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;

const gateway = (decimals = 2) =>
  paypalGateway({ clientId: CLIENT_ID, secret: CLIENT_SECRET, webhookId: WEBHOOK_ID, environment: "sandbox", apiBase: `${httpOrigin}/paypal`, decimals });
const orderAtFake = async (id: string) => (await (await fetch(`${httpOrigin}/paypal/__fake/orders/${id}`)).json()) as FakeOrder;
const requestsTo = async (path: string) =>
  (await (await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent(`/paypal${path}`)}`)).json()) as { method: string; headers: Record<string, string>; body: string }[];

let pl: string;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
});

const paypalBody = (overrides: Record<string, unknown> = {}) => ({
  type: 0,
  name: "PayPal",
  environment: "sandbox",
  gateway: `${httpOrigin}/paypal`,
  currency: "PLN",
  minimumValue: 500,
  credentials: { clientId: CLIENT_ID, secret: CLIENT_SECRET, webhookId: WEBHOOK_ID },
  ...overrides,
});

/** The operator's enabled PayPal channel pointed at the fake, made once. */
async function paypalChannel() {
  const list = (await call("GET", CHANNELS, { token: pl })).body.data as { id: number; type: number; enabled: boolean }[];
  let channel = list.find((c) => c.type === 0);
  if (!channel) {
    const made = await call("POST", CHANNELS, { token: pl, body: paypalBody() });
    expect(made.status).toBe(200);
    channel = made.body.data;
  }
  if (!channel!.enabled) expect((await call("PUT", `${CHANNELS}/${channel!.id}/enable`, { token: pl, body: { enabled: true } })).status).toBe(200);
  return channel!.id;
}

/** A customer whose PayPal vault (payment token) is on file. */
async function vaultedCustomer(vault = `VAULT${uniqueTag()}`.replace(/\W/g, "")) {
  const customer = await makeCustomer(pl);
  const card = await call("PUT", `/customer-service/customer/${customer.id}/payment-card`, { token: pl, body: { channelType: 0, customerRef: "PPCUSTOMER01", paymentMethodRef: vault } });
  expect(card.status).toBe(200);
  return customer;
}

let events = 0;
/** Posts a PayPal event to the operator's webhook, its transmission signed by the fake (or not). */
async function deliver(eventType: string, resource: unknown, options: { webhookId?: string; tamper?: boolean; eventId?: string; headers?: Record<string, string> } = {}) {
  const payload = JSON.stringify({ id: options.eventId ?? `WH-${uniqueTag()}-${++events}`, event_type: eventType, resource_type: "capture", resource });
  const signed = (await (await fetch(`${httpOrigin}/paypal/__fake/sign`, { method: "POST", body: JSON.stringify({ webhookId: options.webhookId ?? WEBHOOK_ID, payload }) })).json()) as Record<string, string>;
  // A base64 signature starts with "x" once in 64: tampering changes its first character to another one.
  const sig = signed["PayPal-Transmission-Sig"];
  if (options.tamper) signed["PayPal-Transmission-Sig"] = `${sig.startsWith("x") ? "y" : "x"}${sig.slice(1)}`;
  return post(payload, options.headers ?? signed);
}
async function post(payload: string, headers: Record<string, string>) {
  const res = await SELF.fetch(`${ORIGIN}/finance-service/payment-webhook/0PL002/paypal`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: payload });
  return { status: res.status, body: (await res.json()) as { msg: string; data: { outcome: string } } };
}

/** A top-up through PayPal: its bill, its payment and the capture PayPal made of the vaulted order. */
async function paypalTopUp(customerId: number, amount: number) {
  const started = await call("POST", "/finance-service/card-top-up", { token: pl, body: { channelType: 0, customerId, amount } });
  expect(started.status).toBe(200);
  const { bill, payment } = started.body.data;
  const order = await orderAtFake(payment.intentRef);
  return { bill, payment, capture: order.purchase_units[0].payments.captures[0] };
}

describe("the PayPal gateway", () => {
  it("creates, authorises, captures, voids and refunds orders, with a token and a request id on every call", async () => {
    const paypal = gateway();
    const held = await paypal.createPayment({ amount: 2_000, currency: "PLN", customerRef: "PPCUSTOMER01", paymentMethodRef: "VAULTOK1", authoriseOnly: true, idempotencyKey: `hold-${uniqueTag()}`, metadata: { paymentId: "901" } });
    expect(held).toMatchObject({ status: "AUTHORISED", ref: expect.stringMatching(/^ORDER/) });
    let order = await orderAtFake(held.ref!);
    expect(order).toMatchObject({ intent: "AUTHORIZE", purchase_units: [{ custom_id: "901", amount: { currency_code: "PLN", value: "20.00" } }] });

    // Captures at most what was authorised; PayPal voids the rest.
    expect(await paypal.capture(held.ref!, 2_500, `too-much-${uniqueTag()}`)).toMatchObject({ status: "FAILED", error: "MAX_CAPTURE_AMOUNT_EXCEEDED" });
    expect(await paypal.capture(held.ref!, 1_505, `capture-${uniqueTag()}`)).toEqual({ ref: held.ref, status: "SUCCEEDED", captured: 1_505, error: null });
    order = await orderAtFake(held.ref!);
    expect(order.purchase_units[0].payments.captures[0]).toMatchObject({ status: "COMPLETED", amount: { value: "15.05" } });

    // Refunds part, then never more than is left.
    expect(await paypal.refund(held.ref!, 505, `refund-${uniqueTag()}`)).toEqual({ ref: expect.stringMatching(/^REF/), error: null });
    expect(await paypal.refund(held.ref!, 1_001, `refund-${uniqueTag()}`)).toEqual({ ref: null, error: "REFUND_AMOUNT_EXCEEDED" });
    expect(await paypal.refund(held.ref!, 1_000, `refund-${uniqueTag()}`)).toMatchObject({ ref: expect.stringMatching(/^REF/) });

    // A hold the payer approves is authorised when read back approved, then voided.
    const hold = await paypal.createHold({ amount: 5_000, currency: "PLN", idempotencyKey: `adhoc-${uniqueTag()}`, metadata: { paymentId: "902" } });
    expect(hold).toMatchObject({ status: "PENDING", clientSecret: hold.ref });
    expect(await paypal.retrieve(hold.ref!)).toMatchObject({ status: "PENDING" });
    expect((await fetch(`${httpOrigin}/paypal/__fake/approve/${hold.ref}`, { method: "POST" })).status).toBe(200);
    expect(await paypal.retrieve(hold.ref!)).toMatchObject({ status: "AUTHORISED" });
    expect(await paypal.cancel(hold.ref!, `void-${uniqueTag()}`)).toMatchObject({ status: "FAILED", error: "VOIDED" });
    expect((await orderAtFake(hold.ref!)).purchase_units[0].payments.authorizations[0].status).toBe("VOIDED");

    // Every POST carried a PayPal-Request-Id and every API call a bearer token from client credentials.
    const calls = [
      ...(await requestsTo("/v2/checkout/orders")),
      ...(await requestsTo(`/v2/checkout/orders/${hold.ref}/authorize`)),
      ...(await requestsTo(`/v2/payments/authorizations/${order.purchase_units[0].payments.authorizations[0].id}/capture`)),
    ];
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const c of calls) {
      expect(c.headers["paypal-request-id"]).toBeTruthy();
      expect(c.headers.authorization).toMatch(/^Bearer A21AA/);
    }
    const tokens = await requestsTo("/v1/oauth2/token");
    expect(tokens[0].headers.authorization).toBe(`Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`);
  });

  it("makes a repeated request the same order, refuses a declined vault, and writes amounts in the currency's decimals", async () => {
    const paypal = gateway();
    const key = `same-${uniqueTag()}`;
    const request = { amount: 1_250, currency: "PLN", customerRef: "PPCUSTOMER01", paymentMethodRef: "VAULTOK2", authoriseOnly: false, idempotencyKey: key, metadata: { paymentId: "903" } };
    const first = await paypal.createPayment(request);
    expect(first).toMatchObject({ status: "SUCCEEDED", captured: 1_250 });
    expect((await paypal.createPayment(request)).ref).toBe(first.ref);

    expect(await paypal.createPayment({ ...request, idempotencyKey: `declined-${uniqueTag()}`, paymentMethodRef: "declinedVault" })).toMatchObject({ status: "FAILED", error: "INSTRUMENT_DECLINED" });

    // JPY at PayPal has no decimals: 1250 minor units of a 0-decimal yen is "1250"; a 2-decimal HUF amount with cents cannot go.
    const yen = await gateway(0).createPayment({ ...request, currency: "JPY", idempotencyKey: `jpy-${uniqueTag()}` });
    expect((await orderAtFake(yen.ref!)).purchase_units[0].amount).toEqual({ currency_code: "JPY", value: "1250" });
    const forint = await gateway(2).createPayment({ ...request, currency: "HUF", amount: 12_345, idempotencyKey: `huf-${uniqueTag()}` });
    expect(forint).toMatchObject({ status: "FAILED", ref: null });
    const wrongCredentials = paypalGateway({ clientId: CLIENT_ID, secret: "wrong", webhookId: WEBHOOK_ID, environment: "sandbox", apiBase: `${httpOrigin}/paypal`, decimals: 2 });
    expect(await wrongCredentials.createPayment({ ...request, idempotencyKey: `auth-${uniqueTag()}` })).toMatchObject({ status: "FAILED", ref: null, error: "PayPal refused the channel's client id and secret" });
  });
});

describe("PayPal top-ups and webhooks", () => {
  it("records a top-up paid by PayPal with way PAYPAL, applied by its verified webhook once however often it comes", async () => {
    await paypalChannel();
    const customer = await vaultedCustomer();
    const before = await balanceOf(customer.id);
    const { bill, payment, capture } = await paypalTopUp(customer.id, 2_500);
    expect(bill).toMatchObject({ type: "Recharge", status: "Paying", paymentMethod: "PAYPAL", cost: 2_500, transactionNumber: payment.intentRef });
    expect(capture).toMatchObject({ status: "COMPLETED", amount: { currency_code: "PLN", value: "25.00" }, custom_id: String(payment.id) });
    expect(await balanceOf(customer.id)).toBe(before);

    const eventId = `WH-${uniqueTag()}`;
    const delivered = await deliver("PAYMENT.CAPTURE.COMPLETED", capture, { eventId });
    expect(delivered).toMatchObject({ status: 200, body: { data: { outcome: "succeeded" } } });
    expect(await balanceOf(customer.id)).toBe(before + 2_500);
    // The same event again, in a new transmission or replayed as it was: nothing twice.
    expect((await deliver("PAYMENT.CAPTURE.COMPLETED", capture, { eventId })).body.data.outcome).toBe("duplicate");
    expect(await balanceOf(customer.id)).toBe(before + 2_500);
    expect(await row("SELECT status, balance_before, balance_after, applied FROM bills WHERE id = ?", bill.id)).toEqual({ status: "PaySuccess", balance_before: before, balance_after: before + 2_500, applied: 1 });
    const records = await env.DB.prepare("SELECT way, amount, balance_before, balance_after, third_party_code FROM recharges WHERE customer_id = ?").bind(customer.id).all();
    expect(records.results).toEqual([{ way: "PAYPAL", amount: 2_500, balance_before: before, balance_after: before + 2_500, third_party_code: payment.intentRef }]);
    expect(await row("SELECT count(*) AS n FROM payment_webhook_events WHERE event_id = ?", eventId)).toEqual({ n: 1 });
  });

  it("refuses a webhook whose signature PayPal does not verify: tampered, for another webhook, or unsigned", async () => {
    await paypalChannel();
    const customer = await vaultedCustomer();
    const before = await balanceOf(customer.id);
    const { capture } = await paypalTopUp(customer.id, 1_000);
    for (const refused of [
      await deliver("PAYMENT.CAPTURE.COMPLETED", capture, { tamper: true }),
      await deliver("PAYMENT.CAPTURE.COMPLETED", capture, { webhookId: "WHSOMEONEELSE" }),
      await deliver("PAYMENT.CAPTURE.COMPLETED", capture, { headers: {} }),
    ]) {
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(M.errors.badSignature);
    }
    expect(await balanceOf(customer.id)).toBe(before);
    // An operator without a PayPal channel has no PayPal webhook.
    const res = await SELF.fetch(`${ORIGIN}/finance-service/payment-webhook/0DE001/paypal`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
  });

  it("moves no balance for an event in another currency, for another amount, or with an amount PayPal would not write", async () => {
    await paypalChannel();
    const customer = await vaultedCustomer();
    const before = await balanceOf(customer.id);
    const { bill, capture } = await paypalTopUp(customer.id, 1_500);
    const euro = await deliver("PAYMENT.CAPTURE.COMPLETED", { ...capture, amount: { currency_code: "EUR", value: "15.00" } });
    expect(euro.body.data.outcome).toBe("mismatch");
    const less = await deliver("PAYMENT.CAPTURE.COMPLETED", { ...capture, amount: { currency_code: "PLN", value: "1.50" } });
    expect(less.body.data.outcome).toBe("mismatch");
    const more = await deliver("PAYMENT.CAPTURE.COMPLETED", { ...capture, amount: { currency_code: "PLN", value: "150.00" } });
    expect(more.body.data.outcome).toBe("mismatch");
    for (const value of ["-15.00", "15.001", "1.5e1"]) {
      expect((await deliver("PAYMENT.CAPTURE.COMPLETED", { ...capture, amount: { currency_code: "PLN", value } })).status).toBe(400);
    }
    expect(await balanceOf(customer.id)).toBe(before);
    expect(await row("SELECT status FROM bills WHERE id = ?", bill.id)).toEqual({ status: "Paying" });
    // The right one still applies afterwards.
    expect((await deliver("PAYMENT.CAPTURE.COMPLETED", capture)).body.data.outcome).toBe("succeeded");
    expect(await balanceOf(customer.id)).toBe(before + 1_500);
  });

  it("fails the top-up when PayPal declines the vault, and honours the Idempotency-Key", async () => {
    await paypalChannel();
    const declined = await vaultedCustomer("declinedVault01");
    const before = await balanceOf(declined.id);
    const refused = await call("POST", "/finance-service/card-top-up", { token: pl, body: { channelType: 0, customerId: declined.id, amount: 1_000 } });
    expect(refused.status).toBe(200);
    expect(refused.body.data.bill).toMatchObject({ status: "PayFail", paymentMethod: "PAYPAL" });
    expect(refused.body.data.payment).toMatchObject({ status: "FAILED", error: "INSTRUMENT_DECLINED" });
    // Another vault on file, then "Retry payment" (the bill screens' action): a new order under the next attempt's request id.
    const vault = await call("PUT", `/customer-service/customer/${declined.id}/payment-card`, { token: pl, body: { channelType: 0, customerRef: "PPCUSTOMER01", paymentMethodRef: "VAULTRETRY01" } });
    expect(vault.status).toBe(200);
    const retried = await call("POST", `/finance-service/bill/${refused.body.data.bill.id}/retry-payment`, { token: pl });
    expect(retried.status).toBe(200);
    expect(retried.body.data.payment).toMatchObject({ status: "PENDING", attempt: 2, intentRef: expect.stringMatching(/^ORDER/) });
    const order = await orderAtFake(retried.body.data.payment.intentRef);
    expect((await deliver("PAYMENT.CAPTURE.COMPLETED", order.purchase_units[0].payments.captures[0])).body.data.outcome).toBe("succeeded");
    expect(await balanceOf(declined.id)).toBe(before + 1_000);

    const customer = await vaultedCustomer();
    const key = `top-up-${uniqueTag()}`;
    const body = { channelType: 0, customerId: customer.id, amount: 1_000 };
    const first = await call("POST", "/finance-service/card-top-up", { token: pl, body, headers: { "Idempotency-Key": key } });
    const again = await call("POST", "/finance-service/card-top-up", { token: pl, body, headers: { "Idempotency-Key": key } });
    expect(again.body.data.bill.id).toBe(first.body.data.bill.id);
    expect((await call("POST", "/finance-service/card-top-up", { token: pl, body: { ...body, amount: 2_000 }, headers: { "Idempotency-Key": key } })).status).toBe(409);
  });
});

describe("the other channel types", () => {
  it("stay configurable and answer 'not supported yet' when used", async () => {
    const customer = await makeCustomer(pl);
    const made = await call("POST", CHANNELS, { token: pl, body: { type: 1, name: "PSiGate", environment: "sandbox", currency: "PLN", credentials: { account: "psigate-acct-0001", storePass: "psigate-pass-0001" } } });
    expect(made.status).toBe(200);
    expect((await call("PUT", `${CHANNELS}/${made.body.data.id}/enable`, { token: pl, body: { enabled: true } })).status).toBe(200);
    for (const channelType of [1, 2, 3, 5, 6, 7, 8]) {
      const res = await call("POST", "/finance-service/card-top-up", { token: pl, body: { channelType, customerId: customer.id, amount: 1_000 } });
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe(M.errors.noAdapter);
    }
    expect(await row("SELECT count(*) AS n FROM bills WHERE customer_id = ?", customer.id)).toEqual({ n: 0 });
    const unknown = await call("POST", "/finance-service/card-top-up", { token: pl, body: { channelType: 9, customerId: customer.id, amount: 1_000 } });
    expect(unknown.status).toBe(400);
  });
});

describe("a PayPal channel's credentials", () => {
  it("never follow a changed environment (sandbox or live API) or gateway, and stay with an unchanged one", async () => {
    const id = await paypalChannel();
    expect((await call("PUT", `${CHANNELS}/${id}/enable`, { token: pl, body: { enabled: false } })).status).toBe(200);
    for (const moved of [paypalBody({ environment: "live", credentials: {} }), paypalBody({ gateway: "https://paypal.example.com", credentials: {} })]) {
      const res = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: moved });
      expect(res.status).toBe(400);
      expect(res.body.data).toMatchObject({ fields: { "credentials.clientId": M.validation.credentialRequired, "credentials.secret": M.validation.credentialRequired } });
    }
    const kept = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: paypalBody({ name: "PayPal renamed", credentials: {} }) });
    expect(kept.status).toBe(200);
    expect(kept.body.data.credentials).toMatchObject({ clientId: "••••0001", secret: "••••9876", webhookId: "••••0001" });
    const live = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: paypalBody({ environment: "live", credentials: { clientId: "AplugdeskLiveClient0002", secret: "EplugdeskLiveSecret0002" } }) });
    expect(live.status).toBe(200);
    // The webhook id was not entered again: it stayed behind with the sandbox.
    expect(live.body.data.credentials).toMatchObject({ clientId: "••••0002", secret: "••••0002", webhookId: null });
  });
});
