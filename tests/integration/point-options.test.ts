import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { operators, points, stations } from "../../db/schema";
import { insertAll } from "./support/bulk";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";

/**
 * GET /station-service/point/options: the serial-number picker's search (docs/rules/lists.md
 * "Pickers"), for every screen where a serial is chosen, within the caller's tenancy.
 */

const db = createDb(env.DB);
const ROWS = 130;
const tag = `PK${Date.now().toString(36).toUpperCase()}`;
let admin: string;
let stationId: number;

type Option = { id: number; serialNumber: string; name: string; stationName: string | null };
const options = async (query: string, token = admin) => {
  const res = await call<Option[]>("GET", `/station-service/point/options?${query}`, { token });
  return { status: res.status, rows: res.body.data, body: res.body };
};

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const [station] = await db.insert(stations).values({ operatorId: operator.id, name: `Picker station ${tag}`, status: "VALID" }).returning();
  stationId = station.id;
  await insertAll(
    points,
    Array.from({ length: ROWS }, (_, i) => ({
      operatorId: operator.id,
      stationId,
      serialNumber: `${tag}-${String(i).padStart(3, "0")}`,
      pointNo: String(i),
      name: `Picker point ${tag} ${i}`,
      type: "AC" as const,
      ratedPowerW: 22_000,
      connectorCount: 1,
      status: "VALID" as const,
    })),
  );
}, 30_000);

describe("the point options the serial-number picker searches", () => {
  it("answers at most `limit` points (20 unless told, up to 100) whose serial number starts with the keyword, in serial order", async () => {
    const page = await options(`keyword=${tag}&limit=100`);
    expect(page.status).toBe(200);
    expect(page.rows).toHaveLength(100);
    expect(page.rows.map((r) => r.serialNumber)).toEqual(Array.from({ length: 100 }, (_, i) => `${tag}-${String(i).padStart(3, "0")}`));
    expect(page.rows[0]).toEqual({ id: expect.any(Number), serialNumber: `${tag}-000`, name: `Picker point ${tag} 0`, stationName: `Picker station ${tag}` });
    expect((await options(`keyword=${tag}`)).rows).toHaveLength(20);
    expect((await options(`keyword=${tag.toLowerCase()}-12&limit=100`)).rows.map((r) => r.serialNumber)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${tag}-12${i}`),
    );
  });

  it("finds a point by its name, and by any part of its serial number after those that start with it", async () => {
    expect((await options(`keyword=${encodeURIComponent(`Picker point ${tag} 7`)}&limit=100`)).rows.map((r) => r.serialNumber)).toEqual([
      `${tag}-007`,
      ...Array.from({ length: 10 }, (_, i) => `${tag}-07${i}`),
    ]);
    const inside = await options(`keyword=${tag.slice(2)}-05&limit=100`);
    expect(inside.rows.map((r) => r.serialNumber)).toEqual(Array.from({ length: 10 }, (_, i) => `${tag}-05${i}`));
    // A serial that starts with the keyword comes before one that only contains it, though it sorts after it.
    const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
    await db.insert(points).values({ operatorId: operator.id, stationId, serialNumber: `A${tag}-000X`, pointNo: "x", name: "Containing", type: "AC", ratedPowerW: 7_000, connectorCount: 1 });
    expect((await options(`keyword=${tag}-000&limit=100`)).rows.map((r) => r.serialNumber)).toEqual([`${tag}-000`, `A${tag}-000X`]);
    expect((await options("keyword=%25%25&limit=100")).rows).toEqual([]);
  });

  it("searches by an index led by the operator for a keyword's start", async () => {
    const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT id FROM points WHERE operator_id = ? AND serial_number LIKE ? ESCAPE '\\'").bind(1, `${tag}%`).all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join("\n")).toContain("points_operator_serial_nocase_idx");
  });

  it("refuses a limit outside 1 to 100, and a keyword longer than 64 characters, with a message", async () => {
    for (const query of ["limit=101", "limit=0", "limit=x", `keyword=${"A".repeat(65)}`]) {
      const res = await options(query);
      expect(res.status, query).toBe(400);
      expect(res.body.msg, query).not.toBe("");
    }
  });

  it("shows another operator none of these points, and a sub-operator only its assigned ones", async () => {
    const deAdmin = await tokenFor("0DE001", "deadmin1");
    expect((await options(`keyword=${tag}&limit=100`, deAdmin)).rows).toEqual([]);
    const de = await makeCharger("0DE001");
    expect((await options(`keyword=${de.serialNumber}`)).rows).toEqual([]);
    expect((await options(`keyword=${de.serialNumber}`, deAdmin)).rows.map((r) => r.id)).toEqual([de.pointId]);

    const [subOperator] = await db.select().from(operators).where(eq(operators.code, "0PL002A"));
    const [assigned] = await db.select({ id: points.id }).from(points).where(eq(points.serialNumber, `${tag}-042`));
    const assign = await call("PUT", `/user-service/sub-operator/${subOperator.id}/devices`, { token: admin, body: { stationIds: [], pointIds: [assigned.id] } });
    expect(assign.status).toBe(200);
    const sub = await tokenFor("0PL002A", "subadmin1");
    expect((await options(`keyword=${tag}&limit=100`, sub)).rows.map((r) => r.serialNumber)).toEqual([`${tag}-042`]);
  });

  it("is open to the monitoring, alarm, maintenance and failure screens, and to no screen that chooses no serial", async () => {
    for (const menu of ["monitoring.alarmRecord", "monitoring.charging", "monitoring.chargingPile", "operation.maintain", "operation.operationFailure", "equipment.point"]) {
      const token = await tokenWithMenus(admin, [menu]);
      const res = await options(`keyword=${tag}-00&limit=5`, token);
      expect(res.status, menu).toBe(200);
      expect(res.rows, menu).toHaveLength(5);
    }
    const other = await tokenWithMenus(admin, ["users.vehicle"]);
    expect((await options(`keyword=${tag}`, other)).status).toBe(403);
  });
});
