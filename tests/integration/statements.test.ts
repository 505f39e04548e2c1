import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { operatorIdOf, makeCustomerRow } from "./support/driver-rows";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, demoAdmins } from "./support/http";
import { addSessions } from "./support/sessions";

/**
 * Financial statements, the collection account and the sub-operator's finance
 * (docs/rules/statements.md). Sessions are recorded the way the product records them, then given
 * the prices a billing run would leave, so every sum is checked to the minor unit.
 */

let admin: string;
let sub: string;
let deAdmin: string;
let subOperatorId: number;

beforeAll(async () => {
  ({ admin, sub, deAdmin } = await demoAdmins());
  subOperatorId = await operatorIdOf("0PL002A");
});

interface Priced {
  start: string;
  energyWh: number;
  minutes?: number;
  electric?: number;
  service?: number;
  idle?: number;
  discount?: number;
  tax?: number;
  status?: "RECORD_COMPLETE" | "CHARGE_COMPLETE" | "PAY_FAIL" | "CHARGING";
}

/** Sessions of a point, priced as billing would price them (total = lines − discount + tax). */
async function priced(made: { pointId: number; operatorId: number }, list: Priced[], operatorCode = "0PL002") {
  const ids = await addSessions(
    made,
    list.map((s) => ({ start: s.start, stop: new Date(Date.parse(s.start) + (s.minutes ?? 30) * 60_000).toISOString(), energyWh: s.energyWh, meterStop: s.energyWh })),
    operatorCode,
  );
  for (const [i, s] of list.entries()) {
    const lines = (s.electric ?? 0) + (s.service ?? 0) + (s.idle ?? 0);
    const total = lines - (s.discount ?? 0) + (s.tax ?? 0);
    await env.DB.prepare(
      `UPDATE charge_records SET status = ?, electric_cost = ?, service_cost = ?, occupancy_cost = ?, discount_cost = ?, tax_cost = ?, total_cost = ?, priced_at = ?
       WHERE transaction_id = ?`,
    )
      .bind(s.status ?? "RECORD_COMPLETE", s.electric ?? 0, s.service ?? 0, s.idle ?? 0, s.discount ?? 0, s.tax ?? 0, total, s.status === "CHARGING" ? null : Date.now(), ids[i])
      .run();
  }
  return ids;
}

const statement = (query: string, token = admin) => call("GET", `/finance-service/statement?${query}`, { token });

