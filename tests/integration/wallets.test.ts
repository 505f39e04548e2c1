import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { makeCustomer } from "./support/drivers";
import { tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { insertAll } from "./support/bulk";
import { bills, recharges } from "../../db/schema";
import { row } from "./support/d1";

/**
 * Wallets (docs/rules/wallets.md): recharges by hand with their records and bills, membership
 * levels paid from the balance, and the bill list. The demo operator 0PL002 (PLN, 2 decimals)
 * has a minimum recharge of 10.00 zł and fees of 50.00 zł (SILVER) and 100.00 zł (GOLD).
 */


let pl: string;
let de: string;

beforeAll(async () => {
  [pl, de] = await Promise.all([tokenFor("0PL002", "demoadmin"), tokenFor("0DE001", "deadmin1")]);
});

const topUp = (token: string, customerId: number, amount: unknown, extra: Record<string, unknown> = {}) =>
  call("POST", "/finance-service/recharge", { token, body: { customerId, amount, ...extra } });
const balanceOf = async (id: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", id))!.balance;
const setLevel = (token: string, id: number, body: unknown, lang = "en") => call("PUT", `/customer-service/customer/${id}/member-level?lang=${lang}`, { token, body });

describe("recharges", () => {
  it("tops up and deducts by hand, with the record and its Recharge bill under the exact JSON names", async () => {
    const customer = await makeCustomer(pl);
    const up = await topUp(pl, customer.id, 2500, { remark: "Cash at the desk" });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ customerId: customer.id, way: "ADMIN", amount: 2500, balanceBefore: 0, balanceAfter: 2500, administrator: "demoadmin", email: customer.email, thirdPartyCode: null });
    expect(up.body.data.transactionCode).toMatch(/^R\d{14}[0-9A-F]{12}$/);
    const down = await topUp(pl, customer.id, -700);
    expect(down.status).toBe(200);
    expect(down.body.data).toMatchObject({ amount: -700, balanceBefore: 2500, balanceAfter: 1800 });
    expect(await balanceOf(customer.id)).toBe(1800);

    const list = await call("GET", `/finance-service/recharge?customerId=${customer.id}`, { token: pl });
    expect(list.body.data.total).toBe(2);
    expect(Object.keys(list.body.data.records[0])).toEqual(
      expect.arrayContaining(["id", "transactionCode", "customerId", "way", "amount", "balanceBefore", "balanceAfter", "thirdPartyCode", "administrator", "email", "createdAt"]),
    );
    expect(list.body.data.records.map((r: { amount: number }) => r.amount)).toEqual([-700, 2500]);

    const billList = await call("GET", `/finance-service/bill?customerId=${customer.id}&type=Recharge`, { token: pl });
    expect(billList.body.data.total).toBe(2);
    const bill = await call("GET", `/finance-service/bill/${billList.body.data.records[1].id}`, { token: pl });
    expect(Object.keys(bill.body.data)).toEqual(
      expect.arrayContaining(["id", "customerId", "cost", "balanceBefore", "balanceAfter", "memberLevelBefore", "memberLevelAfter", "type", "paymentMethod", "status", "remark", "transactionNumber", "createdAt"]),
    );
    expect(bill.body.data).toMatchObject({
      customerId: customer.id,
      cost: 2500,
      balanceBefore: 0,
      balanceAfter: 2500,
      memberLevelBefore: "NORMAL",
      memberLevelAfter: "NORMAL",
      type: "Recharge",
      paymentMethod: "ADMIN",
      status: "PaySuccess",
      remark: "Cash at the desk",
      transactionNumber: up.body.data.transactionCode,
    });
    const log = await row<{ n: number }>("SELECT count(*) AS n FROM operation_logs WHERE table_name = 'recharges' AND new_data LIKE ?", `%${up.body.data.transactionCode}%`);
    expect(log!.n).toBe(1);
  });

  it("never loses a recharge when many run at once, and never deducts below zero", async () => {
    const customer = await makeCustomer(pl);
    const ups = await Promise.all(Array.from({ length: 8 }, (_, i) => topUp(pl, customer.id, 1000 + i)));
    expect(ups.map((r) => r.status)).toEqual(Array(8).fill(200));
    const total = Array.from({ length: 8 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    expect(await balanceOf(customer.id)).toBe(total);
    // Each record starts where another ended: a chain from 0 to the total, no balance read twice.
    const records = (await call("GET", `/finance-service/recharge?customerId=${customer.id}&size=100`, { token: pl })).body.data.records as { balanceBefore: number; balanceAfter: number; amount: number }[];
    expect(new Set(records.map((r) => r.balanceBefore)).size).toBe(8);
    expect(records.every((r) => r.balanceAfter === r.balanceBefore + r.amount)).toBe(true);
    expect(records.map((r) => r.balanceBefore).sort((a, b) => a - b)[0]).toBe(0);
    expect(Math.max(...records.map((r) => r.balanceAfter))).toBe(total);

    // 8028 left: five deductions of 2000 at once, only four fit.
    const downs = await Promise.all(Array.from({ length: 5 }, () => topUp(pl, customer.id, -2000)));
    expect(downs.filter((r) => r.status === 200)).toHaveLength(4);
    const refused = downs.find((r) => r.status !== 200)!;
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/more than the balance/);
    expect(await balanceOf(customer.id)).toBe(total - 8000);
    const bills = await row<{ n: number }>("SELECT count(*) AS n FROM bills WHERE customer_id = ? AND type = 'Recharge'", customer.id);
    expect(bills!.n).toBe(12);
  });

  it("keeps the guard in the schema: no recharge row or Member bill can leave a balance below zero", async () => {
    const customer = await makeCustomer(pl);
    const operatorId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
    await expect(
      env.DB.prepare("INSERT INTO recharges (operator_id, customer_id, transaction_code, way, amount, balance_before, balance_after) VALUES (?, ?, 'GUARD', 'ADMIN', -1, 0, -1)").bind(operatorId, customer.id).run(),
    ).rejects.toThrow(/CHECK constraint failed: recharges_deduction_covered/);
    await expect(
      env.DB.prepare("INSERT INTO bills (operator_id, customer_id, cost, balance_before, balance_after, type, payment_method, status) VALUES (?, ?, 1, 0, -1, 'Member', 'BALANCE', 'PaySuccess')").bind(operatorId, customer.id).run(),
    ).rejects.toThrow(/CHECK constraint failed: bills_member_covered/);
  });

  it("applies the minimum recharge of the parameter settings to top-ups only, with a localized message", async () => {
    const customer = await makeCustomer(pl);
    const low = await call("POST", "/finance-service/recharge?lang=pl", { token: pl, body: { customerId: customer.id, amount: 999 } });
    expect(low.status).toBe(400);
    expect(low.body.msg).toBe("Doładowanie musi wynosić co najmniej 10,00 zł");
    expect(await balanceOf(customer.id)).toBe(0);
    expect((await topUp(pl, customer.id, 1000)).status).toBe(200);
    // A deduction below the minimum is fine: the minimum is about top-ups.
    expect((await topUp(pl, customer.id, -1)).body.data).toMatchObject({ balanceAfter: 999 });
    const none = await row<{ n: number }>("SELECT count(*) AS n FROM recharges WHERE customer_id = ? AND amount = 999", customer.id);
    expect(none!.n).toBe(0);
  });

  it("refuses amounts that are not whole non-zero minor units with 400, writing nothing", async () => {
    const customer = await makeCustomer(pl);
    for (const amount of [0, 12.5, "12.5", true, "abc", null, [100], 1_000_000_001, "0x10"]) {
      const res = await topUp(pl, customer.id, amount);
      expect(res.status, JSON.stringify(amount)).toBe(400);
    }
    expect((await call("POST", "/finance-service/recharge", { token: pl, body: { customerId: customer.id } })).status).toBe(400);
    expect((await call("POST", "/finance-service/recharge", { token: pl, body: { amount: 1000 } })).status).toBe(400);
    expect(await balanceOf(customer.id)).toBe(0);
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM bills WHERE customer_id = ?", customer.id))!.n).toBe(0);
  });

  it("filters recharges by way and period, and refuses an unknown way", async () => {
    const customer = await makeCustomer(pl);
    await topUp(pl, customer.id, 1500);
    expect((await call("GET", `/finance-service/recharge?customerId=${customer.id}&way=ADMIN`, { token: pl })).body.data.total).toBe(1);
    expect((await call("GET", `/finance-service/recharge?customerId=${customer.id}&way=STRIPE`, { token: pl })).body.data.total).toBe(0);
    expect((await call("GET", `/finance-service/recharge?way=CASH`, { token: pl })).status).toBe(400);
    expect((await call("GET", `/finance-service/recharge?customerId=${customer.id}&from=2000-01-01&to=2000-01-02`, { token: pl })).body.data.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await call("GET", `/finance-service/recharge?customerId=${customer.id}&from=2000-01-01&to=${tomorrow}`, { token: pl })).body.data.total).toBe(1);
    expect((await call("GET", `/finance-service/recharge?from=${today}T10:00&to=2000-01-01`, { token: pl })).status).toBe(400);
  });
});

