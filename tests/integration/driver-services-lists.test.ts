import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { customerGroups, customers, offlineListPushItems, offlineLists, operators, points, reservations, stations, vehicles } from "../../db/schema";
import { insertAll } from "./support/bulk";
import { makeCustomerRow } from "./support/driver-rows";
import { call, tokenFor } from "./support/http";

/**
 * The driver-services lists at page size 100 with 150 rows (docs/rules/lists.md "Tested at 100
 * with 150 rows"): vehicles, offline lists, a list's deliveries and its points, reservations.
 */
const ROWS = 150;
let admin: string;
let listId: number;
let pointId: number;

beforeAll(async () => {
  const db = createDb(env.DB);
  admin = await tokenFor("0PL002", "demoadmin");
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const operatorId = operator.id;
  const tag = Date.now().toString(36);
  const owner = await makeCustomerRow("0PL002");
  await insertAll(vehicles, Array.from({ length: ROWS }, (_, i) => ({ operatorId, customerId: owner.id, name: `Car ${i}`, plate: `WX ${i}` })));
  await insertAll(offlineLists, Array.from({ length: ROWS }, (_, i) => ({ operatorId, name: `List ${tag} ${i}`, chargeableType: "ALL" })));
  const [list] = await db.select().from(offlineLists).where(eq(offlineLists.name, `List ${tag} 0`));
  listId = list.id;
  const [station] = await db.insert(stations).values({ operatorId, name: `Driver list station ${tag}`, status: "VALID", rank: 0 }).returning();
  await insertAll(
    points,
    Array.from({ length: ROWS }, (_, i) => ({
      operatorId,
      stationId: station.id,
      serialNumber: `DSL-${tag}-${i}`,
      pointNo: String(i),
      name: `Point ${i}`,
      type: "AC",
      ratedPowerW: 22_000,
      connectorCount: 1,
      status: "VALID",
    })),
  );
  const made = await db.select({ id: points.id }).from(points).where(eq(points.stationId, station.id));
  pointId = made[0].id;
  await insertAll(offlineListPushItems, made.map((p) => ({ operatorId, listId, pointId: p.id, status: "FAIL", reason: "offline" })));
  const expiryDate = new Date(Date.now() + 3_600_000);
  await insertAll(
    reservations,
    Array.from({ length: ROWS }, (_, i) => ({ id: 2_000_000_000 + i, operatorId, pointId, connectorId: 1, idTag: `R${i}`, status: "reserved", expiryDate })),
  );
});

const lists: [string, () => string][] = [
  ["vehicles", () => "/customer-service/vehicle"],
  ["offline lists", () => "/customer-service/offline-list"],
  ["an offline list's deliveries", () => `/customer-service/offline-list/${listId}/items`],
  ["an offline list's points", () => `/customer-service/offline-list/${listId}/points`],
  ["reservations", () => `/station-service/reservation?pointId=${pointId}`],
];

describe("driver-services lists at page size 100 with more than 100 rows", () => {
  it.each(lists)("%s", async (_, path) => {
    const url = path();
    const page = (current: number) => call("GET", `${url}${url.includes("?") ? "&" : "?"}size=100&current=${current}`, { token: admin });
    const first = await page(1);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.total).toBeGreaterThan(100);
    expect(first.body.data.records).toHaveLength(100);
    const second = await page(2);
    expect(second.body.data.records).toHaveLength(Math.min(100, first.body.data.total - 100));
  });
});

describe("the owner and group pickers of the driver-services forms", () => {
  it("answer at most 50, and find by keyword the customer or group past the 50th", async () => {
    const db = createDb(env.DB);
    const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
    const tag = `Pick${Date.now().toString(36)}`;
    const n = (i: number) => String(i).padStart(2, "0");
    await insertAll(
      customers,
      Array.from({ length: 60 }, (_, i) => ({
        operatorId: operator.id,
        firstName: tag,
        lastName: `Driver${n(i)}`,
        gender: "FEMALE" as const,
        email: `${tag.toLowerCase()}.${i}@example.com`,
        country: "PL",
        zipCode: "00-001",
        evModel: "Kia EV6",
      })),
    );
    await insertAll(customerGroups, Array.from({ length: 60 }, (_, i) => ({ operatorId: operator.id, name: `${tag} group ${n(i)}`, code: `${tag}G${n(i)}`.toUpperCase().slice(-20) })));
    const pick = async (path: string, keyword: string) => {
      const res = await call("GET", `${path}?keyword=${encodeURIComponent(keyword)}`, { token: admin });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { name: string }[];
    };
    expect(await pick("/customer-service/vehicle/customers", tag)).toHaveLength(50);
    expect((await pick("/customer-service/vehicle/customers", `${tag} Driver59`)).map((c) => c.name)).toEqual([`${tag} Driver59`]);
    expect(await pick("/customer-service/offline-list/groups", tag)).toHaveLength(50);
    expect((await pick("/customer-service/offline-list/groups", `${tag} group 59`)).map((g) => g.name)).toEqual([`${tag} group 59`]);
  });
});