describe("financial statements", () => {
  it("sums energy, sessions and every cost line to the minor unit, with the average session", async () => {
    const made = await makeCharger("0PL002");
    await priced(made, [
      { start: "2025-05-10T08:00:00Z", energyWh: 12_345, minutes: 40, electric: 1_234, service: 567, idle: 89, discount: 123, tax: 405 },
      { start: "2025-05-11T08:00:00Z", energyWh: 7_001, minutes: 20, electric: 701, service: 233, idle: 0, discount: 0, tax: 215 },
      // Still charging: neither energy nor price yet, so not counted.
      { start: "2025-05-11T09:00:00Z", energyWh: 50_000, electric: 9_999, status: "CHARGING" },
    ]);
    const res = await statement(`from=2025-05-01&to=2025-05-31&groupBy=point&pointId=${made.pointId}`);
    expect(res.status).toBe(200);
    const expected = {
      sessions: 2,
      pricedSessions: 2,
      energyWh: 19_346,
      durationS: 3_600,
      electricCost: 1_935,
      serviceCost: 800,
      idleCost: 89,
      discountCost: 123,
      taxCost: 620,
      totalCost: 1_234 + 567 + 89 - 123 + 405 + 701 + 233 + 215,
      averageEnergyWh: 9_673,
      averageDurationS: 1_800,
      averageRevenue: Math.round((1_234 + 567 + 89 - 123 + 405 + 701 + 233 + 215) / 2),
    };
    expect(res.body.data.rows).toEqual([expect.objectContaining({ key: String(made.pointId), pointId: made.pointId, label: made.serialNumber, ...expected })]);
    expect(res.body.data.totals).toMatchObject(expected);
    expect(res.body.data).toMatchObject({ groupBy: "point", timeZone: "Europe/Warsaw", currency: "PLN" });

    const byStation = await statement(`from=2025-05-01&to=2025-05-31&groupBy=station&pointId=${made.pointId}`);
    expect(byStation.body.data.rows).toEqual([expect.objectContaining({ sessions: 2, totalCost: expected.totalCost, label: expect.stringMatching(/^Station /) })]);
  });

  it("groups by the operator's local day and month across midnight and a daylight-saving change", async () => {
    const made = await makeCharger("0PL002");
    await priced(made, [
      // Warsaw is UTC+1 until 2025-03-30 01:00 UTC, then UTC+2.
      { start: "2025-02-28T23:30:00Z", energyWh: 1_000, electric: 1 }, // 1 March 00:30 local
      { start: "2025-03-28T23:30:00Z", energyWh: 1_000, electric: 10 }, // 29 March 00:30 local
      { start: "2025-03-29T22:59:00Z", energyWh: 1_000, electric: 100 }, // 29 March 23:59 local
      { start: "2025-03-30T21:30:00Z", energyWh: 1_000, electric: 1_000 }, // 30 March 23:30 local (summer time)
      { start: "2025-03-30T22:30:00Z", energyWh: 1_000, electric: 10_000 }, // 31 March 00:30 local
      { start: "2025-03-31T22:00:00Z", energyWh: 1_000, electric: 100_000 }, // 1 April 00:00 local
    ]);
    const days = await statement(`from=2025-03-28&to=2025-03-31&groupBy=day&pointId=${made.pointId}`);
    expect(days.status).toBe(200);
    expect(days.body.data.rows.map((r: { key: string; sessions: number; electricCost: number }) => [r.key, r.sessions, r.electricCost])).toEqual([
      ["2025-03-28", 0, 0],
      ["2025-03-29", 2, 110],
      ["2025-03-30", 1, 1_000],
      ["2025-03-31", 1, 10_000],
    ]);
    expect(days.body.data.periodStart).toBe("2025-03-27T23:00:00.000Z");
    expect(days.body.data.periodEnd).toBe("2025-03-31T22:00:00.000Z");

    const months = await statement(`from=2025-02-01&to=2025-04-30&groupBy=month&pointId=${made.pointId}`);
    expect(months.body.data.rows.map((r: { key: string; electricCost: number }) => [r.key, r.electricCost])).toEqual([
      ["2025-02", 0],
      ["2025-03", 11_111],
      ["2025-04", 100_000],
    ]);
  });

  it("shows a sub-operator only the devices assigned to it, and the operator the same through operatorFinance", async () => {
    const mine = await makeCharger("0PL002");
    const other = await makeCharger("0PL002");
    await priced(mine, [{ start: "2025-06-02T10:00:00Z", energyWh: 4_000, electric: 400, service: 100 }]);
    await priced(other, [{ start: "2025-06-02T11:00:00Z", energyWh: 9_000, electric: 900 }]);
    const assigned = await call("PUT", `/user-service/sub-operator/${subOperatorId}/devices`, { token: admin, body: { stationIds: [], pointIds: [mine.pointId] } });
    expect(assigned.status).toBe(200);

    const own = await statement("from=2025-06-01&to=2025-06-30&groupBy=point", sub);
    expect(own.status).toBe(200);
    expect(own.body.data.rows.map((r: { pointId: number }) => r.pointId)).toEqual([mine.pointId]);
    expect(own.body.data.totals).toMatchObject({ sessions: 1, energyWh: 4_000, electricCost: 400, serviceCost: 100, totalCost: 500 });
    expect((await statement(`from=2025-06-01&to=2025-06-30&groupBy=day&pointId=${other.pointId}`, sub)).status).toBe(404);

    const viaParent = await statement(`from=2025-06-01&to=2025-06-30&groupBy=point&subOperatorId=${subOperatorId}`);
    expect(viaParent.body.data.rows.map((r: { pointId: number }) => r.pointId)).toEqual([mine.pointId]);
    const whole = await statement("from=2025-06-01&to=2025-06-30&groupBy=point");
    expect(whole.body.data.rows.map((r: { pointId: number }) => r.pointId)).toEqual(expect.arrayContaining([mine.pointId, other.pointId]));

    const finance = await call("GET", "/user-service/sub-operator/finance?name=0PL002A&from=2025-06-01&to=2025-07-01", { token: admin });
    expect(finance.body.data.records).toEqual([
      expect.objectContaining({ code: "0PL002A", sessions: 1, energyWh: 4_000, electricCost: 400, serviceCost: 100, totalCost: 500, revenue: 500, priced: true }),
    ]);
  });

  it("answers another operator's point or sub-operator with 404, and refuses a role without the menu", async () => {
    const made = await makeCharger("0PL002");
    await priced(made, [{ start: "2025-07-01T10:00:00Z", energyWh: 1_000, electric: 100 }]);
    expect((await statement(`from=2025-07-01&to=2025-07-31&groupBy=point&pointId=${made.pointId}`, deAdmin)).status).toBe(404);
    const theirs = await statement("from=2025-07-01&to=2025-07-31&groupBy=point", deAdmin);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.rows.map((r: { pointId: number }) => r.pointId)).not.toContain(made.pointId);
    // 0DE001 has no sub-operator menus (its code does not start with 0PL); 0PL002 asking for an
    // operator that is not its sub-operator finds nothing.
    expect((await statement(`from=2025-07-01&to=2025-07-31&groupBy=point&subOperatorId=${subOperatorId}`, deAdmin)).status).toBe(403);
    expect((await statement(`from=2025-07-01&to=2025-07-31&groupBy=point&subOperatorId=${await operatorIdOf("0DE001")}`)).status).toBe(404);
    // A sub-operator cannot read a sibling's (or its own, as a parent would) statement.
    expect((await statement(`from=2025-07-01&to=2025-07-31&groupBy=point&subOperatorId=${subOperatorId}`, sub)).status).toBe(403);

    const outsider = await tokenWithMenus(admin, ["finance.chargeConfiguration"]);
    expect((await statement("from=2025-07-01&to=2025-07-31&groupBy=day", outsider)).status).toBe(403);
    const statementsOnly = await tokenWithMenus(admin, ["finance.financialStatements"]);
    expect((await statement("from=2025-07-01&to=2025-07-31&groupBy=day", statementsOnly)).status).toBe(200);
    expect((await statement(`from=2025-07-01&to=2025-07-31&groupBy=day&subOperatorId=${subOperatorId}`, statementsOnly)).status).toBe(403);
    const subFinanceOnly = await tokenWithMenus(admin, ["subOperator.finance"]);
    expect((await statement("from=2025-07-01&to=2025-07-31&groupBy=day", subFinanceOnly)).status).toBe(403);
    expect((await statement(`from=2025-07-01&to=2025-07-31&groupBy=day&subOperatorId=${subOperatorId}`, subFinanceOnly)).status).toBe(200);
  });

  it("refuses a malformed or unknown parameter and a period over 366 days with 400 and a localized message", async () => {
    const bad = async (query: string, field: string) => {
      const res = await statement(`${query}&lang=pl`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.data.fields ?? {}), query).toContain(field);
      return res;
    };
    await bad("from=2025-01-01&to=2025-01-31", "groupBy");
    await bad("from=2025-01-01&to=2025-01-31&groupBy=week", "groupBy");
    await bad("to=2025-01-31&groupBy=day", "from");
    await bad("from=2025-02-30&to=2025-03-31&groupBy=day", "from");
    await bad("from=01.02.2025&to=2025-03-31&groupBy=day", "from");
    await bad("from=2025-03-01&to=2025-02-01&groupBy=day", "to");
    const long = await bad("from=2024-01-01&to=2025-01-01&groupBy=month", "to");
    expect(long.body.msg).toMatch(/366/);
    await bad("from=2025-01-01&to=2025-01-31&groupBy=day&pointId=abc", "pointId");
    const unknown = await statement("from=2025-01-01&to=2025-01-31&groupBy=day&station=1");
    expect(unknown.status).toBe(400);
    expect((await statement("from=2024-01-01&to=2024-12-31&groupBy=month")).status).toBe(200);
  });
});

