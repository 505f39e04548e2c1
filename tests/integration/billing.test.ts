import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { flatStrategy } from "./support/strategies";
import { housekeeping } from "../../workers/jobs/housekeeping";
import { applyChargersChanges } from "../../workers/services/ocpp/charger-changes";
import { consumeBilling } from "../../workers/jobs/billing";
import { billTransaction, FINAL_PRICING_AFTER_MS } from "../../workers/services/billing/billing";
import { receiptByToken } from "../../workers/services/charge-records/receipts";
import { publicCtxOf, systemCtx } from "../../workers/services/context";
import { row, rows } from "./support/d1";
import { operatorIdOf } from "./support/driver-rows";
import { makeCard, makeCustomer, makeGroup, uniqueTag } from "./support/drivers";
import { boot, connect, eventually } from "./support/charger";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { addSessions } from "./support/sessions";
import { setTaxRate } from "./support/tax";

/**
 * The billing of a stopped session (docs/rules/billing.md): priced by the engine with the
 * transaction's strategy version, paid from the balance of the customer behind the tag, once.
 * Every message is delivered twice.
 */

let pl: string;
let operatorId: number;

beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  operatorId = await operatorIdOf("0PL002");
  // The demo has no tax rate: 0PL002 gets a 23 % VAT included in its prices, taken back after.
  await setTaxRate("0PL002", "23");
});

afterAll(() => setTaxRate("0PL002", "0"));

const strategy = (body: Record<string, unknown> = {}) => flatStrategy(pl, body);

