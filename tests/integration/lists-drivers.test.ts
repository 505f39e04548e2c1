import { env } from "cloudflare:test";
import { and, eq, like } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { customerGroups, customerPoints, customers, operators, rfCards } from "../../db/schema";
import { slices } from "../../db/statements";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";

/**
 * The drivers' lists at page size 100 with more than 100 rows (docs/rules/lists.md "Tested at 100
 * with 150 rows"): 150 customers each limited to a point, each leading a group of its own, each
 * with a bound card, so that every page reads its children in slices.
 */
const ROWS = 150;
const db = createDb(env.DB);
const tag = Date.now().toString(36);
let admin: string;

async function insertAll<T extends Record<string, unknown>>(table: SQLiteTable, rows: T[]) {
  const perRow = getTableConfig(table).columns.length;
  for (const slice of slices(rows, Math.max(1, Math.floor(99 / perRow)))) await db.insert(table).values(slice as never);
}

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const { pointId } = await makeCharger("0PL002");
  await insertAll(
    customers,
    Array.from({ length: ROWS }, (_, i) => ({
      operatorId: operator.id,
      firstName: "List",
      lastName: `Driver ${i}`,
      gender: "OTHER",
      email: `list.${tag}.${i}@example.com`,
      country: "PL",
      zipCode: "00-001",
      evModel: "Fiat 500e",
      chargeAllPoint: false,
    })),
  );
  const made = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.operatorId, operator.id), like(customers.email, `list.${tag}.%`)));
  await insertAll(customerPoints, made.map((c) => ({ operatorId: operator.id, customerId: c.id, pointId })));
  await insertAll(customerGroups, made.map((c, i) => ({ operatorId: operator.id, name: `List group ${i}`, code: `L${tag}${i}`.slice(-20), leaderId: c.id })));
  const groups = await db.select({ id: customerGroups.id, leaderId: customerGroups.leaderId }).from(customerGroups).where(eq(customerGroups.operatorId, operator.id));
  for (const g of groups.filter((g) => made.some((c) => c.id === g.leaderId))) {
    await db.update(customers).set({ groupId: g.id }).where(eq(customers.id, g.leaderId!));
  }
  await insertAll(rfCards, made.map((c, i) => ({ operatorId: operator.id, idTag: `LC${tag}${i}`.slice(-20), bindStatus: "BIND", customerId: c.id, deliveryType: "TAKE" })));
});

const lists: [string, string][] = [
  ["customers", "/customer-service/customer"],
  ["customer groups", "/customer-service/group"],
  ["group members", "/customer-service/group/member"],
  ["RFID cards", "/customer-service/rf-card"],
];

describe("every list at page size 100 with more than 100 rows", () => {
  it.each(lists)("%s", async (_, url) => {
    const page = (current: number) => call("GET", `${url}?size=100&current=${current}`, { token: admin });
    const first = await page(1);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const data = first.body.data as { records: unknown[]; total: number; size: number };
    expect(data.total).toBeGreaterThan(100);
    expect(data.records).toHaveLength(100);
    const second = await page(2);
    expect(second.body.data.records.length).toBe(Math.min(100, data.total - 100));
  });

  it("shows each customer's points and each group's member count on a full page", async () => {
    const customersPage = (await call("GET", "/customer-service/customer?size=100&name=List%20Driver", { token: admin })).body.data.records as { chargePointList: number[] }[];
    expect(customersPage.every((c) => c.chargePointList.length === 1)).toBe(true);
    const groupsPage = (await call("GET", "/customer-service/group?size=100&name=List%20group", { token: admin })).body.data.records as { memberCount: number }[];
    expect(groupsPage).toHaveLength(100);
    expect(groupsPage.every((g) => g.memberCount === 1)).toBe(true);
  });

  it("finds any group for the customer form and filter by name or code, however many there are", async () => {
    // The oldest group: the last of a newest-first list, beyond its first 100.
    const [oldest] = await db.select({ id: customerGroups.id, code: customerGroups.code }).from(customerGroups).where(eq(customerGroups.name, "List group 0"));
    const options = async (keyword: string) => (await call("GET", `/customer-service/group/options?keyword=${encodeURIComponent(keyword)}`, { token: admin })).body.data as { id: number; name: string; code: string }[];
    expect(await options(oldest.code.toLowerCase())).toEqual([{ id: oldest.id, name: "List group 0", code: oldest.code }]);
    expect((await options("List group 14")).map((g) => g.name)).toEqual(["List group 14", "List group 140", "List group 141", "List group 142", "List group 143", "List group 144", "List group 145", "List group 146", "List group 147", "List group 148", "List group 149"]);
    // Capped: a picker is not a list.
    expect(await options("List group")).toHaveLength(20);
  });

  it("links replaced and replacing cards on full pages, read in slices", async () => {
    const cards = await db.select({ id: rfCards.id }).from(rfCards).where(like(rfCards.idTag, `LC${tag}%`));
    const half = Math.floor(cards.length / 2);
    for (let i = 0; i < half; i++) {
      await db.update(rfCards).set({ status: "LOST" }).where(eq(rfCards.id, cards[i].id));
      await db.update(rfCards).set({ replacesCardId: cards[i].id }).where(eq(rfCards.id, cards[half + i].id));
    }
    type Listed = { id: number; idTag: string; status: string; replacesCardId: number | null; replacesIdTag: string | null; replacedById: number | null; replacedByIdTag: string | null };
    const listed: Listed[] = [];
    for (const current of [1, 2]) {
      const res = await call("GET", `/customer-service/rf-card?size=100&current=${current}&idTag=LC${tag}`, { token: admin });
      listed.push(...(res.body.data.records as Listed[]));
    }
    expect(listed).toHaveLength(cards.length);
    const byId = new Map(listed.map((c) => [c.id, c]));
    for (let i = 0; i < half; i++) {
      const [old, replacement] = [byId.get(cards[i].id)!, byId.get(cards[half + i].id)!];
      expect([old.replacedById, old.replacedByIdTag, replacement.replacesIdTag]).toEqual([replacement.id, replacement.idTag, old.idTag]);
    }
  });
});
