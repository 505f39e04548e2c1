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
let admin: string;

async function insertAll<T extends Record<string, unknown>>(table: SQLiteTable, rows: T[]) {
  const perRow = getTableConfig(table).columns.length;
  for (const slice of slices(rows, Math.max(1, Math.floor(99 / perRow)))) await db.insert(table).values(slice as never);
}

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const tag = Date.now().toString(36);
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
});
