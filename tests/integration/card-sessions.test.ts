import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import en from "../../domain/i18n/locales/en/wallet-payments.json";
import { housekeeping } from "../../workers/jobs/housekeeping";
import { systemCtx } from "../../workers/services/context";
import { authoriseSession, captureSession } from "../../workers/services/payments/capture";
import { makeCard, makeCustomer } from "./support/drivers";
import { eventually } from "../support/eventually";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { addSessions, bill } from "./support/sessions";
import { cardStrategy, intentOf, payingCustomer, setCard, stripeChannel, webhook } from "./support/stripe";
import { row, rows } from "./support/d1";

/**
 * Sessions paid by card against their pre-authorisation (docs/rules/payments.md "Sessions paid by
 * card", docs/decisions/0065-charges-above-the-pre-authorisation.md), Stripe top-ups' recharge
 * records, and membership expiry (docs/rules/wallets.md "Membership"), against the local fake of
 * Stripe's API (tests/integration/support/fakes.ts).
 */


let pl: string;
let plId: number;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  plId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
});
const ctx = () => systemCtx(env, { id: plId, code: "0PL002" }, "test");

const strategy = (preAuthAmount?: number) => cardStrategy(pl, preAuthAmount);

/** A stopped session of 12.345 kWh (12.35 zł at 1 zł/kWh) by the customer's RFID card, not billed yet. */
async function session(customerId: number, versionId: number) {
  const card = await makeCard(pl, { customerId });
  const made = await makeCharger("0PL002");
  const stop = Date.now() - 3_600_000;
  const [id] = await addSessions(made, [
    { start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), meterStart: 1_000, meterStop: 13_345, idTag: card.idTag, strategyVersionId: versionId },
  ]);
  return { made, id };
}

/** A session of a customer with a card on file, pre-authorised for `preAuth`, not billed yet. */
async function authorisedSession(preAuth: number) {
  await stripeChannel(pl);
  const customer = await payingCustomer(pl);
  await env.DB.prepare("UPDATE customers SET balance = 3000 WHERE id = ?").bind(customer.id).run();
  const { made, id } = await session(customer.id, await strategy(preAuth));
  const authorised = await authoriseSession(ctx(), id);
  expect(authorised, JSON.stringify(authorised)).toMatchObject({ authorised: true });
  const intent = (await row<{ intent_ref: string }>("SELECT intent_ref FROM payments WHERE transaction_id = ? AND kind = 'PRE_AUTH'", id))!.intent_ref;
  return { customer, made, id, intent };
}

const record = (id: number) => call("GET", `/station-service/charge/record/${id}`, { token: pl }).then((r) => r.body.data);
const settled = (id: number) => eventually(() => record(id), (r) => r.status === "RECORD_COMPLETE" || r.status === "PAY_FAIL", 15_000);
type CardBill = { id: number; phase: string; cost: number; status: string; payment_method: string; transaction_number: string; balance_before: number; balance_after: number };
const billsOf = (id: number) =>
  rows<CardBill>("SELECT id, phase, cost, status, payment_method, transaction_number, balance_before, balance_after FROM bills WHERE transaction_id = ? ORDER BY id", id);
const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;

