import { env, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargePointName } from "../../workers/ocpp/identity";
import type { ChargerState } from "../../workers/ocpp/session";
import { at, card, energy, OCPP201, startedBy } from "../support/ocpp201";
import { connect, eventually } from "./support/charger";
import { makeCard, makeCustomer } from "./support/drivers";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { flatStrategy } from "./support/strategies";
import { setTaxRate } from "./support/tax";

/**
 * Tariff and cost on an OCPP 2.0.1 charger (Part 2 I01–I03; docs/rules/pricing.md "The price
 * before charging", "Running and final cost"): the price at Authorize in the driver's language,
 * the running cost in every TransactionEventResponse, and a final cost that is the receipt's to
 * the minor unit. The point charges 0.7777 PLN/kWh and 2 PLN a session, 23 % VAT included.
 */

let pl: string;

beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  await setTaxRate("0PL002", "23");
});

afterAll(() => setTaxRate("0PL002", "0"));

/** A 2.0.1 charger online at a point priced by a fresh strategy. */
async function pricedCharger() {
  const strategy = await flatStrategy(pl, {
    electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.7777" }] },
    service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "2.0000" }] },
  });
  const made = await makeCharger("0PL002", { type: "DC" });
  const assigned = await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token: pl, body: { pointIds: [made.pointId] } });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  const charger = (await connect(made.serialNumber, { key: made.key, protocols: OCPP201 })).charger!;
  await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
  await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId: 1, connectorId: 1 });
  return { ...made, charger };
}

/** A card of a fresh customer from `country`, with a balance to pay from. */
async function driverCard(country: string) {
  const customer = await makeCustomer(pl, { country });
  await env.DB.prepare("UPDATE customers SET balance = 10000 WHERE id = ?").bind(customer.id).run();
  return (await makeCard(pl, { customerId: customer.id })).idTag;
}

describe("the price before charging (I01)", () => {
  it("tells an Accepted driver the point's price in the customer's language at Authorize, and an unknown token nothing", async () => {
    const { charger } = await pricedCharger();
    const german = await charger.call("Authorize", { idToken: card(await driverCard("DE")) });
    expect(german.idTokenInfo).toEqual({
      status: "Accepted",
      personalMessage: { format: "UTF8", language: "de", content: expect.stringMatching(/^Preis jetzt: 0,7777 PLN\/kWh; Servicegebühr 2,0000 PLN je Vorgang; Preise inkl\. 23 % \S+$/) },
    });
    // A country none of the six languages is spoken in: the operator's default language.
    const french = await charger.call("Authorize", { idToken: card(await driverCard("FR")) });
    expect(french.idTokenInfo.personalMessage).toMatchObject({ language: "en", content: expect.stringMatching(/^Price now: 0\.7777 PLN\/kWh; service fee 2\.0000 PLN per session; prices include 23% /) });
    const unknown = await charger.call("Authorize", { idToken: card("NOBODY-KNOWS") });
    expect(unknown.idTokenInfo.status).toBe("Invalid");
    expect(unknown.idTokenInfo).not.toHaveProperty("personalMessage");
  });
});

