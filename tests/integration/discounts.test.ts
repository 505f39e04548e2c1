import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { flatStrategy } from "./support/strategies";
import { discountStrategies } from "../../db/schema";
import type { PricedSession } from "../../domain/pricing";
import { systemCtx } from "../../workers/services/context";
import { discountStatements } from "../../workers/services/discounts/billing";
import { insertAll } from "./support/bulk";
import { makeCard, makeCustomer, uniqueTag } from "./support/drivers";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { addSessions, bill } from "./support/sessions";
import { row, rows } from "./support/d1";

/**
 * Discount strategies, discount cards and the order billing applies discounts in
 * (docs/rules/discounts.md). Every billing runs twice and twice at once.
 */

const STRATEGIES = "/finance-service/discount-strategy";

let pl: string;
let de: string;
let operatorId: number;

const setMembership = (silver: number, gold: number) =>
  env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.membership.silverDiscount', ?, '$.membership.goldDiscount', ?) WHERE operator_id = ?")
    .bind(silver, gold, operatorId)
    .run();

beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  de = await tokenFor("0DE001", "deadmin1");
  operatorId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
});
afterEach(() => setMembership(0, 0));

const strategyBody = (overrides: Record<string, unknown> = {}) => ({ name: `Promo ${uniqueTag()}`, type: "VOUCHER", unit: "MONEY", quota: 500, months: 3, ...overrides });

async function makeStrategy(overrides: Record<string, unknown> = {}, token = pl) {
  const res = await call("POST", STRATEGIES, { token, body: strategyBody(overrides) });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data as { id: number; generateNumber: number; quota: number };
}

type Card = { id: number; activationCode: string; status: string; remaining: number; expiresAt: string | null; strategyId: number };