describe("a session's total against its pre-authorisation", () => {
  it("below: captures only the total, Stripe releases the rest, one bill", async () => {
    const { customer, made, id, intent } = await authorisedSession(5_000);
    await bill(made, id);
    expect(await settled(id)).toMatchObject({ status: "RECORD_COMPLETE", totalCost: 1_235, paidCost: 1_235 });
    expect(await intentOf(intent)).toMatchObject({ status: "succeeded", amount: 5_000, amount_received: 1_235, amount_capturable: 0 });
    expect(await billsOf(id)).toMatchObject([{ phase: "FINAL", cost: 1_235, status: "PaySuccess", payment_method: "STRIPE", transaction_number: intent }]);
    expect(await balanceOf(customer.id)).toBe(3_000);
  });

  it("equal: captures all of it, charges nothing more", async () => {
    const { made, id, intent } = await authorisedSession(1_235);
    await bill(made, id);
    expect(await settled(id)).toMatchObject({ status: "RECORD_COMPLETE", paidCost: 1_235 });
    expect(await intentOf(intent)).toMatchObject({ amount_received: 1_235 });
    expect(await billsOf(id)).toMatchObject([{ phase: "FINAL", cost: 1_235, status: "PaySuccess" }]);
    expect(await rows("SELECT id FROM payments WHERE transaction_id = ? AND kind = 'REMAINDER'", id)).toEqual([]);
  });

  it("above: captures the authorised part and charges the remainder off-session on the card, each its own bill, once", async () => {
    const { customer, made, id, intent } = await authorisedSession(1_000);
    await bill(made, id);
    expect(await settled(id)).toMatchObject({ status: "RECORD_COMPLETE", totalCost: 1_235, paidCost: 1_235 });
    expect(await intentOf(intent)).toMatchObject({ amount_received: 1_000 });
    const [capture, remainder] = await billsOf(id);
    expect(capture).toMatchObject({ phase: "FINAL", cost: 1_000, status: "PaySuccess", transaction_number: intent });
    expect(remainder).toMatchObject({ phase: "REMAINDER", cost: 235, status: "PaySuccess", payment_method: "STRIPE", balance_before: 3_000, balance_after: 3_000 });
    expect(remainder.transaction_number).toMatch(/^pi_/);
    expect(remainder.transaction_number).not.toBe(intent);
    expect(await intentOf(remainder.transaction_number)).toMatchObject({ status: "succeeded", capture_method: "automatic", amount_received: 235 });
    // The operator audits each movement in the bill list.
    const listed = (await call("GET", `/finance-service/bill?customerId=${customer.id}&type=Charging`, { token: pl })).body.data.records as { cost: number; transactionNumber: string }[];
    expect(listed.map((b) => b.cost).sort()).toEqual([1_000, 235].sort());
    // Settling again moves nothing: no new bill, no new charge, the same webhook changes nothing.
    expect(await captureSession(ctx(), id)).toEqual({ done: true });
    expect((await webhook("payment_intent.succeeded", remainder.transaction_number)).status).toBe(200);
    expect(await billsOf(id)).toHaveLength(2);
    expect(await rows("SELECT id FROM payments WHERE transaction_id = ? AND kind = 'REMAINDER'", id)).toHaveLength(1);
    expect(await balanceOf(customer.id)).toBe(3_000);
  });

  it("a refused remainder is PayFail and PAY_FAIL until the retry charges it under a new key", async () => {
    const { customer, made, id } = await authorisedSession(1_000);
    // The card on file is declined by the time the session ends.
    await setCard(pl, customer.id, "pm_card_chargeDeclined");
    await bill(made, id);
    expect(await settled(id)).toMatchObject({ status: "PAY_FAIL", paidCost: 1_000 });
    const [, failed] = await billsOf(id);
    expect(failed).toMatchObject({ phase: "REMAINDER", cost: 235, status: "PayFail" });
    expect(await row("SELECT status, attempt, error FROM payments WHERE transaction_id = ? AND kind = 'REMAINDER'", id)).toEqual({ status: "FAILED", attempt: 1, error: "Your card was declined." });
    // Nothing is charged again by itself.
    expect(await captureSession(ctx(), id)).toMatchObject({ done: true });
    expect((await billsOf(id))[1].status).toBe("PayFail");

    await setCard(pl, customer.id, "pm_card_visa");
    const retried = await call("POST", `/finance-service/bill/${failed.id}/retry-payment`, { token: pl });
    expect(retried.status).toBe(200);
    expect(retried.body.data.bill).toMatchObject({ status: "PaySuccess", cost: 235 });
    expect(retried.body.data.payment).toMatchObject({ kind: "REMAINDER", status: "SUCCEEDED", attempt: 2, captured: 235 });
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", paidCost: 1_235 });
    expect(await intentOf(retried.body.data.payment.intentRef)).toMatchObject({ amount_received: 235 });
    // Only a failed bill is retried.
    expect((await call("POST", `/finance-service/bill/${failed.id}/retry-payment`, { token: pl })).status).toBe(409);
    expect(await balanceOf(customer.id)).toBe(3_000);
  });

  it("refunds what a capture took above a total lowered since, once, as a negative bill", async () => {
    const { made, id, intent } = await authorisedSession(5_000);
    await bill(made, id);
    await settled(id);
    // The record is corrected to 10.00 zł after the capture of 12.35 zł.
    await env.DB.prepare("UPDATE charge_records SET total_cost = 1000 WHERE transaction_id = ?").bind(id).run();
    expect(await captureSession(ctx(), id)).toEqual({ done: true });
    expect(await captureSession(ctx(), id)).toEqual({ done: true });
    const [capture, refund] = await billsOf(id);
    expect(capture).toMatchObject({ phase: "FINAL", cost: 1_235 });
    expect(refund).toMatchObject({ phase: "REFUND", cost: -235, status: "PaySuccess", payment_method: "STRIPE" });
    expect(refund.transaction_number).toMatch(/^re_/);
    expect(await billsOf(id)).toHaveLength(2);
    expect(await row("SELECT captured, refunded FROM payments WHERE intent_ref = ?", intent)).toEqual({ captured: 1_235, refunded: 235 });
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", paidCost: 1_000 });
  });
});

