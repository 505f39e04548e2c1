import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { authoriseSession } from "../../workers/services/payments/capture";
import { systemCtx } from "../../workers/services/context";
import { makeCard, makeCustomer, makeGroup } from "./support/drivers";
import { boot, connect, eventually } from "./support/charger";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { bill, paidSession, stoppedSession } from "./support/sessions";
import { flatStrategy } from "./support/strategies";
import { payingCustomer, stripeChannel } from "./support/stripe";
import { row, rows } from "./support/d1";

/**
 * The money settings that take effect (docs/rules/billing.md "Paying from the balance off",
 * docs/rules/pricing.md "Minimum threshold", docs/decisions/0079-no-subscription-price-on-strategies.md):
 * `balancePayment` off debits no wallet, a strategy's `minimumThreshold` refuses a start at
 * Authorize and StartTransaction, and `subscriptionPrice` bills nothing.
 */

const SETTINGS = "/system-service/parameter-settings";

let pl: string;
let plId: number;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  plId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
});

/** Turns paying from the balance on or off through the settings screen's API. */
async function setBalancePayment(on: boolean) {
  const doc = structuredClone((await call("GET", SETTINGS, { token: pl })).body.data);
  doc.balancePayment = on;
  const res = await call("PUT", SETTINGS, { token: pl, body: doc });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const setBalance = (customerId: number, balance: number, overdraftCredit = 0) =>
  env.DB.prepare("UPDATE customers SET balance = ?, overdraft_credit = ? WHERE id = ?").bind(balance, overdraftCredit, customerId).run();
const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;
const record = (id: number) => call("GET", `/station-service/charge/record/${id}`, { token: pl }).then((r) => r.body.data);
const billsOf = (id: number) => rows("SELECT customer_id, cost, status, payment_method FROM bills WHERE transaction_id = ? ORDER BY id", id);

/** Bills a session as the queue does, twice, and once more at the same time. */
async function billTwice(made: { operatorId: number }, id: number) {
  await Promise.all([bill(made, id), bill(made, id)]);
  await bill(made, id);
}

describe("paying from the balance off", () => {
  it("keeps the setting in the parameter settings, on unless the operator turned it off, and only for the settings screen", async () => {
    expect((await call("GET", SETTINGS, { token: pl })).body.data.balancePayment).toBe(true);
    const watcher = await tokenWithMenus(pl, ["finance.chargeRecord"]);
    const doc = structuredClone((await call("GET", SETTINGS, { token: pl })).body.data);
    expect((await call("PUT", SETTINGS, { token: watcher, body: { ...doc, balancePayment: false } })).status).toBe(403);
    expect((await call("PUT", SETTINGS, { token: pl, body: { ...doc, balancePayment: "off" } })).status).toBe(400);
    expect((await call("GET", SETTINGS, { token: pl })).body.data.balancePayment).toBe(true);
  });

  it("debits no wallet: the record is left unsettled for the cashier with its reason, no bill, once however often billing runs", async () => {
    const { versionId } = await flatStrategy(pl);
    const { made, id, customerId } = await paidSession(pl, versionId);
    await setBalancePayment(false);
    try {
      await billTwice(made, id);
      expect(await record(id)).toMatchObject({
        status: "RECORD_UNSETTLED",
        unsettledReason: "BALANCE_PAYMENT_OFF",
        customerId: customerId,
        totalCost: 1_235,
        paidCost: null,
      });
      expect(await balanceOf(customerId)).toBe(5_000);
      expect(await billsOf(id)).toEqual([]);

      // Settling again by hand while it is off moves no money either; the cashier marks it paid.
      expect((await call("PUT", `/station-service/charge/record/${id}/settle`, { token: pl })).status).toBe(200);
      expect(await record(id)).toMatchObject({ status: "RECORD_UNSETTLED", unsettledReason: "BALANCE_PAYMENT_OFF" });
      expect(await balanceOf(customerId)).toBe(5_000);
      expect((await call("PUT", `/station-service/charge/record/${id}/complete`, { token: pl })).status).toBe(200);
      expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE" });
      expect(await billsOf(id)).toEqual([]);
    } finally {
      await setBalancePayment(true);
    }
  });

  it("debits the balance again once it is back on: a settlement of a record left unsettled pays it and clears the reason", async () => {
    const { versionId } = await flatStrategy(pl);
    const { made, id, customerId } = await paidSession(pl, versionId);
    await setBalancePayment(false);
    try {
      await billTwice(made, id);
    } finally {
      await setBalancePayment(true);
    }
    expect((await call("PUT", `/station-service/charge/record/${id}/settle`, { token: pl })).status).toBe(200);
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", unsettledReason: null, paidCost: 1_235, balanceBefore: 5_000, balanceAfter: 3_765 });
    expect(await balanceOf(customerId)).toBe(3_765);
    expect(await billsOf(id)).toEqual([{ customer_id: customerId, cost: 1_235, status: "PaySuccess", payment_method: "BALANCE" }]);
  });

  it("does not retry a failed payment from the balance while it is off: the record goes to the cashier", async () => {
    const { versionId } = await flatStrategy(pl);
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 100);
    const card = await makeCard(pl, { customerId: customer.id });
    const { made, id } = await stoppedSession(card.idTag, versionId);
    await billTwice(made, id);
    expect(await record(id)).toMatchObject({ status: "PAY_FAIL" });
    await setBalance(customer.id, 5_000);
    await setBalancePayment(false);
    try {
      expect((await call("PUT", `/station-service/charge/record/${id}/retry`, { token: pl })).status).toBe(200);
      expect(await record(id)).toMatchObject({ status: "RECORD_UNSETTLED", unsettledReason: "BALANCE_PAYMENT_OFF" });
      expect(await balanceOf(customer.id)).toBe(5_000);
      expect(await billsOf(id)).toMatchObject([{ status: "PayFail", payment_method: "BALANCE" }]);
    } finally {
      await setBalancePayment(true);
    }
  });

  it("still bills a session pre-authorised on the card on file to the card", async () => {
    await stripeChannel(pl);
    const customer = await payingCustomer(pl);
    await setBalance(customer.id, 3_000);
    const { versionId } = await flatStrategy(pl, { preAuthAmount: 5_000 });
    const card = await makeCard(pl, { customerId: customer.id });
    const { made, id } = await stoppedSession(card.idTag, versionId);
    const ctx = systemCtx(env, { id: plId, code: "0PL002" }, "test");
    expect(await authoriseSession(ctx, id)).toMatchObject({ authorised: true });
    await setBalancePayment(false);
    try {
      await bill(made, id);
      const settled = await eventually(() => record(id), (r) => r.status === "RECORD_COMPLETE" || r.status === "PAY_FAIL", 15_000);
      expect(settled).toMatchObject({ status: "RECORD_COMPLETE", paidCost: 1_235, unsettledReason: null });
      expect(await billsOf(id)).toEqual([{ customer_id: customer.id, cost: 1_235, status: "PaySuccess", payment_method: "STRIPE" }]);
      expect(await balanceOf(customer.id)).toBe(3_000);
    } finally {
      await setBalancePayment(true);
    }
  });

  it("says why a session nobody is behind is unsettled", async () => {
    const { versionId } = await flatStrategy(pl);
    const { made, id } = await stoppedSession("NOBODY-AT-ALL", versionId);
    await billTwice(made, id);
    expect(await record(id)).toMatchObject({ status: "RECORD_UNSETTLED", unsettledReason: "NO_PAYER", customerId: null });
  });
});

