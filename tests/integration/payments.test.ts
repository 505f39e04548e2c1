import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/payments.json";
import { systemCtx } from "../../workers/services/context";
import { authoriseSession, queueAuthorisation } from "../../workers/services/payments/capture";
import { stripeGateway } from "../../workers/services/payments/stripe";
import { payments } from "../../db/schema";
import { insertAll } from "./support/bulk";
import { makeCard, makeCustomer, uniqueTag } from "./support/drivers";
import { eventually } from "../support/eventually";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { addSessions, bill } from "./support/sessions";
import { call, tokenFor } from "./support/http";
import { CHANNELS, cardStrategy, intentOf, payingCustomer as customerWithCard, SECRET_KEY, stripeBody, stripeChannel as channelAtFake, WEBHOOK_SECRET, webhook } from "./support/stripe";
import { row } from "./support/d1";

/**
 * Payment channels and card payments (docs/rules/payments.md) against a local fake of Stripe's
 * HTTP API (tests/integration/support/fakes.ts): nothing leaves the machine.
 */

const { httpOrigin } = inject("fakes");
const M = en.payments;
const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;

let pl: string;
let de: string;
let plId: number;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  de = await tokenFor("0DE001", "deadmin1");
  plId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
});

const payPalBody = (overrides: Record<string, unknown> = {}) => ({
  type: 0,
  name: "PayPal",
  environment: "live",
  currency: "pln",
  credentials: { clientId: "paypal-client-id-0001", secret: "paypal-secret-value-9876" },
  ...overrides,
});

/** The operator's enabled Stripe channel pointed at the fake, made once. */
const stripeChannel = (token = pl, overrides: Record<string, unknown> = {}) => channelAtFake(token, overrides);
/** A customer with a Stripe card on file. */
const payingCustomer = (paymentMethodRef = "pm_card_visa") => customerWithCard(pl, paymentMethodRef);