/** The billing queue's consumer on one message, delivered twice in the batch and once more after. */
async function deliverTwice(transactionId: number, now?: number) {
  const body = { transactionId, operatorId, operatorCode: "0PL002" };
  const verdicts: string[] = [];
  const message = (id: string) => ({ id, timestamp: new Date(), attempts: 1, body, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") });
  const batch = { queue: "plugdesk-billing", messages: [message("a"), message("b")] } as unknown as MessageBatch<unknown>;
  if (now === undefined) {
    await consumeBilling(batch, env);
    await consumeBilling({ ...batch, messages: [message("c")] } as unknown as MessageBatch<unknown>, env);
  } else {
    // The cron's run at a later server time (the consumer reads the clock of its context).
    const ctx = systemCtx(env, { id: operatorId, code: "0PL002" }, "billing", () => now);
    await Promise.all([billTransaction(ctx, transactionId), billTransaction(ctx, transactionId)]);
    await billTransaction(ctx, transactionId);
  }
  return verdicts;
}

/** A stopped session of 12.345 kWh on a fresh charger, charged to `idTag`, priced by `versionId`. */
async function session(idTag: string, versionId: number, stop = new Date(Date.now() - 3_600_000)) {
  const made = await makeCharger("0PL002");
  const start = new Date(stop.getTime() - 3_600_000);
  const [id] = await addSessions(made, [
    { start: start.toISOString(), stop: stop.toISOString(), meterStart: 1_000, meterStop: 13_345, idTag, strategyVersionId: versionId },
  ]);
  return { id, made };
}

const record = (id: number) => call("GET", `/station-service/charge/record/${id}`, { token: pl }).then((r) => r.body.data);
const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;
const setBalance = (customerId: number, balance: number, overdraftCredit = 0) =>
  env.DB.prepare("UPDATE customers SET balance = ?, overdraft_credit = ? WHERE id = ?").bind(balance, overdraftCredit, customerId).run();
const chargingBills = (transactionId: number) => rows("SELECT customer_id, cost, balance_before, balance_after, type, status, transaction_number FROM bills WHERE transaction_id = ?", transactionId);

describe("billing at stop", () => {
  it("prices the session with its strategy version and debits the card's holder once, however often the message comes", async () => {
    const { versionId } = await strategy();
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 5_000);
    const card = await makeCard(pl, { customerId: customer.id });
    const { id, made } = await session(card.idTag.toLowerCase(), versionId);

    expect(await deliverTwice(id)).toEqual(["ack", "ack", "ack"]);
    // 12.345 kWh at 1.0000 zł is 12.345 zł: one line, rounded once, half-up, to 12.35 zł. The demo
    // operator's prices include 23 % VAT: 12.35 × 23 / 123 = 2.309… → 2.31 zł of it is tax.
    expect(await record(id)).toMatchObject({
      status: "RECORD_COMPLETE",
      strategyVersionId: versionId,
      customerId: customer.id,
      currency: "PLN",
      electricCost: 1_235,
      serviceCost: 0,
      reservationCost: 0,
      occupancyCost: 0,
      discountCost: 0,
      taxCost: 231,
      totalCost: 1_235,
      paidCost: 1_235,
      balanceBefore: 5_000,
      balanceAfter: 3_765,
    });
    expect(await row("SELECT paid_by, pricing_phase FROM charge_records WHERE transaction_id = ?", id)).toEqual({
      paid_by: `${customer.firstName} ${customer.lastName}`,
      pricing_phase: "FINAL",
    });
    expect(await balanceOf(customer.id)).toBe(3_765);
    expect(await chargingBills(id)).toEqual([
      { customer_id: customer.id, cost: 1_235, balance_before: 5_000, balance_after: 3_765, type: "Charging", status: "PaySuccess", transaction_number: String(id) },
    ]);
    expect(await rows("SELECT sessions, revenue, priced_sessions FROM daily_charge_totals WHERE point_id = ?", made.pointId)).toEqual([
      { sessions: 1, revenue: 1_235, priced_sessions: 1 },
    ]);
  });

  it("charges a member who pays by LEADER to the group's leader", async () => {
    const { versionId } = await strategy();
    const leader = await makeCustomer(pl);
    const member = await makeCustomer(pl);
    await makeGroup(pl, leader.id, [leader.id, member.id]);
    await env.DB.prepare("UPDATE customers SET pay_way = 'LEADER' WHERE id = ?").bind(member.id).run();
    await setBalance(leader.id, 2_000);
    await setBalance(member.id, 9_000);
    const card = await makeCard(pl, { customerId: member.id });
    const { id } = await session(card.idTag, versionId);

    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", customerId: member.id, paidCost: 1_235, balanceBefore: 2_000, balanceAfter: 765 });
    expect([await balanceOf(leader.id), await balanceOf(member.id)]).toEqual([765, 9_000]);
    expect(await chargingBills(id)).toMatchObject([{ customer_id: leader.id, status: "PaySuccess" }]);
  });

  it("lets the overdraft credit take the balance below zero, down to minus the credit", async () => {
    const { versionId } = await strategy();
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 500, 735);
    const card = await makeCard(pl, { customerId: customer.id });
    const { id } = await session(card.idTag, versionId);

    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", balanceBefore: 500, balanceAfter: -735 });
    expect(await balanceOf(customer.id)).toBe(-735);
  });

  it("fails the payment when the balance and the credit are not enough, and leaves the balance as it was", async () => {
    const { versionId } = await strategy();
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 500, 734);
    const card = await makeCard(pl, { customerId: customer.id });
    const { id, made } = await session(card.idTag, versionId);

    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "PAY_FAIL", totalCost: 1_235, paidCost: 0, balanceBefore: 500, balanceAfter: 500 });
    expect(await balanceOf(customer.id)).toBe(500);
    expect(await chargingBills(id)).toMatchObject([{ cost: 1_235, balance_before: 500, balance_after: 500, status: "PayFail" }]);
    // The revenue is what the session cost, paid or not.
    expect(await row("SELECT revenue FROM daily_charge_totals WHERE point_id = ?", made.pointId)).toEqual({ revenue: 1_235 });
  });

  it("leaves a session nobody is behind (an unknown tag, the remote tag) unsettled, with no bill", async () => {
    const { versionId } = await strategy();
    const { id } = await session(uniqueTag("NOBODY"), versionId);
    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "RECORD_UNSETTLED", customerId: null, totalCost: 1_235, paidCost: null });
    expect(await chargingBills(id)).toEqual([]);
  });

  it("keeps a session of a point without a strategy unpriced, as CHARGE_COMPLETE", async () => {
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 5_000);
    const card = await makeCard(pl, { customerId: customer.id });
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-06-01T10:00:00Z", stop: "2025-06-01T11:00:00Z", meterStart: 0, meterStop: 1_000, idTag: card.idTag }]);
    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "CHARGE_COMPLETE", totalCost: null, strategyVersionId: null });
    expect(await balanceOf(customer.id)).toBe(5_000);
  });

  it("keeps the card holder on the record of a session at a point without a strategy, whatever the pricing", async () => {
    const customer = await makeCustomer(pl);
    const card = await makeCard(pl, { customerId: customer.id });
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-06-01T10:00:00Z", stop: "2025-06-01T11:00:00Z", meterStart: 0, meterStop: 1_000, idTag: card.idTag.toLowerCase() }]);
    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "CHARGE_COMPLETE", totalCost: null, customerId: customer.id });
    // The customer's records list it.
    const listed = await call("GET", `/station-service/charge/record?customerId=${customer.id}`, { token: pl });
    expect(listed.body.data.records.map((r: { transactionId: number }) => r.transactionId)).toEqual([id]);
  });
});