describe("the running and final cost (I02–I03)", () => {
  it("prices the running cost from the charger's own readings about once a minute, and ends with the receipt's total to the minor unit", async () => {
    const { charger, operatorId, serialNumber } = await pricedCharger();
    const idTag = await driverCard("PL");
    const costUpdates: unknown[] = [];
    charger.answer("CostUpdated", (payload) => {
      costUpdates.push(payload);
      return {};
    });
    const transactionId = crypto.randomUUID();
    const event = (seqNo: number, eventType: string, time: string, wh: number, extra: Record<string, unknown> = {}) =>
      charger.call("TransactionEvent", {
        eventType,
        timestamp: time,
        triggerReason: eventType === "Started" ? "Authorized" : eventType === "Ended" ? "StopAuthorized" : "MeterValuePeriodic",
        seqNo,
        transactionInfo: { transactionId, chargingState: eventType === "Ended" ? "Idle" : "Charging" },
        evse: { id: 1, connectorId: 1 },
        meterValue: energy(wh, eventType === "Started" ? "Transaction.Begin" : eventType === "Ended" ? "Transaction.End" : "Sample.Periodic", time),
        ...extra,
      });

    // The start: the price in the driver's language, and the session fee as the cost so far.
    const started = await event(0, "Started", at(-600), 1_000, { idToken: card(idTag) });
    expect(started).toEqual({
      totalCost: 2,
      idTokenInfo: { status: "Accepted", personalMessage: { format: "UTF8", language: "pl", content: expect.stringMatching(/^Cena teraz: 0,7777 PLN\/kWh; /) } },
    });

    // Readings within the minute: answered from the charger's own state with the cost priced last.
    expect(await event(1, "Updated", at(-300), 3_500)).toEqual({ totalCost: 2 });

    // A minute on (the last pricing moved back by one), the cost is priced again: 3.000 kWh × 0.7777 = 2.3331 → 2.33, plus 2.00.
    const stub = env.CHARGE_POINT.getByName(chargePointName(operatorId, serialNumber));
    await runInDurableObject(stub, (instance) => {
      const tx = (instance as unknown as { state: ChargerState }).state.v201!.transactions[transactionId];
      tx.cost!.at -= 60_000;
    });
    expect(await event(2, "Updated", at(-240), 4_000)).toEqual({ totalCost: 4.33 });
    expect(await event(3, "Updated", at(-200), 4_500)).toEqual({ totalCost: 4.33 });

    // The end: 5.000 kWh × 0.7777 = 3.8885 → 3.89 (one line, rounded once, half-up), plus 2.00.
    const ended = await event(4, "Ended", at(), 6_000, { transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "Local" } });
    expect(ended).toEqual({ totalCost: 5.89 });

    // Billing prices the session with the same engine and inputs, and tells the charger its total.
    const { id } = (await env.DB.prepare("SELECT id FROM transactions WHERE charger_transaction_id = ?").bind(transactionId).first<{ id: number }>())!;
    const receipt = await eventually(
      async () => (await call("GET", `/station-service/charge/record/${id}/receipt`, { token: pl })).body.data,
      (r) => r?.amountDue !== null && r?.amountDue !== undefined,
    );
    expect(receipt).toMatchObject({ amountDue: 589, energyFee: 389, serviceFee: 200, tax: 110 });
    expect(Math.round(ended.totalCost * 100)).toBe(receipt.amountDue);
    await eventually(
      async () => costUpdates,
      (updates) => updates.length > 0,
    );
    expect(costUpdates).toEqual([{ transactionId, totalCost: 5.89 }]);
  });

  it("sends the final cost again on the charger's next connection when it could not take it", async () => {
    const { charger, operatorId, serialNumber, key } = await pricedCharger();
    const idTag = await driverCard("PL");
    const transactionId = crypto.randomUUID();
    const event = (seqNo: number, eventType: string, wh: number, extra: Record<string, unknown> = {}) =>
      charger.call("TransactionEvent", {
        eventType,
        timestamp: at(),
        triggerReason: eventType === "Started" ? "Authorized" : "StopAuthorized",
        seqNo,
        transactionInfo: { transactionId, chargingState: eventType === "Ended" ? "Idle" : "Charging" },
        evse: { id: 1, connectorId: 1 },
        meterValue: energy(wh, eventType === "Started" ? "Transaction.Begin" : "Transaction.End"),
        ...extra,
      });
    await event(0, "Started", 1_000, { idToken: card(idTag) });
    const ended = await event(1, "Ended", 2_000, { transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "Local" } });
    // The charger is silent: billing's CostUpdated goes unanswered and times out.
    const missed = await charger.nextCall();
    expect(missed[2]).toBe("CostUpdated");
    const stub = env.CHARGE_POINT.getByName(chargePointName(operatorId, serialNumber));
    const waiting = () => runInDurableObject(stub, (instance) => (instance as unknown as { store: { get(key: string): unknown } }).store.get("finalCosts") as Record<string, { totalCost: number }> | undefined);
    await eventually(waiting, (kept) => kept?.[transactionId] !== undefined);
    charger.close();

    const again = (await connect(serialNumber, { key, protocols: OCPP201 })).charger!;
    const costUpdates: unknown[] = [];
    again.answer("CostUpdated", (payload) => {
      costUpdates.push(payload);
      return {};
    });
    await again.call("Heartbeat", {});
    await eventually(
      async () => costUpdates,
      (updates) => updates.length > 0,
    );
    expect(costUpdates).toEqual([{ transactionId, totalCost: ended.totalCost }]);
    // Taken: nothing waits any more, and a third connection is sent nothing.
    await eventually(waiting, (kept) => kept?.[transactionId] === undefined);
    again.close();
  });

  it("leaves the cost out at a point without a strategy", async () => {
    const made = await makeCharger("0PL002", { type: "DC" });
    const charger = (await connect(made.serialNumber, { key: made.key, protocols: OCPP201 })).charger!;
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
    const idTag = await driverCard("PL");
    expect(await charger.call("Authorize", { idToken: card(idTag) })).toEqual({ idTokenInfo: { status: "Accepted" } });
    const transactionId = crypto.randomUUID();
    const started = await charger.call("TransactionEvent", startedBy(card(idTag), transactionId, { timestamp: at(-60) }));
    expect(started).toEqual({ idTokenInfo: { status: "Accepted" } });
    const ended = await charger.call("TransactionEvent", {
      eventType: "Ended",
      timestamp: at(),
      triggerReason: "StopAuthorized",
      seqNo: 1,
      transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "Local" },
      meterValue: energy(1_000, "Transaction.End"),
    });
    expect(ended).toEqual({});
  });
});