describe("payment channels", () => {
  it("asks for the type first, keeps one channel per type and refuses a second with 409", async () => {
    const untyped = await call("POST", CHANNELS, { token: pl, body: { name: "No type", environment: "live", currency: "PLN" } });
    expect(untyped.status).toBe(400);
    expect(untyped.body.msg).toBe(M.validation.typeFirst);
    const first = await call("POST", CHANNELS, { token: pl, body: payPalBody() });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ type: 0, typeName: "PayPal", enabled: false, currency: "PLN", environment: "live" });
    const second = await call("POST", CHANNELS, { token: pl, body: payPalBody({ name: "PayPal 2" }) });
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe("The payment channel already exists!");
    // Another operator has its own channels.
    const theirs = await call("POST", CHANNELS, { token: de, body: payPalBody({ currency: "EUR" }) });
    expect(theirs.status).toBe(200);
    await call("DELETE", `${CHANNELS}/${theirs.body.data.id}`, { token: de });
    expect((await call("DELETE", `${CHANNELS}/${first.body.data.id}`, { token: pl })).status).toBe(200);
  });

  it("refuses the credentials a type needs when they are missing", async () => {
    const res = await call("POST", CHANNELS, { token: pl, body: payPalBody({ credentials: { clientId: "only-the-id" } }) });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(M.validation.credentialsMissing);
    expect(res.body.data).toMatchObject({ fields: { "credentials.secret": M.validation.credentialRequired } });
    expect(await row("SELECT id FROM payment_channels WHERE operator_id = ? AND type = 0", plId)).toBeNull();
  });

  it("locks an enabled channel: no edit and no delete until it is disabled", async () => {
    const { id } = (await call("POST", CHANNELS, { token: pl, body: payPalBody() })).body.data;
    expect((await call("PUT", `${CHANNELS}/${id}/enable`, { token: pl, body: { enabled: true } })).body.data.enabled).toBe(true);
    const edit = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: payPalBody({ name: "Renamed" }) });
    expect(edit.status).toBe(409);
    expect(edit.body.msg).toBe(M.errors.enabledLocked);
    const remove = await call("DELETE", `${CHANNELS}/${id}`, { token: pl });
    expect(remove.status).toBe(409);
    expect(remove.body.msg).toBe(M.errors.enabledLocked);
    expect((await call("GET", `${CHANNELS}/${id}`, { token: pl })).body.data.name).toBe("PayPal");

    await call("PUT", `${CHANNELS}/${id}/enable`, { token: pl, body: { enabled: false } });
    // Credentials left out are kept.
    const renamed = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: payPalBody({ name: "Renamed", credentials: {} }) });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "Renamed", credentials: { clientId: "••••0001", secret: "••••9876" } });
    expect((await call("DELETE", `${CHANNELS}/${id}`, { token: pl })).status).toBe(200);
    expect((await call("GET", `${CHANNELS}/${id}`, { token: pl })).status).toBe(404);
  });

  it("seals the credentials at rest and answers them masked, at most their last four characters", async () => {
    const id = await stripeChannel();
    const raw = await row<Record<string, unknown>>("SELECT * FROM payment_channels WHERE id = ?", id);
    expect(String(raw!.credentials)).toMatch(/^v1\./);
    expect(JSON.stringify(raw)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(raw)).not.toContain(WEBHOOK_SECRET);
    expect(JSON.stringify(raw)).not.toContain("0123456789");
    const answered = (await call("GET", `${CHANNELS}/${id}`, { token: pl })).body.data;
    expect(answered.credentials).toMatchObject({ secretApiKey: "••••6789", sharedSecret: "••••cret", clientApiKey: "••••", clientId: null });
    const listed = JSON.stringify((await call("GET", CHANNELS, { token: pl })).body.data);
    expect(listed).not.toContain(SECRET_KEY);
    expect(listed).not.toContain(WEBHOOK_SECRET);
  });

  it("refuses a channel in another currency than the operator's main one, on create and on edit (400 on currency)", async () => {
    const euro = await call("POST", CHANNELS, { token: pl, body: payPalBody({ currency: "EUR" }) });
    expect(euro.status).toBe(400);
    expect(euro.body.data.fields.currency).toBe("A channel takes the operator's main currency, PLN");
    expect(await row("SELECT id FROM payment_channels WHERE operator_id = ? AND type = 0", plId)).toBeNull();
    const { id } = (await call("POST", CHANNELS, { token: pl, body: payPalBody() })).body.data;
    const edit = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: payPalBody({ currency: "eur" }) });
    expect(edit.status).toBe(400);
    expect(Object.keys(edit.body.data.fields)).toEqual(["currency"]);
    expect((await call("GET", `${CHANNELS}/${id}`, { token: pl })).body.data.currency).toBe("PLN");
    // In the operator's language, and the other operator's main currency is its own.
    const polish = await call("PUT", `${CHANNELS}/${id}?lang=pl`, { token: pl, body: payPalBody({ currency: "EUR" }) });
    expect(polish.body.data.fields.currency).toBe("Kanał musi używać głównej waluty operatora, PLN");
    expect((await call("POST", CHANNELS, { token: de, body: payPalBody({ currency: "PLN" }) })).body.data.fields.currency).toContain("EUR");
    expect((await call("DELETE", `${CHANNELS}/${id}`, { token: pl })).status).toBe(200);
  });

  it("keeps no stored credential once the gateway or the type changes: the new address needs them entered again", async () => {
    const id = await stripeChannel();
    await call("PUT", `${CHANNELS}/${id}/enable`, { token: pl, body: { enabled: false } });
    const before = await row<{ gateway: string; credentials: string }>("SELECT gateway, credentials FROM payment_channels WHERE id = ?", id);
    const elsewhere = `${httpOrigin}/elsewhere`;
    // Re-pointed without its secrets: refused, naming each one the processor needs, and nothing changes.
    const moved = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: stripeBody({ gateway: elsewhere, credentials: {} }) });
    expect(moved.status).toBe(400);
    expect(moved.body.data.fields).toEqual({ "credentials.secretApiKey": M.validation.credentialRequired, "credentials.sharedSecret": M.validation.credentialRequired });
    expect(await row("SELECT gateway, credentials FROM payment_channels WHERE id = ?", id)).toEqual(before);
    // Entered anew, they go with it; what was not entered again (the publishable key) is cleared.
    const entered = await call("PUT", `${CHANNELS}/${id}`, {
      token: pl,
      body: stripeBody({ gateway: elsewhere, credentials: { secretApiKey: "sk_test_enteredAgain0000", sharedSecret: "whsec_enteredAgain1111" } }),
    });
    expect(entered.status).toBe(200);
    expect(entered.body.data).toMatchObject({ gateway: elsewhere, credentials: { secretApiKey: "••••0000", sharedSecret: "••••1111", clientApiKey: null } });
    // Other edits keep them, as before.
    const renamed = await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: stripeBody({ gateway: elsewhere, name: "Stripe renamed", credentials: {} }) });
    expect(renamed.body.data.credentials).toMatchObject({ secretApiKey: "••••0000", sharedSecret: "••••1111" });
    // Back to the fake with the secrets the other tests use.
    expect((await call("PUT", `${CHANNELS}/${id}`, { token: pl, body: stripeBody() })).status).toBe(200);
    expect((await call("PUT", `${CHANNELS}/${id}/enable`, { token: pl, body: { enabled: true } })).status).toBe(200);
  });

  it("answers another operator's channel with 404 and refuses a role without the menu", async () => {
    const id = await stripeChannel();
    expect((await call("GET", `${CHANNELS}/${id}`, { token: de })).status).toBe(404);
    expect((await call("PUT", `${CHANNELS}/${id}/enable`, { token: de, body: { enabled: false } })).status).toBe(404);
    expect((await call("DELETE", `${CHANNELS}/${id}`, { token: de })).status).toBe(404);
    expect(((await call("GET", CHANNELS, { token: de })).body.data as { id: number }[]).map((c) => c.id)).not.toContain(id);
    const outsider = await tokenWithMenus(pl, ["home"]);
    expect((await call("GET", CHANNELS, { token: outsider })).status).toBe(403);
    expect((await call("POST", CHANNELS, { token: outsider, body: payPalBody() })).status).toBe(403);
    expect((await call("POST", "/finance-service/stripe-top-up", { token: outsider, body: { customerId: 1, amount: 1000 } })).status).toBe(403);
  });
});