describe("the idle fee after charging: provisional at the stop, final at the unplug or a day later", () => {
  const idleAfter = { before: null, during: null, after: { unit: "MINUTE", price: "0.5000", freeMinutes: 15, capAmount: 5_000 } };

  /** A session stopped an hour ago under a strategy with an idle fee after charging, by a card whose holder has 100.00 zł. */
  async function idleSession() {
    const { versionId } = await strategy({ idle: idleAfter });
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 10_000);
    const card = await makeCard(pl, { customerId: customer.id });
    const stop = new Date(Date.now() - 3_600_000);
    return { customer, stop, ...(await session(card.idTag, versionId, stop)) };
  }

  /** Keeps what is sent to the billing queue in batches (an unplug's final pricings) instead of queuing it, until `restore`. */
  function keepBillingMessages() {
    const queued: unknown[] = [];
    const spy = vi.spyOn(env.BILLING, "sendBatch").mockImplementation((async (messages: Iterable<MessageSendRequest>) => {
      for (const m of messages) queued.push(m.body);
    }) as never);
    return { queued, restore: () => spy.mockRestore() };
  }

  it("prices provisionally at the stop without debiting, then finally at the unplug, debiting once and adding the difference to the revenue", async () => {
    const { customer, stop, id, made } = await idleSession();

    await deliverTwice(id);
    expect(await record(id)).toMatchObject({ status: "CHARGE_COMPLETE", totalCost: 1_235, occupancyCost: 0, paidCost: null, unplugAt: null });
    expect(await balanceOf(customer.id)).toBe(10_000);
    expect(await chargingBills(id)).toEqual([]);

    // The car leaves 45 minutes after the stop: 30 minutes after the free 15, at 0.50 zł.
    const unplugAt = stop.getTime() + 45 * 60_000;
    const { queued, restore } = keepBillingMessages();
    const ctx = systemCtx(env, { id: operatorId, code: "0PL002" }, "charger");
    const available = { kind: "status" as const, status: { connectorId: 1, status: "Available", errorCode: "NoError", at: unplugAt } };
    await applyChargersChanges(ctx, [{ ctx, pointId: made.pointId, changes: [available] }]);
    await applyChargersChanges(ctx, [{ ctx, pointId: made.pointId, changes: [available] }]);
    restore();
    expect(queued).toContainEqual({ transactionId: id, operatorId, operatorCode: "0PL002" });
    await deliverTwice(id);
    expect(await record(id)).toMatchObject({
      status: "RECORD_COMPLETE",
      electricCost: 1_235,
      occupancyCost: 1_500,
      totalCost: 2_735,
      paidCost: 2_735,
      balanceBefore: 10_000,
      balanceAfter: 7_265,
      unplugAt: new Date(unplugAt).toISOString(),
    });
    expect(await balanceOf(customer.id)).toBe(7_265);
    expect(await chargingBills(id)).toHaveLength(1);
    expect(await row("SELECT revenue, sessions FROM daily_charge_totals WHERE point_id = ?", made.pointId)).toEqual({ revenue: 2_735, sessions: 1 });
  });

  it("prices, debits and receipts within seconds when the charger reports Available right after the stop, through the billing queue alone", async () => {
    const { id: strategyId } = await strategy({ idle: idleAfter });
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 10_000);
    const card = await makeCard(pl, { customerId: customer.id });
    const made = await makeCharger("0PL002");
    expect((await call("PUT", `/finance-service/strategy/${strategyId}/assign`, { token: pl, body: { pointIds: [made.pointId] } })).status).toBe(200);
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const stop = Date.now() - 3_600_000;
    const at = (minutes: number) => new Date(stop + minutes * 60_000).toISOString();
    const status = (minutes: number, value: string) => charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: value, timestamp: at(minutes) });
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: card.idTag, meterStart: 1_000, timestamp: at(-60) });
    await status(-59, "Charging");
    await charger.call("StopTransaction", { transactionId, meterStop: 13_345, timestamp: at(0), reason: "EVDisconnected" });
    // The car leaves 45 minutes after the stop by the charger's clock, a moment later by the server's.
    await status(0, "Finishing");
    await status(45, "Available");
    charger.close();

    // No cron runs here: the stop's job and the unplug reach the billing queue by themselves.
    const settled = await eventually(() => record(transactionId), (r) => r?.status === "RECORD_COMPLETE", 15_000);
    expect(settled).toMatchObject({ status: "RECORD_COMPLETE", occupancyCost: 1_500, totalCost: 2_735, paidCost: 2_735, balanceAfter: 7_265, customerId: customer.id });
    expect(await balanceOf(customer.id)).toBe(7_265);
    expect(await chargingBills(transactionId)).toHaveLength(1);
    // The public receipt shows the final amounts.
    const receipt = await receiptByToken(publicCtxOf(new Request("http://localhost/tourist/invoices/x"), env), settled.receiptToken);
    expect(receipt).toMatchObject({ parkingPostCharging: 1_500, grossCost: 2_735, paid: 2_735 });
  });

  it("prices finally in the stop's own job when the unplug lands while that job is pricing the stop", async () => {
    const { stop, id, made } = await idleSession();

    const { queued, restore } = keepBillingMessages();
    // The charger's changes land in D1 between the job's read of the session and its write: the
    // unplug finds the record not yet provisional, so it has nothing to queue.
    const charger = systemCtx(env, { id: operatorId, code: "0PL002" }, "charger");
    const available = { kind: "status" as const, status: { connectorId: 1, status: "Available", errorCode: "NoError", at: stop.getTime() + 45 * 60_000 } };
    let landed = false;
    const history = {
      meterSamples: async () => {
        if (!landed) await applyChargersChanges(charger, [{ ctx: charger, pointId: made.pointId, changes: [available] }]);
        landed = true;
        return [];
      },
      sessionStatuses: async () => [],
    };
    const racing = { ...env, CHARGE_POINT: { getByName: () => history } } as unknown as Env;
    await billTransaction(systemCtx(racing, { id: operatorId, code: "0PL002" }, "billing"), id);
    restore();
    // Whatever the unplug queued is delivered; the cron never runs.
    for (const body of queued) await consumeBilling({ queue: "plugdesk-billing", messages: [{ id: "u", timestamp: new Date(), attempts: 1, body, ack() {}, retry() {} }] } as never, env);

    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", occupancyCost: 1_500, totalCost: 2_735, paidCost: 2_735, balanceAfter: 7_265 });
    expect(await chargingBills(id)).toHaveLength(1);
    expect(await row("SELECT revenue FROM daily_charge_totals WHERE point_id = ?", made.pointId)).toEqual({ revenue: 2_735 });
  });

  it("prices finally 24 hours after the server billed the stop when no unplug comes, by the server's clock, with the cap", async () => {
    const { versionId } = await strategy({ idle: idleAfter });
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 10_000);
    const card = await makeCard(pl, { customerId: customer.id });
    const { id } = await session(card.idTag, versionId);
    await deliverTwice(id);
    const { billed_at: billedAt } = (await row<{ billed_at: number }>("SELECT billed_at FROM transactions WHERE id = ?", id))!;

    // Before the day has passed, the record waits for the car, whatever the cron or a message does.
    await housekeeping(env, "*/5 * * * *", billedAt + FINAL_PRICING_AFTER_MS - 1);
    await deliverTwice(id, billedAt + FINAL_PRICING_AFTER_MS - 1);
    expect(await record(id)).toMatchObject({ status: "CHARGE_COMPLETE", totalCost: 1_235 });

    await housekeeping(env, "*/5 * * * *", billedAt + FINAL_PRICING_AFTER_MS);
    await housekeeping(env, "*/5 * * * *", billedAt + FINAL_PRICING_AFTER_MS + 1);
    expect(await balanceOf(customer.id)).toBe(3_765);
    await deliverTwice(id, billedAt + FINAL_PRICING_AFTER_MS);
    // A day of idling is far above the cap: the fee is the cap, 50.00 zł.
    expect(await record(id)).toMatchObject({ status: "RECORD_COMPLETE", occupancyCost: 5_000, totalCost: 6_235, balanceAfter: 3_765, unplugAt: null });
    expect(await balanceOf(customer.id)).toBe(3_765);
  });
});

