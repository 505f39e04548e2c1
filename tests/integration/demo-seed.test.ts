import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { createDb } from "../../db/client";
import { seedDemo } from "../../db/seed";
import { hashChargerKey, keyBytesOf } from "../../workers/auth/charger-key";
import { hashPassword, verifyPassword } from "../../workers/auth/password";
import { call, tokenFor } from "./support/http";
import { snapshotOf } from "./support/snapshot";

/**
 * The demo platform `npm start` seeds, seeded the same way for the tests: once per run by
 * support/seeded-database.ts, then replayed into every file's database by support/setup.ts.
 */
const TABLES = ["operators", "accounts", "roles", "stations", "points", "connectors", "id_tags", "sub_operator_devices", "menus", "customers", "customer_groups", "rf_cards", "charge_strategies", "charge_strategy_versions", "ocpi_platforms"];

async function rowCounts() {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  return counts;
}

// First in the file: the tests below log in and seed again.
describe("the database every integration file starts from", () => {
  it("is the one migrated and seeded once per run, rows, AUTOINCREMENT counters and indexes alike", async () => {
    expect(await snapshotOf(env.DB)).toEqual(inject("seededDatabase"));
    const migrations = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(migrations.results.map((m) => m.name)).toEqual(
      Object.keys(import.meta.glob("../../db/migrations/*.sql")).map((path) => path.split("/").pop()).sort(),
    );
  });

  it("holds password hashes that verify with the pepper the Worker is given", async () => {
    const admin = await env.DB.prepare("SELECT password_hash AS hash FROM accounts WHERE username = 'demoadmin'").first<{ hash: string }>();
    expect(admin!.hash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(await verifyPassword("Demo12345", admin!.hash, env.PASSWORD_PEPPER)).toBe(true);
    expect(await verifyPassword("Demo12345", admin!.hash, "another pepper")).toBe(false);
  });
});

describe("the demo seed", () => {
  it("gives the demo sub-operator 0PL002A the points of 0PL002's first station, so subadmin1 sees devices at once", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    const points = await call<{ records: { serialNumber: string }[] }>("GET", "/station-service/sub-operator/point?size=100", { token: sub });
    expect(points.status).toBe(200);
    expect(points.body.data.records.map((p) => p.serialNumber).sort()).toEqual(["PL002-CP01", "PL002-CP02"]);
    const stations = await call<{ records: { name: string }[] }>("GET", "/station-service/sub-operator/station", { token: sub });
    expect(stations.body.data.records.map((s) => s.name)).toEqual(["Warszawa Centrum"]);
  });

  it("charges 0PL002's demo chargers by time of use and 0DE001's by a flat price", async () => {
    const strategyOf = async (operatorCode: string, username: string, serialNumber: string) => {
      const token = await tokenFor(operatorCode, username);
      const point = (await call("GET", `/station-service/point?serialNumber=${serialNumber}`, { token })).body.data.records[0];
      return (await call("GET", `/finance-service/strategy/${point.chargeStrategyId}`, { token })).body.data;
    };
    const [cp01, cp02, de] = await Promise.all([
      strategyOf("0PL002", "demoadmin", "PL002-CP01"),
      strategyOf("0PL002", "demoadmin", "PL002-CP02"),
      strategyOf("0DE001", "deadmin1", "DE001-CP01"),
    ]);
    expect(cp01.id).toBe(cp02.id);
    expect(cp01).toMatchObject({ currency: "PLN", pointCount: 2 });
    expect(cp01.electricity.slots.length).toBeGreaterThan(1);
    expect(de).toMatchObject({ currency: "EUR", electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.3900" }] }, service: { unit: "NONE" } });
  });

  it("gives the demo operator its OCPI identity and an unregistered demo platform", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const platforms = await call<{ records: { id: number; name: string; registerStatus: string }[] }>("GET", "/ocpi-service/platform?size=100", { token });
    const demo = platforms.body.data.records.find((p) => p.name === "Demo CPO (not registered)")!;
    expect(demo.registerStatus).toBe("Unregistered");
    const detail = await call<{ ourCountryCode: string; ourPartyId: string }>("GET", `/ocpi-service/platform/${demo.id}`, { token });
    expect(detail.body.data).toMatchObject({ ourCountryCode: "PL", ourPartyId: "PLD" });
  });

  it("gives Anna DEMO0001, a zero balance and the lead of NOWAKFAM, and Jan PLCARD0002, blocked DEMO0002 and expired DEMO0003", async () => {
    const cards = await env.DB.prepare(
      `SELECT r.id_tag AS idTag, r.status, r.bind_status AS bindStatus, c.email, o.code AS operator
         FROM rf_cards r JOIN customers c ON c.id = r.customer_id AND c.operator_id = r.operator_id JOIN operators o ON o.id = r.operator_id
        WHERE r.id_tag IN ('DEMO0001', 'PLCARD0002', 'DEMO0002', 'DEMO0003', 'DEDEMO01') ORDER BY r.id_tag`,
    ).all();
    expect(cards.results).toEqual([
      { idTag: "DEDEMO01", status: "VALID", bindStatus: "BIND", email: "lukas.schmidt@plugdesk.example", operator: "0DE001" },
      { idTag: "DEMO0001", status: "VALID", bindStatus: "BIND", email: "anna.nowak@plugdesk.example", operator: "0PL002" },
      { idTag: "DEMO0002", status: "BLOCKED", bindStatus: "BIND", email: "jan.kowalski@plugdesk.example", operator: "0PL002" },
      { idTag: "DEMO0003", status: "EXPIRED", bindStatus: "BIND", email: "jan.kowalski@plugdesk.example", operator: "0PL002" },
      { idTag: "PLCARD0002", status: "VALID", bindStatus: "BIND", email: "jan.kowalski@plugdesk.example", operator: "0PL002" },
    ]);
    const group = await env.DB.prepare(
      `SELECT g.name, l.email AS leader, l.balance, l.group_id = g.id AS leaderIsMember
         FROM customer_groups g JOIN customers l ON l.id = g.leader_id AND l.operator_id = g.operator_id JOIN operators o ON o.id = g.operator_id
        WHERE g.code = 'NOWAKFAM' AND o.code = '0PL002'`,
    ).all();
    expect(group.results).toEqual([{ name: "Nowak family", leader: "anna.nowak@plugdesk.example", balance: 0, leaderIsMember: 1 }]);
  });

  it("changes nothing when it runs again", async () => {
    const before = await rowCounts();
    await seedDemo(
      createDb(env.DB),
      (password) => hashPassword(password, env.PASSWORD_PEPPER),
      (key) => hashChargerKey(keyBytesOf(key)!, env.CHARGER_KEY_PEPPER),
    );
    expect(await rowCounts()).toEqual(before);
    expect(before.sub_operator_devices).toBe(2);
  });
});