describe("the Stripe adapter against the fake", () => {
  const gateway = () => stripeGateway({ secretApiKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: `${httpOrigin}/stripe` });
  const request = (key: string, overrides = {}) => ({
    amount: 5_000,
    currency: "PLN",
    customerRef: "cus_adapter",
    paymentMethodRef: "pm_card_visa",
    authoriseOnly: true,
    idempotencyKey: key,
    metadata: { paymentId: "1" },
    ...overrides,
  });

  it("authorises, captures part, refuses to capture twice, refunds, and repeats an idempotent request", async () => {
    const key = uniqueTag("key");
    const authorised = await gateway().createPayment(request(key));
    expect(authorised).toMatchObject({ status: "AUTHORISED", captured: 0, error: null });
    expect((await gateway().createPayment(request(key))).ref).toBe(authorised.ref);
    expect(await intentOf(authorised.ref!)).toMatchObject({ capture_method: "manual", currency: "pln", amount: 5_000, customer: "cus_adapter" });
    expect(await gateway().capture(authorised.ref!, 6_000, `${key}-c0`)).toMatchObject({ status: "FAILED", error: expect.stringContaining("exceeds") });
    expect(await gateway().capture(authorised.ref!, 1_235, `${key}-c1`)).toMatchObject({ status: "SUCCEEDED", captured: 1_235 });
    expect(await gateway().capture(authorised.ref!, 1_235, `${key}-c2`)).toMatchObject({ status: "FAILED" });
    expect(await gateway().refund(authorised.ref!, 235, `${key}-r1`)).toMatchObject({ ref: expect.stringMatching(/^re_/), error: null });
    expect(await gateway().refund(authorised.ref!, 5_000, `${key}-r2`)).toMatchObject({ ref: null, error: expect.any(String) });
  });

  it("answers a declined card as FAILED with Stripe's reason", async () => {
    expect(await gateway().createPayment(request(uniqueTag("key"), { paymentMethodRef: "pm_card_chargeDeclined", authoriseOnly: false }))).toMatchObject({
      status: "FAILED",
      ref: expect.stringMatching(/^pi_/),
      error: "Your card was declined.",
    });
  });

  it("sends the secret key as a bearer token and an Idempotency-Key", async () => {
    const key = uniqueTag("key");
    await gateway().createPayment(request(key));
    const seen = (await (await fetch(`${httpOrigin}/__fake/requests?path=/stripe/v1/payment_intents`)).json()) as { headers: Record<string, string>; body: string }[];
    const mine = seen.find((r) => r.headers["idempotency-key"] === key)!;
    expect(mine.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(new URLSearchParams(mine.body).get("capture_method")).toBe("manual");
    expect(new URLSearchParams(mine.body).get("off_session")).toBe("true");
  });
});

describe("Stripe top-ups", () => {
  it("writes a Paying bill, raises the balance on the signed webhook once, however often it comes", async () => {
    await stripeChannel();
    const customer = await payingCustomer();
    const before = await balanceOf(customer.id);
    const started = await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 2_500, remark: "Top-up by card" } });
    expect(started.status).toBe(200);
    const { bill: b, payment } = started.body.data;
    expect(b).toMatchObject({ type: "Recharge", status: "Paying", paymentMethod: "STRIPE", cost: 2_500, transactionNumber: expect.stringMatching(/^pi_/) });
    expect(payment).toMatchObject({ kind: "TOP_UP", status: "PENDING", intentRef: b.transactionNumber });
    expect(await balanceOf(customer.id)).toBe(before);

    // A channel disabled in between still hears about the payments it started.
    const channelId = await stripeChannel();
    await call("PUT", `${CHANNELS}/${channelId}/enable`, { token: pl, body: { enabled: false } });
    const delivered = await webhook("payment_intent.succeeded", payment.intentRef);
    await call("PUT", `${CHANNELS}/${channelId}/enable`, { token: pl, body: { enabled: true } });
    expect(delivered.status).toBe(200);
    expect(delivered.body.data.outcome).toBe("succeeded");
    await webhook("payment_intent.succeeded", payment.intentRef);
    expect(await balanceOf(customer.id)).toBe(before + 2_500);
    expect(await row("SELECT status, balance_before, balance_after, applied FROM bills WHERE id = ?", b.id)).toEqual({
      status: "PaySuccess",
      balance_before: before,
      balance_after: before + 2_500,
      applied: 1,
    });
  });

  it("believes no webhook whose signature is wrong, missing or stale", async () => {
    await stripeChannel();
    const customer = await payingCustomer();
    const { payment } = (await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 1_000 } })).body.data;
    const wrong = await webhook("payment_intent.succeeded", payment.intentRef, { secret: "whsec_someone_else" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(M.errors.badSignature);
    expect((await webhook("payment_intent.succeeded", payment.intentRef, { signature: "" })).status).toBe(400);
    expect((await webhook("payment_intent.succeeded", payment.intentRef, { at: Date.now() - 10 * 60_000 })).status).toBe(400);
    // Signed for 0PL002, sent to another operator's address: its own secret does not hold it.
    expect((await webhook("payment_intent.succeeded", payment.intentRef, { operatorCode: "0DE001" })).status).toBe(404);
    expect(await balanceOf(customer.id)).toBe(0);
    expect((await webhook("payment_intent.succeeded", payment.intentRef, { at: Date.now() - 60_000 })).status).toBe(200);
    expect(await balanceOf(customer.id)).toBe(1_000);
  });

  it("fails a declined top-up at once, and a retry with a good card ends in PaySuccess", async () => {
    await stripeChannel();
    const customer = await payingCustomer("pm_card_chargeDeclined");
    const { bill: b, payment } = (await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 1_500 } })).body.data;
    expect(b.status).toBe("PayFail");
    expect((await call("GET", `/finance-service/payment?customerId=${customer.id}`, { token: pl })).body.data.records[0]).toMatchObject({ status: "FAILED", error: "Your card was declined." });
    // Stripe's own failure event changes nothing more.
    expect((await webhook("payment_intent.payment_failed", payment.intentRef)).status).toBe(200);

    await call("PUT", `/customer-service/customer/${customer.id}/payment-card`, { token: pl, body: { customerRef: "cus_retry", paymentMethodRef: "pm_card_visa" } });
    const retried = await call("POST", `/finance-service/bill/${b.id}/retry-payment`, { token: pl });
    expect(retried.status).toBe(200);
    expect(retried.body.data.bill.status).toBe("Paying");
    expect(retried.body.data.payment).toMatchObject({ status: "PENDING", attempt: 2, error: null });
    const newIntent = retried.body.data.payment.intentRef;
    expect(newIntent).not.toBe(payment.intentRef);
    // Only a failed payment is retried.
    expect((await call("POST", `/finance-service/bill/${b.id}/retry-payment`, { token: pl })).status).toBe(409);
    await webhook("payment_intent.succeeded", newIntent);
    expect(await balanceOf(customer.id)).toBe(1_500);
    expect((await row<{ status: string }>("SELECT status FROM bills WHERE id = ?", b.id))!.status).toBe("PaySuccess");
  });

  it("refuses an amount below the channel's minimum, a customer without a card, and another operator's customer", async () => {
    await stripeChannel();
    const customer = await payingCustomer();
    const low = await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 499 } });
    expect(low.status).toBe(400);
    expect(low.body.data).toMatchObject({ fields: { amount: M.validation.belowMinimum.replace("{{minimum}}", "500") } });
    expect((await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 12.5 } })).status).toBe(400);
    const bare = await makeCustomer(pl);
    const noCard = await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: bare.id, amount: 1_000 } });
    expect(noCard.status).toBe(409);
    expect(noCard.body.msg).toBe(M.errors.noCard);
    expect((await call("POST", "/finance-service/stripe-top-up", { token: de, body: { customerId: customer.id, amount: 1_000 } })).status).toBe(404);
    expect((await call("PUT", `/customer-service/customer/${customer.id}/payment-card`, { token: de, body: { customerRef: "cus_x", paymentMethodRef: "pm_card_visa" } })).status).toBe(404);
    expect(await row("SELECT count(*) AS n FROM bills WHERE customer_id = ?", customer.id)).toEqual({ n: 0 });
  });
});