describe("collection account", () => {
  it("keeps the operator's own accounts, validated, logged, and never another operator's", async () => {
    const body = { chargeAccount: "PL61 1090 1014 0000 0712 1981 2874", clearingAccount: "PL27 1140 2004 0000 3002 0135 5387", cardPaymentAccount: "", paypalAccount: "pay@plugdesk.example" };
    const put = await call("PUT", "/finance-service/collection-account", { token: admin, body });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ code: "0PL002", chargeAccount: body.chargeAccount, clearingAccount: body.clearingAccount, cardPaymentAccount: null, paypalAccount: body.paypalAccount });
    expect((await call("GET", "/finance-service/collection-account", { token: admin })).body.data).toMatchObject({ chargeAccount: body.chargeAccount });
    const de = await call("GET", "/finance-service/collection-account", { token: deAdmin });
    expect(de.body.data.code).toBe("0DE001");
    expect(de.body.data.chargeAccount).not.toBe(body.chargeAccount);
    const log = await env.DB.prepare("SELECT module FROM operation_logs WHERE module = 'collectionAccount' ORDER BY id DESC LIMIT 1").first<{ module: string }>();
    expect(log?.module).toBe("collectionAccount");

    const tooLong = await call("PUT", "/finance-service/collection-account", { token: admin, body: { chargeAccount: "x".repeat(65) } });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.data.fields)).toContain("chargeAccount");
    expect((await call("PUT", "/finance-service/collection-account", { token: admin, body: { iban: "x" } })).status).toBe(400);
    expect((await call("GET", "/finance-service/collection-account", { token: admin })).body.data.chargeAccount).toBe(body.chargeAccount);

    const readOnly = await tokenWithMenus(admin, ["finance.financialStatements"]);
    expect((await call("GET", "/finance-service/collection-account", { token: readOnly })).status).toBe(403);
    expect((await call("GET", "/finance-service/collection-account", { token: sub })).status).toBe(403);
  });

  it("sums successful top-ups and charging payments per payment way in the period's local days", async () => {
    const operatorId = await operatorIdOf("0PL002");
    const customer = await makeCustomerRow("0PL002");
    const bill = (type: string, paymentMethod: string, cost: number, status: string, at: string) =>
      env.DB.prepare(
        "INSERT INTO bills (operator_id, customer_id, cost, balance_before, balance_after, type, payment_method, status, created_at) VALUES (?, ?, ?, 0, 0, ?, ?, ?, ?)",
      )
        .bind(operatorId, customer.id, cost, type, paymentMethod, status, Date.parse(at))
        .run();
    await bill("Recharge", "ADMIN", 10_000, "PaySuccess", "2023-08-01T10:00:00Z");
    await bill("Recharge", "ADMIN", 2_550, "PaySuccess", "2023-08-15T10:00:00Z");
    await bill("Recharge", "STRIPE", 5_001, "PaySuccess", "2023-07-31T22:30:00Z"); // 1 August 00:30 in Warsaw
    await bill("Recharge", "STRIPE", 9_999, "PayFail", "2023-08-02T10:00:00Z");
    await bill("Charging", "BALANCE", 1_234, "PaySuccess", "2023-08-03T10:00:00Z");
    await bill("Member", "BALANCE", 3_000, "PaySuccess", "2023-08-03T10:00:00Z");
    await bill("Recharge", "ADMIN", 777, "PaySuccess", "2023-08-31T22:30:00Z"); // 1 September in Warsaw

    const res = await call("GET", "/finance-service/collection-account/totals?from=2023-08-01&to=2023-08-31", { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.records).toEqual([
      { type: "Charging", paymentMethod: "BALANCE", count: 1, amount: 1_234 },
      { type: "Recharge", paymentMethod: "ADMIN", count: 2, amount: 12_550 },
      { type: "Recharge", paymentMethod: "STRIPE", count: 1, amount: 5_001 },
    ]);
    expect(res.body.data.totals).toEqual({ recharge: 17_551, charging: 1_234, all: 18_785 });
    const de = await call("GET", "/finance-service/collection-account/totals?from=2023-08-01&to=2023-08-31", { token: deAdmin });
    expect(de.body.data.records).toEqual([]);
    expect((await call("GET", "/finance-service/collection-account/totals?from=2023-08-01", { token: admin })).status).toBe(400);
  });
});