async function generate(strategyId: number, count = 1, token = pl) {
  const res = await call("POST", `${STRATEGIES}/${strategyId}/generate`, { token, body: { count } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data.records as Card[];
}

const give = (customerId: number, activationCode: string, token = pl) => call("POST", `/customer-service/customer/${customerId}/discount-card`, { token, body: { activationCode } });
const cardsOf = async (customerId: number, token = pl) => (await call("GET", `/customer-service/customer/${customerId}/discount-card?size=100`, { token })).body.data.records as Card[];

/** A card of a new strategy, given to the customer. */
async function cardFor(customerId: number, overrides: Record<string, unknown>) {
  const strategy = await makeStrategy(overrides);
  const [card] = await generate(strategy.id);
  const given = await give(customerId, card.activationCode);
  if (given.status !== 200) throw new Error(JSON.stringify(given.body));
  return given.body.data as Card;
}

const pricing = (idle: Record<string, unknown> = { before: null, during: null, after: null }) => flatStrategy(pl, { idle });

/** A customer with a card and a balance of 50 zł. */
async function driver(memberLevel = "NORMAL") {
  const customer = await makeCustomer(pl);
  await env.DB.prepare("UPDATE customers SET balance = 5000, member_level = ? WHERE id = ?").bind(memberLevel, customer.id).run();
  const tag = await makeCard(pl, { customerId: customer.id });
  return { customer, idTag: tag.idTag };
}

/**
 * A session of 12.345 kWh at 1 zł/kWh (12.35 zł) that stopped just now (after the cards were
 * given: a card counts for sessions that stop while it is valid), billed twice at once and once more.
 */
async function charge(idTag: string, idle?: Record<string, unknown>) {
  const { versionId } = await pricing(idle);
  const made = await makeCharger("0PL002");
  const stop = Date.now();
  const [id] = await addSessions(made, [{ start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), meterStart: 1_000, meterStop: 13_345, idTag, strategyVersionId: versionId }]);
  const billTwice = async () => {
    await Promise.all([bill(made, id), bill(made, id)]);
    await bill(made, id);
    return (await call("GET", `/station-service/charge/record/${id}`, { token: pl })).body.data as Record<string, unknown> & { transactionId: number };
  };
  return Object.assign(await billTwice(), { stop, billTwice });
}
const balanceOf = async (id: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", id))!.balance;
const cardRow = (id: number) => row<{ status: string; remaining: number }>("SELECT status, remaining FROM discount_cards WHERE id = ?", id);

describe("discount strategies (/finance-service/discount-strategy)", () => {
  it("creates, reads, edits and deletes a strategy with the issue's fields", async () => {
    const created = await call("POST", STRATEGIES, {
      token: pl,
      body: { name: "Spring", type: "DISCOUNT", unit: "DEGREE", quota: 20_000, discount: 15, startDate: "2026-03-01", endDate: "2026-05-31", activationCode: "spr", generateNumber: 3 },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ name: "Spring", type: "DISCOUNT", unit: "DEGREE", quota: 20_000, discount: 15, startDate: "2026-03-01", endDate: "2026-05-31", months: null, activationCode: "SPR", generateNumber: 3 });
    const cards = (await call("GET", `${STRATEGIES}/${id}/card?size=100`, { token: pl })).body.data;
    expect(cards.total).toBe(3);
    expect(cards.records.every((c: Card) => c.status === "INVALID" && c.remaining === 20_000 && c.activationCode.startsWith("SPR"))).toBe(true);
    const edited = await call("PUT", `${STRATEGIES}/${id}`, { token: pl, body: { name: "Spring+", type: "DISCOUNT", unit: "DEGREE", quota: 30_000, discount: 20, months: 6 } });
    expect(edited.body.data).toMatchObject({ name: "Spring+", quota: 30_000, discount: 20, startDate: null, endDate: null, months: 6, generateNumber: 3 });
    // Cards not given yet take the new quota.
    expect((await call("GET", `${STRATEGIES}/${id}/card`, { token: pl })).body.data.records[0].remaining).toBe(30_000);
    const listed = await call("GET", `${STRATEGIES}?name=Spring%2B&type=DISCOUNT&size=100`, { token: pl });
    expect(listed.body.data.records.map((s: { id: number }) => s.id)).toEqual([id]);
    expect((await call("DELETE", `${STRATEGIES}/${id}`, { token: pl })).status).toBe(200);
    expect((await call("GET", `${STRATEGIES}/${id}`, { token: pl })).status).toBe(404);
  });

  it("refuses bad strategies with localized messages on each field", async () => {
    const res = await call("POST", `${STRATEGIES}?lang=pl`, { token: pl, body: { name: "", type: "DISCOUNT", unit: "LITRE", quota: 0, months: 3 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.fields).sort()).toEqual(["name", "quota", "unit"]);
    const percent = await call("POST", STRATEGIES, { token: pl, body: strategyBody({ type: "DISCOUNT", discount: 101 }) });
    expect(percent.body.data.fields).toHaveProperty("discount");
    expect((await call("POST", STRATEGIES, { token: pl, body: strategyBody({ type: "DISCOUNT" }) })).body.data.fields).toHaveProperty("discount");
    const both = await call("POST", `${STRATEGIES}?lang=en`, { token: pl, body: strategyBody({ startDate: "2026-01-01", endDate: "2026-02-01" }) });
    expect(both.body.data.fields.months).toMatch(/either/i);
    expect((await call("POST", STRATEGIES, { token: pl, body: strategyBody({ months: null }) })).body.data.fields).toHaveProperty("months");
    expect((await call("POST", STRATEGIES, { token: pl, body: strategyBody({ months: null, startDate: "2026-02-01", endDate: "2026-01-01" }) })).body.data.fields).toHaveProperty("endDate");
    expect((await call("POST", STRATEGIES, { token: pl, body: strategyBody({ quota: "1e3" }) })).status).toBe(400);
    expect((await call("POST", STRATEGIES, { token: pl, body: { ...strategyBody(), extra: 1 } })).status).toBe(400);
    expect((await call("POST", `${STRATEGIES}/1/generate`, { token: pl, body: { count: 0 } })).status).toBe(400);
    expect(await row("SELECT count(*) AS n FROM discount_strategies WHERE name = ''")).toEqual({ n: 0 });
  });

  it("generates cards with unique activation codes, and the database refuses a duplicate", async () => {
    const strategy = await makeStrategy({ activationCode: "UNQ" });
    const cards = [...(await generate(strategy.id, 300)), ...(await generate(strategy.id, 200))];
    const codes = new Set(cards.map((c) => c.activationCode));
    expect(codes.size).toBe(500);
    expect(cards.every((c) => /^UNQ[0-9A-HJKMNP-TV-Z]{12}$/.test(c.activationCode))).toBe(true);
    expect((await call("GET", `${STRATEGIES}/${strategy.id}`, { token: pl })).body.data.generateNumber).toBe(500);
    await expect(
      env.DB.prepare("INSERT INTO discount_cards (operator_id, strategy_id, code, status, remaining, created_at, updated_at) VALUES (?, ?, ?, 'INVALID', 1, 0, 0)").bind(operatorId, strategy.id, cards[0].activationCode).run(),
    ).rejects.toThrow(/UNIQUE/);
  });

  it("keeps the terms of a strategy whose cards are given: no change of quota, no delete (409)", async () => {
    const customer = await makeCustomer(pl);
    const strategy = await makeStrategy();
    const [card] = await generate(strategy.id);
    await give(customer.id, card.activationCode);
    expect((await call("PUT", `${STRATEGIES}/${strategy.id}`, { token: pl, body: strategyBody({ quota: 900 }) })).status).toBe(409);
    expect((await call("DELETE", `${STRATEGIES}/${strategy.id}`, { token: pl })).status).toBe(409);
    expect((await call("PUT", `${STRATEGIES}/${strategy.id}`, { token: pl, body: strategyBody({ name: "Renamed" }) })).status).toBe(200);
  });

  it("pages the strategy list and a strategy's cards at 100 with more than 100 rows", async () => {
    const prefix = `Bulk${uniqueTag()}`;
    const now = new Date();
    await insertAll(
      discountStrategies,
      Array.from({ length: 150 }, (_, i) => ({ operatorId, name: `${prefix} ${i}`, type: "VOUCHER" as const, unit: "MONEY" as const, quota: 100, months: 1, createdAt: now, updatedAt: now })),
    );
    const first = (await call("GET", `${STRATEGIES}?name=${prefix}&size=100`, { token: pl })).body.data;
    const second = (await call("GET", `${STRATEGIES}?name=${prefix}&size=100&current=2`, { token: pl })).body.data;
    expect([first.total, first.records.length, second.records.length]).toEqual([150, 100, 50]);
    expect(new Set([...first.records, ...second.records].map((s: { id: number }) => s.id)).size).toBe(150);

    const strategy = await makeStrategy({ generateNumber: 150 });
    const cards1 = (await call("GET", `${STRATEGIES}/${strategy.id}/card?size=100`, { token: pl })).body.data;
    const cards2 = (await call("GET", `${STRATEGIES}/${strategy.id}/card?size=100&current=2`, { token: pl })).body.data;
    expect([cards1.total, cards1.records.length, cards2.records.length]).toEqual([150, 100, 50]);

    const customer = await makeCustomer(pl);
    await env.DB.prepare("UPDATE discount_cards SET customer_id = ?, status = 'IN_USE', expires_at = ? WHERE strategy_id = ?").bind(customer.id, Date.now() + 86_400_000, strategy.id).run();
    const mine1 = (await call("GET", `/customer-service/customer/${customer.id}/discount-card?size=100`, { token: pl })).body.data;
    const mine2 = (await call("GET", `/customer-service/customer/${customer.id}/discount-card?size=100&current=2&status=IN_USE`, { token: pl })).body.data;
    expect([mine1.total, mine1.records.length, mine2.records.length]).toEqual([150, 100, 50]);
  });
});

describe("discount cards of customers", () => {
  it("goes INVALID → IN_USE when given, once per code; lists id, strategyId, status, remaining, expiresAt; voids to CANCELLED with a 409 after", async () => {
    const customer = await makeCustomer(pl);
    const other = await makeCustomer(pl);
    const strategy = await makeStrategy({ quota: 700, months: 2 });
    const [card] = await generate(strategy.id);
    expect(card.status).toBe("INVALID");
    const given = await give(customer.id, card.activationCode.toLowerCase());
    expect(given.status).toBe(200);
    const [listed] = await cardsOf(customer.id);
    expect(listed).toMatchObject({ id: card.id, strategyId: strategy.id, status: "IN_USE", remaining: 700 });
    const expires = Date.parse(listed.expiresAt!);
    expect(expires - Date.now()).toBeGreaterThan(58 * 86_400_000);
    expect(expires - Date.now()).toBeLessThan(63 * 86_400_000);
    expect((await give(other.id, card.activationCode)).status).toBe(409);
    expect((await give(other.id, "NOSUCHCODE123")).status).toBe(404);
    expect((await give(other.id, "no!")).status).toBe(400);
    const voided = await call("PUT", `/customer-service/customer/${customer.id}/discount-card/${card.id}/void`, { token: pl });
    expect(voided.body.data.status).toBe("CANCELLED");
    expect((await call("PUT", `/customer-service/customer/${customer.id}/discount-card/${card.id}/void`, { token: pl })).status).toBe(409);
    expect((await call("PUT", `/customer-service/customer/${other.id}/discount-card/${card.id}/void`, { token: pl })).status).toBe(404);
    expect((await cardsOf(customer.id))[0].status).toBe("CANCELLED");
  });

  it("reads a card past its validity as EXPIRED, and refuses to give a card whose dates are over", async () => {
    const customer = await makeCustomer(pl);
    const card = await cardFor(customer.id, { quota: 300 });
    await env.DB.prepare("UPDATE discount_cards SET expires_at = ? WHERE id = ?").bind(Date.now() - 1000, card.id).run();
    expect((await cardsOf(customer.id))[0].status).toBe("EXPIRED");
    const filtered = (await call("GET", `/customer-service/customer/${customer.id}/discount-card?status=EXPIRED`, { token: pl })).body.data.records;
    expect(filtered.map((c: Card) => c.id)).toEqual([card.id]);
    const past = await makeStrategy({ months: null, startDate: "2020-01-01", endDate: "2020-12-31" });
    const [old] = await generate(past.id);
    expect((await give(customer.id, old.activationCode)).status).toBe(409);
    expect((await cardRow(old.id))!.status).toBe("INVALID");
  });
});

describe("discounts in billing", () => {
  it("applies the membership discount, then the discount card, then the voucher, each on what the one before left, once", async () => {
    await setMembership(10, 20);
    const { customer, idTag } = await driver("SILVER");
    const discount = await cardFor(customer.id, { type: "DISCOUNT", unit: "MONEY", quota: 10_000, discount: 20 });
    const voucher = await cardFor(customer.id, { type: "VOUCHER", unit: "MONEY", quota: 500 });
    const record = await charge(idTag);
    // 1235 − 10 % (124) = 1111; − 20 % (222) = 889; − the voucher's 500 = 389.
    expect(record).toMatchObject({
      electricCost: 1_235,
      memberDiscountCost: 124,
      cardDiscountCost: 222,
      voucherCost: 500,
      discountCost: 846,
      totalCost: 389,
      paidCost: 389,
      status: "RECORD_COMPLETE",
    });
    expect(await balanceOf(customer.id)).toBe(4_611);
    expect(await cardRow(discount.id)).toEqual({ status: "IN_USE", remaining: 9_778 });
    expect(await cardRow(voucher.id)).toEqual({ status: "EXPIRED", remaining: 0 });
    expect(await rows("SELECT source, card_id, amount, consumed, applied FROM charge_record_discounts WHERE transaction_id = ? ORDER BY id", record.transactionId)).toEqual([
      { source: "MEMBER", card_id: null, amount: 124, consumed: 0, applied: 1 },
      { source: "DISCOUNT", card_id: discount.id, amount: 222, consumed: 222, applied: 1 },
      { source: "VOUCHER", card_id: voucher.id, amount: 500, consumed: 500, applied: 1 },
    ]);
    const receipt = (await call("GET", `/station-service/charge/record/${record.transactionId}/receipt`, { token: pl })).body.data;
    expect(receipt).toMatchObject({ discount: 846, amountDue: 389, discountLines: [{ source: "MEMBER", amount: 124 }, { source: "DISCOUNT", amount: 222 }, { source: "VOUCHER", amount: 500 }] });
  });

  it("never takes the cost below zero: a voucher larger than the session keeps the rest", async () => {
    const { customer, idTag } = await driver();
    const voucher = await cardFor(customer.id, { type: "VOUCHER", unit: "MONEY", quota: 5_000 });
    const record = await charge(idTag);
    expect(record).toMatchObject({ voucherCost: 1_235, discountCost: 1_235, totalCost: 0, status: "RECORD_COMPLETE" });
    expect(await balanceOf(customer.id)).toBe(5_000);
    expect(await cardRow(voucher.id)).toEqual({ status: "IN_USE", remaining: 3_765 });
  });

  it("counts energy on DEGREE cards: a kWh voucher covers the session's share, a kWh discount its quota's share", async () => {
    const first = await driver();
    const kwh = await cardFor(first.customer.id, { type: "VOUCHER", unit: "DEGREE", quota: 20_000 });
    expect(await charge(first.idTag)).toMatchObject({ voucherCost: 1_235, totalCost: 0 });
    expect(await cardRow(kwh.id)).toEqual({ status: "IN_USE", remaining: 7_655 });

    const second = await driver();
    const half = await cardFor(second.customer.id, { type: "DISCOUNT", unit: "DEGREE", quota: 6_000, discount: 50 });
    // 50 % of 1235 is 618, on 6 of the session's 12.345 kWh: 618 × 6000 / 12345 = 300.4 → 300.
    expect(await charge(second.idTag)).toMatchObject({ cardDiscountCost: 300, totalCost: 935 });
    expect(await cardRow(half.id)).toEqual({ status: "EXPIRED", remaining: 0 });
  });

  it("shows the card on a provisional price but draws it down only at the final price, once", async () => {
    const { customer, idTag } = await driver();
    const voucher = await cardFor(customer.id, { type: "VOUCHER", unit: "MONEY", quota: 500 });
    const idleAfter = { before: null, during: null, after: { unit: "MINUTE", price: "0.5000", freeMinutes: 15, capAmount: 5_000 } };
    const provisional = await charge(idTag, idleAfter);
    expect(provisional).toMatchObject({ status: "CHARGE_COMPLETE", voucherCost: 500, totalCost: 735, paidCost: null });
    expect(await cardRow(voucher.id)).toEqual({ status: "IN_USE", remaining: 500 });
    expect(await rows("SELECT id FROM charge_record_discounts WHERE transaction_id = ?", provisional.transactionId)).toEqual([]);
    // The car leaves 45 minutes after the stop: 30 minutes after the free 15, at 0.50 zł (15 zł).
    await env.DB.prepare("UPDATE charge_records SET unplug_at = ? WHERE transaction_id = ?").bind(provisional.stop + 45 * 60_000, provisional.transactionId).run();
    const final = await provisional.billTwice();
    expect(final).toMatchObject({ status: "RECORD_COMPLETE", occupancyCost: 1_500, voucherCost: 500, totalCost: 2_235, paidCost: 2_235 });
    expect(await balanceOf(customer.id)).toBe(5_000 - 2_235);
    expect(await cardRow(voucher.id)).toEqual({ status: "EXPIRED", remaining: 0 });
    expect(await rows("SELECT source, amount FROM charge_record_discounts WHERE transaction_id = ?", provisional.transactionId)).toEqual([{ source: "VOUCHER", amount: 500 }]);
  });

  it("leaves cancelled, expired and not-yet-valid cards alone", async () => {
    const { customer, idTag } = await driver();
    const cancelled = await cardFor(customer.id, { quota: 100 });
    await call("PUT", `/customer-service/customer/${customer.id}/discount-card/${cancelled.id}/void`, { token: pl });
    const expired = await cardFor(customer.id, { quota: 100 });
    await env.DB.prepare("UPDATE discount_cards SET expires_at = ? WHERE id = ?").bind(Date.now() - 3 * 3_600_000, expired.id).run();
    const later = await cardFor(customer.id, { quota: 100, months: null, startDate: "2099-01-01", endDate: "2099-12-31" });
    const record = await charge(idTag);
    expect(record).toMatchObject({ discountCost: 0, totalCost: 1_235 });
    for (const card of [cancelled, expired, later]) expect((await cardRow(card.id))!.remaining).toBe(100);
  });

  it("fails the whole batch, writing nothing, when a card changed after the price was read", async () => {
    const customer = await makeCustomer(pl);
    const card = await cardFor(customer.id, { quota: 100 });
    await env.DB.prepare("UPDATE discount_cards SET status = 'CANCELLED' WHERE id = ?").bind(card.id).run();
    const ctx = systemCtx(env, { id: operatorId, code: "0PL002" }, "billing");
    const priced = { memberDiscountCost: 0, cardUses: [{ source: "VOUCHER", cardId: card.id, amount: 100, consumed: 100 }] } as unknown as PricedSession;
    const statements = discountStatements(ctx, 987_654_321, priced);
    await expect(ctx.db.batch(statements as never)).rejects.toThrow();
    expect(await rows("SELECT id FROM charge_record_discounts WHERE transaction_id = 987654321")).toEqual([]);
    expect((await cardRow(card.id))!.remaining).toBe(100);
  });
});

describe("discounts: tenants and permissions", () => {
  it("answers another operator's strategies, cards and customers with 404", async () => {
    const customer = await makeCustomer(pl);
    const strategy = await makeStrategy();
    const [card] = await generate(strategy.id, 2);
    await give(customer.id, card.activationCode);
    const deCustomer = await makeCustomer(de);
    expect((await call("GET", `${STRATEGIES}/${strategy.id}`, { token: de })).status).toBe(404);
    expect((await call("PUT", `${STRATEGIES}/${strategy.id}`, { token: de, body: strategyBody() })).status).toBe(404);
    expect((await call("DELETE", `${STRATEGIES}/${strategy.id}`, { token: de })).status).toBe(404);
    expect((await call("POST", `${STRATEGIES}/${strategy.id}/generate`, { token: de, body: { count: 1 } })).status).toBe(404);
    expect((await call("GET", `${STRATEGIES}/${strategy.id}/card`, { token: de })).status).toBe(404);
    expect((await call("GET", `/customer-service/customer/${customer.id}/discount-card`, { token: de })).status).toBe(404);
    expect((await call("PUT", `/customer-service/customer/${customer.id}/discount-card/${card.id}/void`, { token: de })).status).toBe(404);
    // A PL code means nothing to a DE customer.
    const [unused] = (await call("GET", `${STRATEGIES}/${strategy.id}/card?status=INVALID`, { token: pl })).body.data.records;
    expect((await give(deCustomer.id, unused.activationCode, de)).status).toBe(404);
    expect((await call("GET", `${STRATEGIES}?size=100`, { token: de })).body.data.records.some((s: { id: number }) => s.id === strategy.id)).toBe(false);
  });

  it("refuses accounts without the menus (403), and a watching role operates nothing", async () => {
    const customer = await makeCustomer(pl);
    const strategy = await makeStrategy();
    const [card] = await generate(strategy.id);
    for (const menus of [["home"], ["monitoring.charging"]]) {
      const token = await tokenWithMenus(pl, menus);
      expect((await call("GET", STRATEGIES, { token })).status).toBe(403);
      expect((await call("POST", STRATEGIES, { token, body: strategyBody() })).status).toBe(403);
      expect((await call("POST", `${STRATEGIES}/${strategy.id}/generate`, { token, body: { count: 1 } })).status).toBe(403);
      expect((await give(customer.id, card.activationCode, token)).status).toBe(403);
      expect((await call("GET", `/customer-service/customer/${customer.id}/discount-card`, { token })).status).toBe(403);
    }
    const customersOnly = await tokenWithMenus(pl, ["users.userProfile"]);
    expect((await call("GET", STRATEGIES, { token: customersOnly })).status).toBe(403);
    expect((await give(customer.id, card.activationCode, customersOnly)).status).toBe(200);
    const financeOnly = await tokenWithMenus(pl, ["finance.discountStrategy"]);
    expect((await call("GET", `/customer-service/customer/${customer.id}/discount-card`, { token: financeOnly })).status).toBe(403);
    expect(await row("SELECT count(*) AS n FROM discount_cards WHERE strategy_id = ?", strategy.id)).toEqual({ n: 1 });
  });
});