describe("the card payments list", () => {
  it("pages on the server at 100 with more than 100 rows, filtered by status, never another operator's", async () => {
    const channelId = await stripeChannel(de, { currency: "EUR", credentials: { secretApiKey: SECRET_KEY, sharedSecret: "whsec_theOtherOperatorsSecret" } });
    const customer = await makeCustomer(de, { country: "DE" });
    const deId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0DE001'"))!.id;
    const now = Date.now();
    await insertAll(
      payments,
      Array.from({ length: 150 }, (_, i) => ({
        operatorId: deId,
        customerId: customer.id,
        channelId,
        kind: "TOP_UP" as const,
        status: i % 3 === 0 ? ("FAILED" as const) : ("SUCCEEDED" as const),
        amount: 1_000 + i,
        currency: "EUR",
        intentRef: `pi_list_${now}_${i}`,
        createdAt: new Date(now - i * 1000),
        updatedAt: new Date(now - i * 1000),
      })),
    );
    const first = (await call("GET", `/finance-service/payment?customerId=${customer.id}&size=100`, { token: de })).body.data;
    expect(first).toMatchObject({ total: 150, current: 1, size: 100 });
    expect(first.records).toHaveLength(100);
    expect(first.records[0].amount).toBe(1_000);
    const second = (await call("GET", `/finance-service/payment?customerId=${customer.id}&size=100&current=2`, { token: de })).body.data;
    expect(second.records).toHaveLength(50);
    expect(second.records.at(-1).amount).toBe(1_149);
    const failed = (await call("GET", `/finance-service/payment?customerId=${customer.id}&status=FAILED&size=100`, { token: de })).body.data;
    expect(failed.total).toBe(50);
    expect((await call("GET", `/finance-service/payment?customerId=${customer.id}&size=100`, { token: pl })).body.data.total).toBe(0);
    expect((await call("GET", "/finance-service/payment?size=101", { token: de })).status).toBe(400);
  });
});