describe("the idle fee during charging", () => {
  it("bills the SuspendedEV and SuspendedEVSE time the charger reported inside the session, less the free minutes, by its timestamps", async () => {
    const { id: strategyId } = await strategy({ idle: { before: null, during: { unit: "MINUTE", price: "0.1000", freeMinutes: 10 }, after: null } });
    const made = await makeCharger("0PL002");
    expect((await call("PUT", `/finance-service/strategy/${strategyId}/assign`, { token: pl, body: { pointIds: [made.pointId] } })).status).toBe(200);
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const t0 = Date.now() - 2 * 3_600_000;
    const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
    const status = (minutes: number, value: string) => charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: value, timestamp: at(minutes) });
    // Suspended before the session starts: not part of it.
    await status(-20, "SuspendedEV");
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "IDLEDURING", meterStart: 0, timestamp: at(0) });
    await status(1, "Charging");
    await status(10, "SuspendedEV"); // 30 minutes
    await status(40, "Charging");
    await status(50, "SuspendedEVSE"); // 10 minutes, until the stop
    await charger.call("StopTransaction", { transactionId, meterStop: 0, timestamp: at(60), reason: "Local" });
    // After the stop: the idle fee after charging's business, not this one.
    await status(61, "SuspendedEV");
    charger.close();

    await deliverTwice(transactionId);
    // 40 suspended minutes, 10 free: 30 started minutes at 0.10 zł.
    expect(await record(transactionId)).toMatchObject({ status: "RECORD_UNSETTLED", electricCost: 0, occupancyCost: 300, totalCost: 300 });
    expect(await row("SELECT idle_during_cost, idle_after_cost FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual({ idle_during_cost: 300, idle_after_cost: 0 });
  });
});

