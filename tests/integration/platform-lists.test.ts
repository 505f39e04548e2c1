import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { operators, packageBills, pricePackages } from "../../db/schema";
import { slices } from "../../db/statements";
import { call, tokenFor } from "./support/http";

/**
 * The platform's lists hold at page size 100 with more than 100 rows (docs/rules/lists.md
 * "Tested at 100 with 150 rows"): operators, price packages, an operator's own packages, a
 * package's bills (the platform's and the operator's view), sub-operators and their finance.
 */
const ROWS = 150;
const db = createDb(env.DB);
const tag = Date.now().toString(36).slice(-4).toUpperCase();
let platform: string;
let demo: string;
let packageId: number;

async function insertAll<T extends Record<string, unknown>>(table: SQLiteTable, rows: T[]) {
  const perRow = getTableConfig(table).columns.length;
  for (const slice of slices(rows, Math.max(1, Math.floor(99 / perRow)))) await db.insert(table).values(slice as never);
}

beforeAll(async () => {
  platform = await tokenFor("PLATFORM", "platform", "Platform123");
  demo = await tokenFor("0PL002", "demoadmin");
  const [parent] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  await insertAll(
    operators,
    Array.from({ length: ROWS }, (_, i) => ({ platformId: 1, code: `0LS${tag}${String(i).padStart(3, "0")}`, name: `List operator ${i}`, edition: "basic" as const })),
  );
  await insertAll(
    operators,
    Array.from({ length: ROWS }, (_, i) => ({ platformId: 1, code: `0PL002L${tag}${i}`, name: `List sub ${i}`, sub: 1, parentId: parent.id })),
  );
  const at = (i: number) => new Date(Date.parse("2025-01-01T00:00:00Z") + i * 86_400_000);
  await insertAll(
    pricePackages,
    Array.from({ length: ROWS }, (_, i) => ({
      operatorId: parent.id,
      type: "regular" as const,
      status: "expired" as const,
      acPrice: "0.10",
      dcPrice: "0.20",
      currency: "PLN",
      currencyDecimals: 2,
      acConnectors: 1,
      dcConnectors: 1,
      beginAt: at(i),
      endAt: at(i + 1),
    })),
  );
  const [pkg] = await db.select().from(pricePackages).where(eq(pricePackages.operatorId, parent.id)).limit(1);
  packageId = pkg.id;
  await insertAll(
    packageBills,
    Array.from({ length: ROWS }, (_, i) => ({
      operatorId: parent.id,
      packageId,
      day: at(i).toISOString().slice(0, 10),
      acConnectors: 1,
      dcConnectors: 0,
      acAmount: 10,
      dcAmount: 0,
      amount: 10,
      currency: "PLN",
    })),
  );
});

async function pages(token: string, path: string, records: (data: any) => unknown[] = (d) => d.records) {
  const join = path.includes("?") ? "&" : "?";
  const first = await call("GET", `${path}${join}size=100&current=1`, { token });
  expect(first.status).toBe(200);
  const second = await call("GET", `${path}${join}size=100&current=2`, { token });
  return { first: records(first.body.data), second: records(second.body.data), total: first.body.data.total ?? first.body.data.bills?.total };
}

describe("every platform list at page size 100 with more than 100 rows", () => {
  it.each([
    ["operators", () => platform, `/platform-service/operator?code=0LS${tag}`],
    ["price packages", () => platform, "/platform-service/price-package?operatorCode=0PL002"],
    ["package bills", () => platform, () => `/platform-service/price-package/${packageId}/bill`],
    ["the operator's own packages", () => demo, "/platform-service/price-package/mine"],
    ["sub-operators", () => demo, `/user-service/sub-operator?name=0PL002L${tag}`],
    ["sub-operator finance", () => demo, `/user-service/sub-operator/finance?name=0PL002L${tag}`],
  ] as const)("%s", async (_name, token, path) => {
    const { first, second, total } = await pages(token(), typeof path === "function" ? path() : path);
    expect(first).toHaveLength(100);
    expect(total).toBeGreaterThanOrEqual(ROWS);
    expect(second).toHaveLength(Math.min(100, total - 100));
  });

  it("the operator's view of a package's bills", async () => {
    const { first, total } = await pages(demo, `/platform-service/price-package/mine/${packageId}/bill`, (d) => d.bills.records);
    expect(first).toHaveLength(100);
    expect(total).toBe(ROWS);
  });
});