describe("sessions paid by card", () => {
  it("pre-authorises at the start, captures the total at billing; a refused capture is PayFail until a retry captures it", async () => {
    await stripeChannel();
    const versionId = await cardStrategy(pl, 5_000);
    const customer = await payingCustomer();
    await env.DB.prepare("UPDATE customers SET balance = 3000 WHERE id = ?").bind(customer.id).run();
    const card = await makeCard(pl, { customerId: customer.id });
    const made = await makeCharger("0PL002");
    const stop = new Date(Date.now() - 3_600_000);
    const [id] = await addSessions(made, [
      { start: new Date(stop.getTime() - 3_600_000).toISOString(), stop: stop.toISOString(), meterStart: 1_000, meterStop: 13_345, idTag: card.idTag, strategyVersionId: versionId },
    ]);
    const ctx = systemCtx(env, { id: plId, code: "0PL002" }, "test");
    // The start puts the pre-authorisation on the outbox queue; its consumer asks Stripe.
    await queueAuthorisation(ctx, id);
    await eventually(() => row<{ status: string }>("SELECT status FROM payments WHERE transaction_id = ?", id), (p) => p?.status === "AUTHORISED");
    expect(await authoriseSession(ctx, id)).toMatchObject({ authorised: false, reason: "exists" });
    const intent = (await row<{ intent_ref: string }>("SELECT intent_ref FROM payments WHERE transaction_id = ?", id))!.intent_ref;
    expect(await intentOf(intent)).toMatchObject({ status: "requires_capture", amount: 5_000 });

    // Stripe refuses the first capture.
    await fetch(`${httpOrigin}/__fake/answers?path=/stripe/v1/payment_intents/${intent}/capture`, {
      method: "POST",
      body: JSON.stringify([{ status: 402, body: { error: { type: "card_error", code: "card_declined", message: "Your card was declined." } } }]),
    });
    await bill(made, id);
    const record = () => call("GET", `/station-service/charge/record/${id}`, { token: pl }).then((r) => r.body.data);
    await eventually(record, (r) => r.status === "PAY_FAIL");
    const failed = await row<{ id: number; status: string; payment_method: string; cost: number }>("SELECT id, status, payment_method, cost FROM bills WHERE transaction_id = ?", id);
    expect(failed).toMatchObject({ status: "PayFail", payment_method: "STRIPE", cost: 1_235 });
    // The card pays, not the balance.
    expect(await balanceOf(customer.id)).toBe(3_000);

    const retried = await call("POST", `/finance-service/bill/${failed!.id}/retry-payment`, { token: pl });
    expect(retried.status).toBe(200);
    expect(retried.body.data.bill.status).toBe("PaySuccess");
    expect(retried.body.data.payment).toMatchObject({ status: "SUCCEEDED", captured: 1_235 });
    expect(await record()).toMatchObject({ status: "RECORD_COMPLETE", paidCost: 1_235, totalCost: 1_235 });
    expect(await intentOf(intent)).toMatchObject({ status: "succeeded", amount_received: 1_235 });
    // Billing again changes nothing.
    await bill(made, id);
    expect(await balanceOf(customer.id)).toBe(3_000);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM bills WHERE transaction_id = ?").bind(id).first<{ n: number }>())!.n).toBe(1);
  });
});