describe("record actions", () => {
  const act = (id: number, action: string, token = pl) => call("PUT", `/station-service/charge/record/${id}/${action}`, { token });
  const lastLog = (id: number) =>
    row<{ new_data: string }>("SELECT new_data FROM operation_logs WHERE table_name = 'charge_records' AND new_data LIKE ? ORDER BY id DESC LIMIT 1", `%"id":${id},%`);

  it("retries a failed payment once the balance allows it, debiting once, and logs it", async () => {
    const { versionId } = await strategy();
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 100);
    const card = await makeCard(pl, { customerId: customer.id });
    const { id } = await session(card.idTag, versionId);
    await deliverTwice(id);
    expect((await act(id, "retry")).body.data).toMatchObject({ status: "PAY_FAIL" });
    expect(await balanceOf(customer.id)).toBe(100);

    await setBalance(customer.id, 2_000);
    const retried = await act(id, "retry");
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ status: "RECORD_COMPLETE", paidCost: 1_235, balanceBefore: 2_000, balanceAfter: 765 });
    expect((await act(id, "retry")).status).toBe(409);
    expect(await balanceOf(customer.id)).toBe(765);
    expect(await chargingBills(id)).toMatchObject([{ status: "PaySuccess", balance_before: 2_000, balance_after: 765 }]);
    expect(JSON.parse((await lastLog(id))!.new_data)).toMatchObject({ action: "retry", status: "RECORD_COMPLETE" });
  });

  it("unplugs by hand: the idle fee until now, debited once; then no second unplug", async () => {
    const { versionId } = await strategy({ idle: { before: null, during: null, after: { unit: "HOUR", price: "2.0000", freeMinutes: 0 } } });
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 10_000);
    const card = await makeCard(pl, { customerId: customer.id });
    // Stopped 90 minutes ago: two started hours at 2.00 zł.
    const { id } = await session(card.idTag, versionId, new Date(Date.now() - 90 * 60_000));
    await deliverTwice(id);
    const unplugged = await act(id, "unplug");
    expect(unplugged.status, JSON.stringify(unplugged.body)).toBe(200);
    expect(unplugged.body.data).toMatchObject({ status: "RECORD_COMPLETE", occupancyCost: 400, totalCost: 1_635, balanceAfter: 8_365 });
    expect(unplugged.body.data.unplugAt).not.toBeNull();
    expect((await act(id, "unplug")).status).toBe(409);
    expect(await balanceOf(customer.id)).toBe(8_365);
  });

  it("marks complete and abnormal only from the states they apply to, and settles an unsettled record once a customer is behind the tag", async () => {
    const { versionId } = await strategy();
    const idTag = uniqueTag("LATE");
    const { id } = await session(idTag, versionId);
    await deliverTwice(id);
    expect((await record(id)).status).toBe("RECORD_UNSETTLED");
    const customer = await makeCustomer(pl);
    await setBalance(customer.id, 5_000);
    await makeCard(pl, { customerId: customer.id, idTag });
    expect((await act(id, "settle")).body.data).toMatchObject({ status: "RECORD_COMPLETE", customerId: customer.id, balanceAfter: 3_765 });
    expect((await act(id, "settle")).status).toBe(409);
    expect((await act(id, "complete")).status).toBe(409);
    expect((await act(id, "abnormal")).status).toBe(409);

    const other = await session(uniqueTag("NOBODY"), versionId);
    await deliverTwice(other.id);
    expect((await act(other.id, "abnormal")).body.data).toMatchObject({ status: "ABNORMAL" });
    expect((await act(other.id, "complete")).body.data).toMatchObject({ status: "RECORD_COMPLETE" });
    expect(JSON.parse((await lastLog(other.id))!.new_data)).toMatchObject({ action: "complete", status: "RECORD_COMPLETE" });
  });

  it("answers another operator's record with 404 and refuses accounts without the finance screen (403), a body-less PUT each", async () => {
    const { versionId } = await strategy();
    const { id } = await session(uniqueTag("NOBODY"), versionId);
    await deliverTwice(id);
    const de = await tokenFor("0DE001", "deadmin1");
    const watcher = await tokenWithMenus(pl, ["monitoring.charging"]);
    for (const action of ["settle", "complete", "abnormal", "unplug", "retry"]) {
      expect((await act(id, action, de)).status, action).toBe(404);
      expect((await act(id, action, watcher)).status, action).toBe(403);
    }
    expect((await record(id)).status).toBe("RECORD_UNSETTLED");
  });

  it("refuses every action to a sub-operator (403) on a record of its own devices, which it may read", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    // PL002-CP01 is one of the points the demo gives the sub-operator.
    const demo = (await row<{ id: number }>("SELECT id FROM points WHERE serial_number = 'PL002-CP01'"))!;
    const stop = Date.now() - 3_600_000;
    const [id] = await addSessions({ pointId: demo.id, operatorId }, [
      { start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), meterStop: 2_000, idTag: uniqueTag("NOBODY") },
    ]);
    await deliverTwice(id);
    const before = (await record(id)).status;
    expect((await call("GET", `/station-service/charge/record/${id}`, { token: sub })).status).toBe(200);
    for (const action of ["settle", "complete", "abnormal", "unplug", "retry"]) expect((await act(id, action, sub)).status, action).toBe(403);
    expect((await record(id)).status).toBe(before);
  });
});