describe("membership levels", () => {
  it("charges the level's fee from the balance with a Member bill, gold above silver, renewal and the way down included", async () => {
    const customer = await makeCustomer(pl);
    await topUp(pl, customer.id, 30000);
    const silver = await setLevel(pl, customer.id, { level: "SILVER" });
    expect(silver.status).toBe(200);
    expect(silver.body.data).toMatchObject({ memberLevel: "SILVER", balance: 25000 });
    expect(silver.body.data.memberUntil).toEqual(expect.any(String));
    const gold = await setLevel(pl, customer.id, { level: "GOLD", months: 2 });
    expect(gold.body.data).toMatchObject({ memberLevel: "GOLD", balance: 5000 });
    // Down from GOLD to SILVER: the silver fee, as any paid level.
    const renewed = await setLevel(pl, customer.id, { level: "SILVER" });
    expect(renewed.body.data).toMatchObject({ memberLevel: "SILVER", balance: 0 });
    const normal = await setLevel(pl, customer.id, { level: "NORMAL" });
    expect(normal.body.data).toMatchObject({ memberLevel: "NORMAL", balance: 0, memberUntil: null });

    const list = await call("GET", `/finance-service/bill?customerId=${customer.id}&type=Member`, { token: pl });
    expect(list.body.data.records.map((b: Record<string, unknown>) => [b.memberLevelBefore, b.memberLevelAfter, b.cost, b.balanceBefore, b.balanceAfter, b.remark, b.paymentMethod, b.status])).toEqual([
      ["SILVER", "NORMAL", 0, 0, 0, "1", "BALANCE", "PaySuccess"],
      ["GOLD", "SILVER", 5000, 5000, 0, "1", "BALANCE", "PaySuccess"],
      ["SILVER", "GOLD", 20000, 25000, 5000, "1", "BALANCE", "PaySuccess"],
      ["NORMAL", "SILVER", 5000, 30000, 25000, "1", "BALANCE", "PaySuccess"],
    ]);
  });

  it("extends a renewal from the end of the paid period", async () => {
    const customer = await makeCustomer(pl);
    await topUp(pl, customer.id, 20000);
    const first = (await setLevel(pl, customer.id, { level: "SILVER" })).body.data.memberUntil as string;
    const second = (await setLevel(pl, customer.id, { level: "SILVER", months: 2 })).body.data.memberUntil as string;
    expect(Date.parse(second) - Date.parse(first)).toBe(2 * 30 * 86_400_000);
  });

  it("refuses a fee the balance does not cover with a clear localized message, changing nothing", async () => {
    const customer = await makeCustomer(pl);
    await topUp(pl, customer.id, 4999);
    const res = await setLevel(pl, customer.id, { level: "SILVER" }, "pl");
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("Opłata członkowska (50,00 zł) przekracza saldo (49,99 zł)");
    const after = await row<{ balance: number; member_level: string }>("SELECT balance, member_level FROM customers WHERE id = ?", customer.id);
    expect(after).toEqual({ balance: 4999, member_level: "NORMAL" });
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM bills WHERE customer_id = ? AND type = 'Member'", customer.id))!.n).toBe(0);
  });

  it("lets only as many paid changes through at once as the balance covers", async () => {
    const customer = await makeCustomer(pl);
    await topUp(pl, customer.id, 12000);
    const all = await Promise.all(Array.from({ length: 4 }, () => setLevel(pl, customer.id, { level: "SILVER" })));
    expect(all.filter((r) => r.status === 200)).toHaveLength(2);
    expect(all.filter((r) => r.status === 409)).toHaveLength(2);
    expect(await balanceOf(customer.id)).toBe(2000);
  });

  it("refuses an unknown level or months out of range with 400", async () => {
    const customer = await makeCustomer(pl);
    for (const body of [{ level: "PLATINUM" }, {}, { level: "GOLD", months: 0 }, { level: "GOLD", months: 37 }, { level: "GOLD", months: 1.5 }]) {
      expect((await setLevel(pl, customer.id, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("bills", () => {
  it("filters by type, status and period, and refuses unknown values", async () => {
    const customer = await makeCustomer(pl);
    await topUp(pl, customer.id, 6000);
    await setLevel(pl, customer.id, { level: "SILVER" });
    const of = async (query: string) => (await call("GET", `/finance-service/bill?customerId=${customer.id}&${query}`, { token: pl })).body.data.total;
    expect(await of("type=Member")).toBe(1);
    expect(await of("type=Charging")).toBe(0);
    expect(await of("status=PaySuccess")).toBe(2);
    expect(await of("status=PayFail")).toBe(0);
    expect(await of("from=2000-01-01&to=2000-01-31")).toBe(0);
    expect((await call("GET", "/finance-service/bill?type=Refund", { token: pl })).status).toBe(400);
    expect((await call("GET", "/finance-service/bill?status=Paid", { token: pl })).status).toBe(400);
  });
});

describe("access", () => {
  it("answers another operator's customer and bill with 404 and never lists them", async () => {
    const customer = await makeCustomer(pl);
    const up = await topUp(pl, customer.id, 5000);
    const [bill] = (await call("GET", `/finance-service/bill?customerId=${customer.id}`, { token: pl })).body.data.records;
    expect((await topUp(de, customer.id, 5000)).status).toBe(404);
    expect((await setLevel(de, customer.id, { level: "NORMAL" })).status).toBe(404);
    expect((await call("GET", `/finance-service/bill/${bill.id}`, { token: de })).status).toBe(404);
    expect((await call("GET", `/finance-service/recharge?customerId=${customer.id}`, { token: de })).body.data.total).toBe(0);
    expect((await call("GET", `/finance-service/bill?customerId=${customer.id}`, { token: de })).body.data.total).toBe(0);
    expect(await balanceOf(customer.id)).toBe(5000);
    expect(up.status).toBe(200);
  });

  it("refuses accounts without the screens (403); the watch-only expense records read but never recharge", async () => {
    const customer = await makeCustomer(pl);
    const none = await tokenWithMenus(pl, ["home"]);
    for (const [method, path, body] of [
      ["POST", "/finance-service/recharge", { customerId: customer.id, amount: 5000 }],
      ["GET", "/finance-service/recharge", undefined],
      ["GET", "/finance-service/bill", undefined],
      ["PUT", `/customer-service/customer/${customer.id}/member-level`, { level: "NORMAL" }],
    ] as const) {
      expect((await call(method, path, { token: none, body })).status, `${method} ${path}`).toBe(403);
    }
    const watcher = await tokenWithMenus(pl, ["finance.expenseRecord"]);
    expect((await call("GET", "/finance-service/recharge", { token: watcher })).status).toBe(200);
    expect((await call("GET", "/finance-service/bill", { token: watcher })).status).toBe(200);
    expect((await topUp(watcher, customer.id, 5000)).status).toBe(403);
    expect((await setLevel(watcher, customer.id, { level: "NORMAL" })).status).toBe(403);
    const recharger = await tokenWithMenus(pl, ["users.userRecharge"]);
    expect((await topUp(recharger, customer.id, 5000)).status).toBe(200);
    expect((await setLevel(recharger, customer.id, { level: "SILVER" })).status).toBe(403);
    expect(await balanceOf(customer.id)).toBe(5000);
  });
});

describe("lists at page size 100 with more than 100 rows", () => {
  it("pages recharges and bills without overlap", async () => {
    const customer = await makeCustomer(pl);
    const operatorId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000);
    await insertAll(
      recharges,
      Array.from({ length: 150 }, (_, i) => ({
        operatorId,
        customerId: customer.id,
        transactionCode: `LIST${customer.id}-${i}`,
        way: "ADMIN" as const,
        amount: 100,
        balanceBefore: i * 100,
        balanceAfter: (i + 1) * 100,
        createdAt: at(i),
      })),
    );
    await insertAll(
      bills,
      Array.from({ length: 150 }, (_, i) => ({
        operatorId,
        customerId: customer.id,
        cost: 100,
        balanceBefore: i * 100,
        balanceAfter: (i + 1) * 100,
        type: "Recharge" as const,
        paymentMethod: "ADMIN",
        status: "PaySuccess" as const,
        transactionNumber: `LIST${customer.id}-${i}`,
        createdAt: at(i),
        updatedAt: at(i),
      })),
    );
    for (const path of ["/finance-service/recharge", "/finance-service/bill"]) {
      const first = await call("GET", `${path}?customerId=${customer.id}&size=100&current=1`, { token: pl });
      const second = await call("GET", `${path}?customerId=${customer.id}&size=100&current=2`, { token: pl });
      expect(first.body.data.total, path).toBe(150);
      expect(first.body.data.records).toHaveLength(100);
      expect(second.body.data.records).toHaveLength(50);
      const ids = new Set([...first.body.data.records, ...second.body.data.records].map((r: { id: number }) => r.id));
      expect(ids.size).toBe(150);
      expect(first.body.data.records[0].createdAt).toBe(at(149).toISOString());
      expect((await call("GET", `${path}?size=101`, { token: pl })).status).toBe(400);
    }
  });
});
