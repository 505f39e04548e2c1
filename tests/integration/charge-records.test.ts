import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { billByCode, receiptByToken } from "../../workers/services/charge-records/receipts";
import { ensureChargeRecord } from "../../workers/services/charge-records/lifecycle";
import { publicCtxOf, systemCtx } from "../../workers/services/context";
import { boot, connect, landed, now } from "./support/charger";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { row } from "./support/d1";
import { call, demoAdmins, ORIGIN } from "./support/http";
import { addSessions, bill } from "./support/sessions";

/** Charge records, their daily totals, receipts and the cashier view (docs/rules/records.md). */

let admin: string;
let deAdmin: string;
let sub: string;

beforeAll(async () => {
  ({ admin, sub, deAdmin } = await demoAdmins());
});

const list = (query: string, token = admin) => call("GET", `/station-service/charge/record?${query}`, { token });
const ids = (res: { body: { data: { records: { transactionId: number }[] } } }) => res.body.data.records.map((r) => r.transactionId);

const accountWith = (menuCodes: string[]) => tokenWithMenus(admin, menuCodes);

describe("charge record list", () => {
  it("answers every field, the record state as status and the transaction's own as transactionStatus", async () => {
    const made = await makeCharger("0PL002");
    const [stopped, running] = await addSessions(made, [
      { start: "2025-05-01T10:00:00Z", stop: "2025-05-01T10:45:00Z", meterStart: 100, meterStop: 7_100, bill: true },
      { start: "2025-05-02T10:00:00Z" },
    ]);
    const res = await list(`pointId=${made.pointId}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([running, stopped]);
    const [charging, complete] = res.body.data.records;
    expect(charging).toMatchObject({ id: running, status: "CHARGING", transactionStatus: "ACTIVE", stopAt: null, energyWh: null, totalCost: null });
    expect(complete).toMatchObject({
      id: stopped,
      transactionId: stopped,
      pointId: made.pointId,
      serialNumber: made.serialNumber,
      connectorId: 1,
      customerId: null,
      startAt: "2025-05-01T10:00:00.000Z",
      stopAt: "2025-05-01T10:45:00.000Z",
      unplugAt: null,
      meterStartWh: 100,
      meterStopWh: 7_100,
      energyWh: 7_000,
      chargingTime: 45,
      strategyVersionId: null,
      currency: "PLN",
      electricCost: null,
      serviceCost: null,
      reservationCost: null,
      occupancyCost: null,
      discountCost: null,
      taxCost: null,
      totalCost: null,
      paidCost: null,
      balanceBefore: null,
      balanceAfter: null,
      status: "CHARGE_COMPLETE",
      transactionStatus: "COMPLETED",
      stopReason: null,
    });
    expect(complete.stationName).toMatch(/^Station /);
    // 128 random bits, never the record's number.
    expect(complete.receiptToken).toMatch(/^[0-9a-f]{32}$/);
    expect(charging.receiptToken).not.toBe(complete.receiptToken);
  });

  it("filters by transaction, station, point, tag and state, each an exact match", async () => {
    const made = await makeCharger("0PL002");
    const other = await makeCharger("0PL002");
    const [a, b] = await addSessions(made, [
      { start: "2025-06-01T10:00:00Z", stop: "2025-06-01T11:00:00Z", meterStop: 5_000, idTag: "EXACT0001", bill: true },
      { start: "2025-06-02T10:00:00Z", idTag: "EXACT00012" },
    ]);
    const [c] = await addSessions(other, [{ start: "2025-06-03T10:00:00Z", idTag: "EXACT0001" }]);
    const station = await row<{ station_id: number }>("SELECT station_id FROM points WHERE id = ?", made.pointId);
    expect(ids(await list(`transactionId=${b}`))).toEqual([b]);
    expect(ids(await list(`stationId=${station!.station_id}`))).toEqual([b, a]);
    expect(ids(await list(`pointId=${other.pointId}`))).toEqual([c]);
    // A tag is an id: "EXACT0001" is not a part of "EXACT00012".
    expect(ids(await list("idTag=EXACT0001"))).toEqual([c, a]);
    expect(ids(await list(`pointId=${made.pointId}&status=CHARGE_COMPLETE`))).toEqual([a]);
    expect(ids(await list(`pointId=${made.pointId}&status=CHARGING`))).toEqual([b]);
    expect((await list("customerId=999999")).body.data.total).toBe(0);
    const wrong = await list("status=ACTIVE&lang=de");
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe("Unbekannter Status");
  });

  it("reads the period in the operator's time zone, as a day or a local date-time, and answers UTC", async () => {
    const made = await makeCharger("0PL002");
    const [lateFeb, firstOfMarch, lastOfMarch, april] = await addSessions(made, [
      // 23:30 on 28 February in Warsaw.
      { start: "2025-02-28T22:30:00Z" },
      // 00:30 on 1 March in Warsaw, still February in UTC.
      { start: "2025-02-28T23:30:00Z" },
      // 23:30 on 31 March in Warsaw (summer time), 21:30 UTC.
      { start: "2025-03-31T21:30:00Z" },
      // 00:30 on 1 April in Warsaw, still March in UTC.
      { start: "2025-03-31T22:30:00Z" },
    ]);
    const point = `pointId=${made.pointId}`;
    expect(ids(await list(`${point}&from=2025-03-01&to=2025-03-31`))).toEqual([lastOfMarch, firstOfMarch]);
    expect(ids(await list(`${point}&from=2025-04-01`))).toEqual([april]);
    expect(ids(await list(`${point}&to=2025-02-28`))).toEqual([lateFeb]);
    expect(ids(await list(`${point}&from=2025-03-01 00:30&to=2025-03-01 00:30`))).toEqual([firstOfMarch]);
    expect(ids(await list(`${point}&from=2025-03-31T23:45`))).toEqual([april]);
    const records = (await list(`${point}&from=2025-04-01`)).body.data.records;
    expect(records[0].startAt).toBe("2025-03-31T22:30:00.000Z");

    const badDay = await list(`${point}&from=2025-02-30&lang=pl`);
    expect(badDay.status).toBe(400);
    expect(badDay.body.msg).toBe("Podaj datę jako rrrr-MM-dd lub czas lokalny jako rrrr-MM-dd GG:mm");
    const badShape = await list(`${point}&to=01.03.2025`);
    expect(badShape.status).toBe(400);
    expect(badShape.body.data.fields).toHaveProperty("to");
    const backwards = await list(`${point}&from=2025-03-02&to=2025-03-01`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.msg).toBe("The start time must not be later than the end time");
  });

  it("pages at 100 with 150 records of one point, newest first, without overlap", async () => {
    const made = await makeCharger("0PL002");
    const base = Date.parse("2025-07-01T00:00:00Z");
    await addSessions(
      made,
      Array.from({ length: 150 }, (_, i) => ({ start: new Date(base + i * 60_000).toISOString(), idTag: `PAGE${i % 3}` })),
    );
    const first = await list(`pointId=${made.pointId}&size=100`);
    expect(first.body.data).toMatchObject({ total: 150, current: 1, size: 100 });
    expect(first.body.data.records).toHaveLength(100);
    const second = await list(`pointId=${made.pointId}&size=100&current=2`);
    expect(second.body.data.records).toHaveLength(50);
    const all = [...first.body.data.records, ...second.body.data.records].map((r: { startAt: string }) => r.startAt);
    expect(new Set(all).size).toBe(150);
    expect(all).toEqual([...all].sort().reverse());
    const tagged = await list(`pointId=${made.pointId}&idTag=PAGE1&from=2025-07-01&size=100`);
    expect(tagged.body.data.total).toBe(50);
    // 150 sessions recorded one by one: more than the default time on a loaded machine.
  }, 30_000);
});

describe("charge record list total", () => {
  const count = async (operator: string) =>
    (await row<{ n: number }>("SELECT count(*) AS n FROM charge_records WHERE operator_id = (SELECT id FROM operators WHERE code = ?)", operator))!.n;

  it("totals an unfiltered list from the daily record counts, each record counted once, and a filtered one by counting", async () => {
    const made = await makeCharger("0PL002");
    const before = (await list("size=10")).body.data.total;
    expect(before).toBe(await count("0PL002"));
    const [first] = await addSessions(made, [{ start: "2025-09-01T22:30:00Z" }, { start: "2025-09-02T08:00:00Z", stop: "2025-09-02T09:00:00Z", meterStop: 1000, bill: true }]);
    // Billing and a record made again for the same transaction count nothing more.
    await ensureChargeRecord(systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test"), first);
    const counted = await row<{ n: number }>("SELECT sum(records) AS n FROM daily_charge_totals WHERE point_id = ?", made.pointId);
    expect(counted).toEqual({ n: 2 });
    expect((await list("size=10")).body.data.total).toBe(before + 2);
    expect((await list("size=10")).body.data.total).toBe(await count("0PL002"));
    // The total is read from the counts: a count off by 1000 shows, a filter counts the records themselves.
    await env.DB.prepare("UPDATE daily_charge_totals SET records = records + 1000 WHERE point_id = ? AND day = '2025-09-02'").bind(made.pointId).run();
    expect((await list("size=10")).body.data.total).toBe(before + 1002);
    expect((await list(`size=10&pointId=${made.pointId}`)).body.data.total).toBe(2);
    expect((await list(`size=10&transactionId=${first}`)).body.data.total).toBe(1);
    await env.DB.prepare("UPDATE daily_charge_totals SET records = records - 1000 WHERE point_id = ? AND day = '2025-09-02'").bind(made.pointId).run();
    // The session of 22:30 UTC started on 2 September in Warsaw: the operator's day.
    expect(await row("SELECT day, records FROM daily_charge_totals WHERE point_id = ? ORDER BY day LIMIT 1", made.pointId)).toEqual({ day: "2025-09-02", records: 2 });
  });

  it("counts a record made by a StartTransaction once, and a sub-operator's total is its devices' records", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const start = { connectorId: 1, idTag: "COUNT01", meterStart: 0, timestamp: now() };
    const { transactionId } = await charger.call("StartTransaction", start);
    // A repeated identical start gets the same id and adds no record.
    expect((await charger.call("StartTransaction", start)).transactionId).toBe(transactionId);
    expect(await row("SELECT sum(records) AS n FROM daily_charge_totals WHERE point_id = ?", made.pointId)).toEqual({ n: 1 });
    expect((await list("size=10")).body.data.total).toBe(await count("0PL002"));
    charger.close();
    // The sub-operator's devices include PL002-CP01, not the fresh charger.
    const demo = await row<{ id: number; operator_id: number }>("SELECT id, operator_id FROM points WHERE serial_number = 'PL002-CP01'");
    const subBefore = (await list("size=100", sub)).body.data.total;
    await addSessions({ pointId: demo!.id, operatorId: demo!.operator_id }, [{ start: "2025-10-01T10:00:00Z" }]);
    const subTotal = (await list("size=100", sub)).body.data;
    expect(subTotal.total).toBe(subBefore + 1);
    expect(subTotal.total).toBe((await list("size=100&from=2000-01-01", sub)).body.data.total);
  });
});

describe("a charge record's page", () => {
  it("answers the cost lines, the meter curve and the strategy version", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "CURVE001", meterStart: 1_000, timestamp: now() });
    await charger.call("MeterValues", {
      connectorId: 1,
      transactionId,
      meterValue: [{ timestamp: now(), sampledValue: [{ value: "1500", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }],
    });
    const res = await call("GET", `/station-service/charge/record/${transactionId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: transactionId, status: "CHARGING", transactionStatus: "ACTIVE", idTag: "CURVE001", strategyVersionId: null });
    expect(res.body.data.costLines.map((l: { kind: string }) => l.kind)).toEqual(["electric", "service", "reservation", "occupancy", "discount", "tax", "total"]);
    expect(res.body.data.costLines.every((l: { amount: unknown }) => l.amount === null)).toBe(true);
    expect(res.body.data.curve.at(-1)).toMatchObject({ energyWh: 500 });
    charger.close();
  });

  it("is made when the charger starts, and turns ABNORMAL with its transaction", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 2, idTag: "REBOOT01", meterStart: 0, timestamp: now() });
    expect(await row("SELECT status, currency FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual({ status: "CHARGING", currency: "PLN" });
    // A reboot ends the running transactions without a stop (docs/rules/ocpp.md "Transactions").
    await boot(charger);
    // The boot reaches D1 in the charger's next batch (docs/rules/ocpp.md "Hot path").
    await landed();
    expect(await row("SELECT status FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual({ status: "ABNORMAL" });
    charger.close();
  });

  it("answers another operator's record and a device not assigned to a sub-operator with 404, a malformed id with 400", async () => {
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-05-01T10:00:00Z" }]);
    for (const path of [`/station-service/charge/record/${id}`, `/station-service/charge/record/${id}/receipt`]) {
      expect((await call("GET", path, { token: deAdmin })).status, path).toBe(404);
      expect((await call("GET", path, { token: sub })).status, path).toBe(404);
      expect((await call("GET", path, { token: admin })).status, path).toBe(200);
    }
    expect((await call("GET", "/station-service/charge/record/0x1", { token: admin })).status).toBe(400);
    expect(ids(await list("size=100", deAdmin))).not.toContain(id);
    expect(ids(await list("size=100", sub))).not.toContain(id);
  });

  it("shows a sub-operator the records of its devices only", async () => {
    const demo = await row<{ id: number; operator_id: number }>("SELECT id, operator_id FROM points WHERE serial_number = 'PL002-CP01'");
    const [mine] = await addSessions({ pointId: demo!.id, operatorId: demo!.operator_id }, [{ start: "2025-08-01T10:00:00Z" }]);
    const res = await list("size=100", sub);
    expect(res.status).toBe(200);
    expect(ids(res)).toContain(mine);
    expect(res.body.data.records.every((r: { serialNumber: string }) => r.serialNumber.startsWith("PL002-"))).toBe(true);
    expect((await call("GET", `/station-service/charge/record/${mine}`, { token: sub })).status).toBe(200);
  });

  it("refuses an account without a records menu (403) and lets the finance screen in", async () => {
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-05-01T10:00:00Z" }]);
    const home = await accountWith(["home"]);
    for (const path of ["/station-service/charge/record", `/station-service/charge/record/${id}`, `/station-service/charge/record/${id}/receipt`]) {
      expect((await call("GET", path, { token: home })).status, path).toBe(403);
    }
    const finance = await accountWith(["finance.chargeRecord"]);
    expect((await call("GET", `/station-service/charge/record/${id}`, { token: finance })).status).toBe(200);
  });
});

describe("daily totals", () => {
  it("adds a billed session once however often billing runs, and sums the records' totalCost as revenue", async () => {
    const made = await makeCharger("0PL002");
    const today = new Date().toISOString();
    const [id] = await addSessions(made, [{ start: today, stop: today, meterStart: 0, meterStop: 2_500 }]);
    // What the pricing engine will write; until then it is null and the revenue 0.
    await env.DB.prepare("UPDATE charge_records SET total_cost = 1234 WHERE transaction_id = ?").bind(id).run();
    const before = (await call("GET", "/station-service/dashboard/home", { token: admin })).body.data;
    expect(await bill(made, id)).toMatchObject({ billed: true, energyWh: 2_500 });
    expect(await bill(made, id)).toMatchObject({ billed: false });
    const totals = await env.DB.prepare("SELECT sessions, energy_wh, revenue, priced_sessions FROM daily_charge_totals WHERE point_id = ?").bind(made.pointId).all();
    expect(totals.results).toEqual([{ sessions: 1, energy_wh: 2_500, revenue: 1234, priced_sessions: 1 }]);
    expect(await row("SELECT status FROM charge_records WHERE transaction_id = ?", id)).toEqual({ status: "CHARGE_COMPLETE" });

    const after = (await call("GET", "/station-service/dashboard/home", { token: admin })).body.data;
    expect(after.revenue.today).toBe(before.revenue.today + 1234);
    expect(after.revenue.month).toBe(before.revenue.month + 1234);
    expect(after.today.energyWh).toBe(before.today.energyWh + 2_500);
    const report = await call("GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}`, { token: admin });
    expect(report.body.data).toMatchObject({ deductionCost: 1234, priced: true, currency: "PLN", chargeCount: 1 });
  });
});

describe("receipts and bills by public code", () => {
  it("finds a record's receipt by its token and its bill by its code, and nothing by a wrong one", async () => {
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-05-01T10:00:00Z", stop: "2025-05-01T11:05:00Z", meterStart: 0, meterStop: 12_345, bill: true }]);
    await env.DB.prepare(
      "UPDATE charge_records SET electric_cost = 3000, service_cost = 500, idle_during_cost = 100, idle_after_cost = 200, occupancy_cost = 300, discount_cost = 250, tax_cost = 0, total_cost = 3550 WHERE transaction_id = ?",
    )
      .bind(id)
      .run();
    const codes = await row<{ receipt_token: string; bill_code: string }>("SELECT receipt_token, bill_code FROM charge_records WHERE transaction_id = ?", id);
    const ctx = publicCtxOf(new Request(`${ORIGIN}/tourist/invoices/x`), env);
    const receipt = await receiptByToken(ctx, codes!.receipt_token);
    expect(receipt).toMatchObject({
      transactionId: id,
      energyWh: 12_345,
      chargingTime: 65,
      cost: 3_800,
      energyFee: 3_000,
      serviceFee: 500,
      parkingInCharging: 100,
      parkingPostCharging: 200,
      discount: 250,
      netCost: 3_550,
      tax: 0,
      grossCost: 3_550,
      amountDue: 3_550,
      format: { currency: { code: "PLN", sign: "zł", decimals: 2 }, timeZone: "Europe/Warsaw" },
    });
    expect(receipt.operatorName).toBeTruthy();
    expect(await billByCode(ctx, codes!.bill_code)).toMatchObject({ transactionId: id });
    await expect(receiptByToken(ctx, codes!.bill_code)).rejects.toMatchObject({ status: 404 });
    await expect(billByCode(ctx, codes!.receipt_token)).rejects.toMatchObject({ status: 404 });
    await expect(receiptByToken(ctx, String(id))).rejects.toMatchObject({ status: 404 });
    await expect(receiptByToken(ctx, "0".repeat(32))).rejects.toMatchObject({ status: 404 });
  });
});

describe("the driver's tag on public pages", () => {
  it("masks the RFID tag of a receipt without a customer on its public pages, and shows it whole to the operator", async () => {
    const made = await makeCharger("0PL002");
    const long = `NOBODY${Date.now().toString(36).toUpperCase()}9876`;
    const short = `N${Date.now().toString(36).slice(-7).toUpperCase()}`;
    const [longId, shortId] = await addSessions(made, [
      { start: "2025-05-02T10:00:00Z", stop: "2025-05-02T11:00:00Z", meterStart: 0, meterStop: 1_000, idTag: long, bill: true },
      { start: "2025-05-02T12:00:00Z", stop: "2025-05-02T13:00:00Z", meterStart: 0, meterStop: 1_000, idTag: short, bill: true },
    ]);
    const ctx = publicCtxOf(new Request(`${ORIGIN}/tourist/invoices/x`), env);
    const codes = (id: number) => row<{ receipt_token: string; bill_code: string }>("SELECT receipt_token, bill_code FROM charge_records WHERE transaction_id = ?", id);
    const longCodes = (await codes(longId))!;
    const shortCodes = (await codes(shortId))!;
    for (const receipt of [await receiptByToken(ctx, longCodes.receipt_token), await billByCode(ctx, longCodes.bill_code)]) {
      expect(receipt.account).toBe("••••9876");
      expect(JSON.stringify(receipt)).not.toContain(long);
    }
    // A short tag shows none of its characters.
    expect((await receiptByToken(ctx, shortCodes.receipt_token)).account).toBe("••••");
    expect(JSON.stringify(await billByCode(ctx, shortCodes.bill_code))).not.toContain(short);
    // The operator's console sees the tag.
    const console_ = await call("GET", `/station-service/charge/record/${longId}/receipt`, { token: admin });
    expect(console_.body.data.account).toBe(long);
  });
});

describe("cashier", () => {
  it("shows a station's connectors with their running session and the amount due of the last finished one", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available", timestamp: now() });
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 2, idTag: "CASH0001", meterStart: 0, timestamp: now() });
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Charging", timestamp: now() });
    await landed();
    const recent = new Date(Date.now() - 60 * 60_000).toISOString();
    const [done] = await addSessions(made, [{ start: recent, stop: recent, meterStop: 100, bill: true }]);
    await env.DB.prepare("UPDATE charge_records SET total_cost = 900, paid_cost = 400 WHERE transaction_id = ?").bind(done).run();
    const station = await row<{ station_id: number }>("SELECT station_id FROM points WHERE id = ?", made.pointId);
    const res = await call("GET", `/station-service/charge/cashier/${station!.station_id}`, { token: admin });
    expect(res.status).toBe(200);
    const [point] = res.body.data.points;
    expect(point.connectors[0]).toMatchObject({ connectorId: 1, status: "Available", lastSession: { transactionId: done, totalCost: 900, amountDue: 500 } });
    expect(point.connectors[1]).toMatchObject({ connectorId: 2, status: "Charging", transactionId, lastSession: null });
    expect((await call("GET", `/station-service/charge/cashier/${station!.station_id}`, { token: deAdmin })).status).toBe(404);
    charger.close();
  });
});
