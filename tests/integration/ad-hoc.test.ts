import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { connect, eventually, landed, type TestCharger } from "./support/charger";
import { makeCharger } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";
import { arrived, smtp } from "./support/mail";
import { bill } from "./support/sessions";
import { flatStrategy } from "./support/strategies";
import { intentOf, stripeChannel, webhook } from "./support/stripe";
import { row } from "./support/d1";

/**
 * Ad-hoc payment on a charger's public page (docs/rules/payments.md "Ad-hoc payment") against the
 * Stripe fake (tests/integration/support/fakes.ts, scripts/stripe-double/api.ts): the hold, its
 * authorisation, the remote start with a one-time tag, the stop, the capture of the receipt's
 * total and the release of the rest; a charger that never starts; the hold reached; bad input.
 */

const at = (offsetS = 0) => new Date(Date.now() + offsetS * 1000).toISOString();

let pl: string;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  await stripeChannel(pl);
  expect((await call("PUT", "/system-service/mail", { token: pl, body: smtp() })).status).toBe(200);
});

let clients = 0;
/** Each test is its own client, so that the per-client limit counts only its own starts. */
const client = () => `198.51.100.${++clients}`;

async function publicCall(method: string, path: string, options: { body?: unknown; key?: string; ip?: string; raw?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json", "CF-Connecting-IP": options.ip ?? "198.51.100.200" };
  if (options.key) headers["Idempotency-Key"] = options.key;
  const res = await SELF.fetch(`${ORIGIN}${path}`, { method, headers, body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}

/** An enabled 1.6 charger online with connector 1 Available, charging by a flat 1 zł/kWh strategy pre-authorising `preAuthAmount`. */
async function onlineCharger(preAuthAmount: number, options: { ocppVersion?: "OCPP201" } = {}) {
  const strategy = await flatStrategy(pl, { preAuthAmount });
  const made = await makeCharger("0PL002", options);
  await env.DB.prepare("UPDATE points SET charge_strategy_id = ? WHERE id = ?").bind(strategy.id, made.pointId).run();
  const v201 = options.ocppVersion === "OCPP201";
  const charger = (await connect(made.serialNumber, { key: made.key, protocols: v201 ? "ocpp2.0.1" : "ocpp1.6" })).charger!;
  if (v201) {
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Plugdesk", model: "Sim201" } });
    await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId: 1, connectorId: 1 });
  } else {
    await charger.call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "TestCharger" });
    await charger.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: at() });
  }
  await landed();
  return { ...made, charger };
}