describe("Stripe top-ups", () => {
  it("writes the STRIPE recharge record with the top-up's webhook, once", async () => {
    await stripeChannel(pl);
    const customer = await payingCustomer(pl);
    await env.DB.prepare("UPDATE customers SET balance = 700 WHERE id = ?").bind(customer.id).run();
    const { payment } = (await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 2_500, remark: "By card" } })).body.data;
    // Nothing is recorded before the money arrived.
    expect(await rows("SELECT id FROM recharges WHERE customer_id = ?", customer.id)).toEqual([]);
    await webhook("payment_intent.succeeded", payment.intentRef);
    await webhook("payment_intent.succeeded", payment.intentRef);
    const listed = (await call("GET", `/finance-service/recharge?customerId=${customer.id}`, { token: pl })).body.data;
    expect(listed.total).toBe(1);
    expect(listed.records[0]).toMatchObject({
      customerId: customer.id,
      way: "STRIPE",
      amount: 2_500,
      balanceBefore: 700,
      balanceAfter: 3_200,
      thirdPartyCode: payment.intentRef,
      administrator: null,
      transactionCode: expect.stringMatching(/^R\d{14}/),
    });
    expect(await balanceOf(customer.id)).toBe(3_200);
  });
});

describe("membership expiry", () => {
  const setMembership = (silver: number) =>
    env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.membership.silverDiscount', ?) WHERE operator_id = ?").bind(silver, plId).run();
  afterEach(() => setMembership(0));

  /** A SILVER customer whose level ends at `until`. */
  async function silverUntil(until: number) {
    const customer = await makeCustomer(pl);
    await env.DB.prepare("UPDATE customers SET balance = 5000, member_level = 'SILVER', member_until = ? WHERE id = ?").bind(until, customer.id).run();
    return customer;
  }

  it("bills an expired level as NORMAL before the cron, then the cron lowers it with a Member bill", async () => {
    await setMembership(10);
    const versionId = await strategy();
    const current = await silverUntil(Date.now() + 86_400_000);
    const expired = await silverUntil(Date.now() - 60_000);
    const paid = await session(current.id, versionId);
    const lapsed = await session(expired.id, versionId);
    await bill(paid.made, paid.id);
    await bill(lapsed.made, lapsed.id);
    // 10 % of 12.35 zł is 1.24 zł for the paid level; nothing for the expired one.
    expect(await record(paid.id)).toMatchObject({ memberDiscountCost: 124, totalCost: 1_111 });
    expect(await record(lapsed.id)).toMatchObject({ memberDiscountCost: 0, totalCost: 1_235 });

    await housekeeping(env, "*/15 * * * *", Date.now());
    expect(await row("SELECT member_level, member_until, balance FROM customers WHERE id = ?", expired.id)).toEqual({ member_level: "NORMAL", member_until: null, balance: 5_000 - 1_235 });
    expect((await row<{ member_level: string }>("SELECT member_level FROM customers WHERE id = ?", current.id))!.member_level).toBe("SILVER");
    const bills = (await call("GET", `/finance-service/bill?customerId=${expired.id}&type=Member`, { token: pl })).body.data.records;
    expect(bills).toHaveLength(1);
    expect(bills[0]).toMatchObject({ cost: 0, memberLevelBefore: "SILVER", memberLevelAfter: "NORMAL", remark: "EXPIRED", status: "PaySuccess", balanceBefore: 3_765, balanceAfter: 3_765 });
    // The cron again finds nothing to lower.
    await housekeeping(env, "*/15 * * * *", Date.now());
    expect((await call("GET", `/finance-service/bill?customerId=${expired.id}&type=Member`, { token: pl })).body.data.total).toBe(1);
  });

  it("lets a customer in the red go down to NORMAL, by hand or by expiry", async () => {
    const byHand = await silverUntil(Date.now() + 86_400_000);
    const byExpiry = await silverUntil(Date.now() - 1);
    await env.DB.prepare("UPDATE customers SET balance = -300 WHERE id IN (?, ?)").bind(byHand.id, byExpiry.id).run();
    const lowered = await call("PUT", `/customer-service/customer/${byHand.id}/member-level`, { token: pl, body: { level: "NORMAL" } });
    expect(lowered.status).toBe(200);
    expect(lowered.body.data).toMatchObject({ memberLevel: "NORMAL", balance: -300 });
    await housekeeping(env, "*/15 * * * *", Date.now());
    expect(await row("SELECT member_level, balance FROM customers WHERE id = ?", byExpiry.id)).toEqual({ member_level: "NORMAL", balance: -300 });
  });

  it("records the source the request names, and refuses another", async () => {
    const customer = await makeCustomer(pl);
    await env.DB.prepare("UPDATE customers SET balance = 100000 WHERE id = ?").bind(customer.id).run();
    const refused = await call("PUT", `/customer-service/customer/${customer.id}/member-level`, { token: pl, body: { level: "SILVER", source: "4" } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(en.wallets.validation.source);
    expect((await call("PUT", `/customer-service/customer/${customer.id}/member-level`, { token: pl, body: { level: "SILVER", source: "3" } })).status).toBe(200);
    expect((await call("PUT", `/customer-service/customer/${customer.id}/member-level`, { token: pl, body: { level: "GOLD" } })).status).toBe(200);
    const remarks = (await rows<{ remark: string }>("SELECT remark FROM bills WHERE customer_id = ? AND type = 'Member' ORDER BY id", customer.id)).map((b) => b.remark);
    expect(remarks).toEqual(["3", "1"]);
  });
});