describe("a strategy's minimum threshold", () => {
  /** A charger online on OCPP 1.6 whose point charges by a strategy asking `minimumThreshold`. */
  async function chargerWithThreshold(minimumThreshold: number | null, protocols?: string) {
    const { id: strategyId } = await flatStrategy(pl, { minimumThreshold });
    const made = await makeCharger("0PL002", protocols ? { type: "DC" } : {});
    expect((await call("PUT", `/finance-service/strategy/${strategyId}/assign`, { token: pl, body: { pointIds: [made.pointId] } })).status).toBe(200);
    const charger = (await connect(made.serialNumber, { key: made.key, ...(protocols && { protocols }) })).charger!;
    return { made, charger };
  }

  const reviews = (pointId: number) => rows("SELECT kind, detail FROM ocpp_reviews WHERE point_id = ? ORDER BY id", pointId);

  it("blocks a card whose wallet's balance plus overdraft credit is below it, at Authorize and at StartTransaction, and says why in the review", async () => {
    const { made, charger } = await chargerWithThreshold(5_000);
    await boot(charger);
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 3_000, 1_999);
    const card = await makeCard(pl, { customerId: customer.id });

    expect(await charger.call("Authorize", { idTag: card.idTag })).toEqual({ idTagInfo: { status: "Blocked" } });
    const start = { connectorId: 1, idTag: card.idTag, meterStart: 0, timestamp: new Date().toISOString() };
    const refused = await charger.call("StartTransaction", start);
    expect(refused.idTagInfo).toEqual({ status: "Blocked" });
    expect(await row("SELECT auth_status FROM transactions WHERE id = ?", refused.transactionId)).toEqual({ auth_status: "Blocked" });

    const kept = await reviews(made.pointId);
    expect(kept).toHaveLength(2);
    for (const [i, asked] of (["Authorize", "StartTransaction"] as const).entries()) {
      expect(kept[i].kind).toBe("BELOW_THRESHOLD");
      expect(JSON.parse(kept[i].detail as string)).toMatchObject({ reason: "minimumThreshold", asked, idTag: card.idTag, needed: 5_000, available: 4_999, payerId: customer.id });
    }

    // At the threshold exactly, the card charges.
    await setBalance(customer.id, 3_000, 2_000);
    expect(await charger.call("Authorize", { idTag: card.idTag })).toMatchObject({ idTagInfo: { status: "Accepted" } });
    const accepted = await charger.call("StartTransaction", { ...start, timestamp: new Date(Date.now() + 1_000).toISOString() });
    expect(accepted.idTagInfo.status).toBe("Accepted");
    expect(await reviews(made.pointId)).toHaveLength(2);
  });

  it("looks at the wallet billing would debit: a member who pays by LEADER starts on the leader's balance", async () => {
    const { charger } = await chargerWithThreshold(1_000);
    await boot(charger);
    const leader = await makeCustomer(pl);
    const member = await makeCustomer(pl);
    await makeGroup(pl, leader.id, [leader.id, member.id]);
    await env.DB.prepare("UPDATE customers SET pay_way = 'LEADER' WHERE id = ?").bind(member.id).run();
    await setBalance(member.id, 9_000);
    await setBalance(leader.id, 999);
    const card = await makeCard(pl, { customerId: member.id });
    expect(await charger.call("Authorize", { idTag: card.idTag })).toEqual({ idTagInfo: { status: "Blocked" } });
    await setBalance(leader.id, 1_000);
    expect(await charger.call("Authorize", { idTag: card.idTag })).toMatchObject({ idTagInfo: { status: "Accepted" } });
  });

  it("asks nothing of a strategy without a threshold, nor while paying from the balance is off", async () => {
    const customer = await makeCustomer(pl);
    const card = await makeCard(pl, { customerId: customer.id });
    const none = await chargerWithThreshold(null);
    await boot(none.charger);
    expect(await none.charger.call("Authorize", { idTag: card.idTag })).toMatchObject({ idTagInfo: { status: "Accepted" } });

    const high = await chargerWithThreshold(100_000);
    await boot(high.charger);
    expect(await high.charger.call("Authorize", { idTag: card.idTag })).toEqual({ idTagInfo: { status: "Blocked" } });
    await setBalancePayment(false);
    try {
      expect(await high.charger.call("Authorize", { idTag: card.idTag })).toMatchObject({ idTagInfo: { status: "Accepted" } });
    } finally {
      await setBalancePayment(true);
    }
  });

  it("answers an OCPP 2.0.1 charger NoCredit with the reason on its screen, in the driver's language, at Authorize and at the start", async () => {
    const { charger } = await chargerWithThreshold(5_000, "ocpp2.0.1");
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
    const customer = await makeCustomer(pl, { country: "PL" });
    await setBalance(customer.id, 1_500);
    const card = await makeCard(pl, { customerId: customer.id });
    const idToken = { idToken: card.idTag, type: "ISO14443" };
    const personalMessage = { format: "UTF8", language: expect.stringMatching(/^pl/), content: expect.stringMatching(/50,00.zł.*15,00.zł/) };

    expect(await charger.call("Authorize", { idToken })).toEqual({ idTokenInfo: { status: "NoCredit", personalMessage } });
    const started = await charger.call("TransactionEvent", {
      eventType: "Started",
      timestamp: new Date().toISOString(),
      triggerReason: "Authorized",
      seqNo: 0,
      transactionInfo: { transactionId: crypto.randomUUID(), chargingState: "EVConnected" },
      idToken,
      evse: { id: 1, connectorId: 1 },
    });
    expect(started.idTokenInfo).toEqual({ status: "NoCredit", personalMessage });
  });
});

describe("a strategy's subscription price", () => {
  it("is kept by the API for its clients and bills nothing: a session costs the same with it", async () => {
    const withPrice = await flatStrategy(pl, { subscriptionPrice: 9_900 });
    const strategy = (await call("GET", `/finance-service/strategy/${withPrice.id}`, { token: pl })).body.data;
    expect(strategy).toMatchObject({ subscriptionPrice: 9_900 });
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 20_000);
    const card = await makeCard(pl, { customerId: customer.id });
    const { made, id } = await stoppedSession(card.idTag, withPrice.versionId);
    await billTwice(made, id);
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", totalCost: 1_235, paidCost: 1_235 });
    expect(await balanceOf(customer.id)).toBe(20_000 - 1_235);
    expect(await rows("SELECT type, cost FROM bills WHERE customer_id = ?", customer.id)).toEqual([{ type: "Charging", cost: 1_235 }]);
  });
});