/** The driver confirms the hold in the browser, as Stripe.js does, with the publishable key and the client secret. */
async function confirmCard(clientSecret: string, paymentMethod = "pm_card_visa") {
  const id = clientSecret.split("_secret_")[0];
  const res = await fetch(`${inject("fakes").httpOrigin}/stripe/v1/payment_intents/${id}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ key: "pk_test_x", client_secret: clientSecret, payment_method: paymentMethod }),
  });
  expect(res.status).toBe(paymentMethod === "pm_card_visa" ? 200 : 402);
  return id;
}

/** The charger's next remote start, answered with `status`; resolves with what it was asked. */
function remoteStart(charger: TestCharger, action: "RemoteStartTransaction" | "RequestStartTransaction", status = "Accepted") {
  return new Promise<any>((resolve) =>
    charger.answer(action, (payload) => {
      resolve(payload);
      return { status };
    }),
  );
}

const follow = (handle: string) => publicCall("GET", `/public-service/ad-hoc/${handle}`).then((r) => r.body.data);

describe("an ad-hoc session paid by card on a 1.6 charger", () => {
  it("holds the card, starts with a one-time tag, stops, captures the receipt's total and releases the rest, once", async () => {
    const { charger, serialNumber, operatorId } = await onlineCharger(5_000);
    const ip = client();
    const offer = await publicCall("GET", `/public-service/charger/${serialNumber}/ad-hoc`);
    expect(offer.body.data).toMatchObject({ available: true, hold: "50.00", currency: "PLN", publishableKey: "pk_test_x" });

    const email = `driver-${serialNumber.toLowerCase()}@example.com`;
    const body = { connectorId: 1, email };
    const started = await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body, key: `adhoc-${serialNumber}`, ip });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { clientSecret, handle } = started.body.data as { clientSecret: string; handle: string };
    expect(Object.keys(started.body.data).sort()).toEqual(["clientSecret", "handle"]);
    expect(handle).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // The same key and body: the first answer, no second hold; another body under it: 409.
    const repeated = await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body, key: `adhoc-${serialNumber}`, ip });
    expect(repeated.body.data).toEqual({ clientSecret, handle });
    expect((await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 2 }, key: `adhoc-${serialNumber}`, ip })).status).toBe(409);
    // One live session per connector.
    expect((await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip })).status).toBe(409);

    expect(await follow(handle)).toEqual({ handle, status: "AWAITING_PAYMENT", connectorId: 1, energyWh: 0, cost: "0.00", currency: "PLN", receiptUrl: null });
    const intentId = await confirmCard(clientSecret);
    expect(await intentOf(intentId)).toMatchObject({ status: "requires_capture", amount: 5_000, capture_method: "manual" });

    const asked = remoteStart(charger, "RemoteStartTransaction");
    expect((await webhook("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    const { idTag, connectorId } = await asked;
    expect(connectorId).toBe(1);
    expect(idTag).toMatch(/^AH[A-Z0-9]{18}$/);
    expect((await follow(handle)).status).toBe("STARTING");

    expect(await charger.call("Authorize", { idTag })).toEqual({ idTagInfo: { status: "Accepted" } });
    const start = await charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 1_000, timestamp: at(-60) });
    expect(start.idTagInfo.status).toBe("Accepted");
    await charger.call("MeterValues", { connectorId: 1, transactionId: start.transactionId, meterValue: [{ timestamp: at(-30), sampledValue: [{ value: "3000", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }] });
    expect(await follow(handle)).toMatchObject({ status: "CHARGING", energyWh: 2_000, cost: "2.00", receiptUrl: null });

    const stopAsked = new Promise<any>((resolve) => charger.answer("RemoteStopTransaction", (p) => (resolve(p), { status: "Accepted" })));
    expect((await publicCall("POST", `/public-service/ad-hoc/${handle}/stop`)).status).toBe(200);
    expect(await stopAsked).toEqual({ transactionId: start.transactionId });
    await charger.call("StopTransaction", { transactionId: start.transactionId, idTag, meterStop: 13_345, timestamp: at(), reason: "Remote" });
    // The one-time tag started its one session: never another.
    expect((await charger.call("Authorize", { idTag })).idTagInfo.status).not.toBe("Accepted");

    await bill({ operatorId }, start.transactionId);
    const done = await eventually(() => follow(handle), (s) => s.status === "FINISHED", 15_000);
    expect(done).toMatchObject({ status: "FINISHED", energyWh: 12_345, cost: "12.35", currency: "PLN" });
    const record = await row<{ receipt_token: string; status: string; paid_cost: number }>("SELECT receipt_token, status, paid_cost FROM charge_records WHERE transaction_id = ?", start.transactionId);
    expect(done.receiptUrl).toBe(`${ORIGIN}/tourist/chargingRecordDetails/${record!.receipt_token}`);
    expect(record).toMatchObject({ status: "RECORD_COMPLETE", paid_cost: 1_235 });
    // The receipt goes to the address the driver gave on the page.
    const [mail] = await arrived(email);
    expect(mail.text).toContain(`/tourist/chargingRecordDetails/${record!.receipt_token}`);
    // Exactly the receipt's total was captured; Stripe releases the other 37.65 zł.
    expect(await intentOf(intentId)).toMatchObject({ status: "succeeded", amount: 5_000, amount_received: 1_235, amount_capturable: 0 });
    expect(await row("SELECT status, captured, transaction_id FROM payments WHERE intent_ref = ?", intentId)).toEqual({ status: "SUCCEEDED", captured: 1_235, transaction_id: start.transactionId });
    // Not debited from any wallet: the card paid, one bill.
    expect(await row("SELECT count(*) AS n, sum(cost) AS cost FROM bills WHERE transaction_id = ?", start.transactionId)).toEqual({ n: 1, cost: 1_235 });
    expect((await webhook("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    expect((await follow(handle)).status).toBe("FINISHED");
    charger.close();
  });

  it("releases the hold when the charger never starts, and fails the session", async () => {
    const { charger, serialNumber } = await onlineCharger(5_000);
    const started = await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() });
    const { clientSecret, handle } = started.body.data;
    const intentId = await confirmCard(clientSecret);
    const asked = remoteStart(charger, "RemoteStartTransaction");
    // The page's polling finds the intent authorised before any webhook.
    expect((await follow(handle)).status).toBe("STARTING");
    await asked;
    // Five minutes later nothing has started.
    await env.DB.prepare("UPDATE ad_hoc_sessions SET authorised_at = ? WHERE handle = ?").bind(Date.now() - 6 * 60_000, handle).run();
    expect(await follow(handle)).toMatchObject({ status: "FAILED", receiptUrl: null });
    expect(await intentOf(intentId)).toMatchObject({ status: "canceled", amount_received: 0 });
    expect(await row("SELECT status FROM payments WHERE intent_ref = ?", intentId)).toEqual({ status: "FAILED" });
    // The connector is free for the next driver.
    expect((await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() })).status).toBe(200);
    charger.close();
  });

  it("releases the hold when the charger refuses the remote start", async () => {
    const { charger, serialNumber } = await onlineCharger(5_000);
    const { clientSecret, handle } = (await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() })).body.data;
    const intentId = await confirmCard(clientSecret);
    const asked = remoteStart(charger, "RemoteStartTransaction", "Rejected");
    expect((await webhook("payment_intent.amount_capturable_updated", intentId)).status).toBe(200);
    await asked;
    expect((await follow(handle)).status).toBe("FAILED");
    expect(await intentOf(intentId)).toMatchObject({ status: "canceled" });
    charger.close();
  });

  it("stops the session when its running cost reaches the hold", async () => {
    const { charger, serialNumber } = await onlineCharger(500);
    const { clientSecret, handle } = (await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() })).body.data;
    const intentId = await confirmCard(clientSecret);
    const asked = remoteStart(charger, "RemoteStartTransaction");
    await webhook("payment_intent.amount_capturable_updated", intentId);
    const { idTag } = await asked;
    const start = await charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 0, timestamp: at(-600) });
    await charger.call("MeterValues", { connectorId: 1, transactionId: start.transactionId, meterValue: [{ timestamp: at(-10), sampledValue: [{ value: "4000", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }] });
    let stops = 0;
    charger.answer("RemoteStopTransaction", () => (++stops, { status: "Accepted" }));
    expect(await follow(handle)).toMatchObject({ status: "CHARGING", cost: "4.00" });
    expect(stops).toBe(0);
    await charger.call("MeterValues", { connectorId: 1, transactionId: start.transactionId, meterValue: [{ timestamp: at(), sampledValue: [{ value: "5200", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }] });
    await follow(handle);
    await eventually(async () => stops, (n) => n === 1, 5_000);
    // Asked once, however often the page looks.
    await follow(handle);
    expect(stops).toBe(1);
    charger.close();
  });
});

describe("an ad-hoc session on a 2.0.1 charger", () => {
  it("starts with RequestStartTransaction and the one-time token, and the transaction is bound to the hold", async () => {
    const { charger, serialNumber } = await onlineCharger(5_000, { ocppVersion: "OCPP201" });
    const { clientSecret, handle } = (await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() })).body.data;
    const intentId = await confirmCard(clientSecret);
    const asked = remoteStart(charger, "RequestStartTransaction");
    await webhook("payment_intent.amount_capturable_updated", intentId);
    const request = await asked;
    expect(request).toMatchObject({ evseId: 1, idToken: { idToken: expect.stringMatching(/^AH/), type: "Central" }, remoteStartId: expect.any(Number) });
    const started = await charger.call("TransactionEvent", {
      eventType: "Started",
      timestamp: at(),
      triggerReason: "RemoteStart",
      seqNo: 0,
      transactionInfo: { transactionId: crypto.randomUUID(), chargingState: "Charging", remoteStartId: request.remoteStartId },
      idToken: request.idToken,
      evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp: at(), sampledValue: [{ value: 0, context: "Transaction.Begin", measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] }],
    });
    expect(started.idTokenInfo.status).toBe("Accepted");
    expect((await follow(handle)).status).toBe("CHARGING");
    expect(await row("SELECT p.status, p.transaction_id = s.transaction_id AS bound FROM payments p JOIN ad_hoc_sessions s ON s.payment_id = p.id WHERE s.handle = ?", handle)).toEqual({ status: "AUTHORISED", bound: 1 });
    charger.close();
  });
});

describe("refusals", () => {
  it("answers bad bodies with 400, an unknown charger, connector or handle with 404, an offline charger with 409", async () => {
    const { charger, serialNumber } = await onlineCharger(5_000);
    const post = (body: unknown, raw?: string) => publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body, raw, ip: client() });
    for (const body of [{}, { connectorId: "1" }, { connectorId: 0 }, { connectorId: 1.5 }, { connectorId: 1, email: "not-an-address" }, { connectorId: 1, extra: true }]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).not.toMatch(/adHoc\./);
    }
    expect((await post(undefined, "{not json")).status).toBe(400);
    expect((await post({ connectorId: 9 })).status).toBe(404);
    expect((await publicCall("POST", "/public-service/charger/NO-SUCH-CHARGER/ad-hoc", { body: { connectorId: 1 } })).status).toBe(404);
    expect((await publicCall("GET", `/public-service/ad-hoc/${"x".repeat(32)}`)).status).toBe(404);
    expect((await publicCall("POST", `/public-service/ad-hoc/${"x".repeat(32)}/stop`)).status).toBe(404);
    charger.close();
    await eventually(async () => (await row<{ online: number }>("SELECT online FROM points WHERE serial_number = ?", serialNumber))!.online, (o) => o === 0, 10_000);
    expect((await post({ connectorId: 1 })).status).toBe(409);
  });

  it("limits the starts one connector takes within an hour (429), whoever asks", async () => {
    const { charger, serialNumber } = await onlineCharger(5_000);
    for (let i = 0; i < 20; i++) {
      const res = await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() });
      expect(res.status).toBe(200);
      // Given up before paying: the connector is free again, and the hold released.
      expect((await publicCall("POST", `/public-service/ad-hoc/${res.body.data.handle}/stop`)).body.data.status).toBe("FAILED");
    }
    const refused = await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 1 }, ip: client() });
    expect(refused.status).toBe(429);
    expect((await publicCall("POST", `/public-service/charger/${serialNumber}/ad-hoc`, { body: { connectorId: 2 }, ip: client() })).status).toBe(409);
    charger.close();
  });
});
