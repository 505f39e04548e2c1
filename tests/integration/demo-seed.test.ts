import { env } from "cloudflare:test";
import type { AppLoadContext, LoaderFunctionArgs } from "react-router";
import { describe, expect, inject, it } from "vitest";
import { loadPublishedText } from "../../app/routes/content/content-text.server";
import { loadDeletePage } from "../../app/routes/maintenance/media.server";
import { createDb } from "../../db/client";
import { DEMO_CHARGER_KEY, DEMO_DRIVER_PAGES, DEMO_EQUIPMENT, seedDemo } from "../../db/seed";
import { DEMO_HISTORY, seedDemoHistory } from "../../workers/services/demo/history";
import { hashChargerKey, keyBytesOf } from "../../workers/auth/charger-key";
import { hashPassword, verifyPassword } from "../../workers/auth/password";
import { call, ORIGIN, tokenFor } from "./support/http";
import { snapshotOf } from "./support/snapshot";
import { TEST_PASSWORD_ITERATIONS } from "./support/peppers";

/**
 * The demo platform `npm start` seeds, seeded the same way for the tests: once per run by
 * support/seeded-database.ts, then replayed into every file's database by support/setup.ts.
 */
const TABLES = ["operators", "accounts", "roles", "stations", "points", "connectors", "id_tags", "sub_operator_devices", "menus", "customers", "customer_groups", "rf_cards", "charge_strategies", "charge_strategy_versions", "ocpi_platforms", "operator_domains", "content_texts"];

async function rowCounts() {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  return counts;
}

// First in the file: the tests below log in and seed again.
/**
 * Every file's payments and points start at ids of their own (tests/integration/support/setup.ts):
 * the restored database is compared with those two counters left out.
 */
const withoutOwnCounters = (statements: readonly string[]) =>
  statements.map((s) => (s.startsWith("INSERT INTO sqlite_sequence") ? s.replace(/\('(payments|points)', \d+\)(, )?/g, "").replace(/, $/, "") : s));

describe("the database every integration file starts from", () => {
  it("is the one migrated and seeded once per run, rows, AUTOINCREMENT counters and indexes alike", async () => {
    expect(withoutOwnCounters(await snapshotOf(env.DB))).toEqual(withoutOwnCounters(inject("seededDatabase")));
    const migrations = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(migrations.results.map((m) => m.name)).toEqual(
      Object.keys(import.meta.glob("../../db/migrations/*.sql")).map((path) => path.split("/").pop()).sort(),
    );
  });

  it("holds password hashes that verify with the pepper the Worker is given, at the tests' work factor", async () => {
    const admin = await env.DB.prepare("SELECT password_hash AS hash FROM accounts WHERE username = 'demoadmin'").first<{ hash: string }>();
    expect(admin!.hash).toMatch(new RegExp(`^pbkdf2-sha256\\$${TEST_PASSWORD_ITERATIONS}\\$`));
    expect(await verifyPassword("Demo12345", admin!.hash, env.PASSWORD_PEPPER)).toBe(true);
    expect(await verifyPassword("Demo12345", admin!.hash, "another pepper")).toBe(false);
  });
});

describe("the demo seed", () => {
  it("gives the demo sub-operator 0PL002A the points of 0PL002's first station, so subadmin1 sees devices at once", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    const points = await call<{ records: { serialNumber: string }[] }>("GET", "/station-service/sub-operator/point?size=100", { token: sub });
    expect(points.status).toBe(200);
    expect(points.body.data.records.map((p) => p.serialNumber).sort()).toEqual(["PL002-CP01", "PL002-CP02", "PL002-CP03"]);
    const stations = await call<{ records: { name: string }[] }>("GET", "/station-service/sub-operator/station", { token: sub });
    expect(stations.body.data.records.map((s) => s.name)).toEqual(["Warszawa Centrum"]);
  });

  it("charges 0PL002's demo chargers by time of use and 0DE001's by a flat price", async () => {
    const strategyOf = async (operatorCode: string, username: string, serialNumber: string) => {
      const token = await tokenFor(operatorCode, username);
      const point = (await call("GET", `/station-service/point?serialNumber=${serialNumber}`, { token })).body.data.records[0];
      return (await call("GET", `/finance-service/strategy/${point.chargeStrategyId}`, { token })).body.data;
    };
    const [cp01, cp02, cp03, de] = await Promise.all([
      strategyOf("0PL002", "demoadmin", "PL002-CP01"),
      strategyOf("0PL002", "demoadmin", "PL002-CP02"),
      strategyOf("0PL002", "demoadmin", "PL002-CP03"),
      strategyOf("0DE001", "deadmin1", "DE001-CP01"),
    ]);
    expect(cp01.id).toBe(cp02.id);
    expect(cp03.id).toBe(cp01.id);
    expect(cp01).toMatchObject({ currency: "PLN", pointCount: 3 });
    expect(cp01.electricity.slots.length).toBeGreaterThan(1);
    expect(de).toMatchObject({ currency: "EUR", electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.3900" }] }, service: { unit: "NONE" } });
  });

  it("seeds PL002-CP03 as an OCPP 2.0.1 charger with two 75 kW CCS2 connectors on Warszawa Centrum, enabled, with the demo key", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const list = await call("GET", "/station-service/point?serialNumber=PL002-CP03", { token });
    expect(list.body.data.records).toEqual([
      expect.objectContaining({
        serialNumber: "PL002-CP03",
        stationName: "Warszawa Centrum",
        type: "DC",
        ratedPower: 150,
        connectorCount: 2,
        status: "VALID",
        ocppVersion: "OCPP201",
        connectedVersion: null,
        hasKey: true,
        connectors: [
          expect.objectContaining({ connectorId: 1, standard: "IEC1", power: 75, chargeSpeed: "QUICK" }),
          expect.objectContaining({ connectorId: 2, standard: "IEC1", power: 75, chargeSpeed: "QUICK" }),
        ],
      }),
    ]);
    const key = await env.DB.prepare("SELECT key_hash AS hash FROM points WHERE serial_number = 'PL002-CP03'").first<{ hash: string }>();
    expect(key!.hash).toBe(hashChargerKey(keyBytesOf(DEMO_CHARGER_KEY)!, env.CHARGER_KEY_PEPPER));
    expect(DEMO_EQUIPMENT.flatMap((d) => d.points).find((p) => p.serialNumber === "PL002-CP03")).toMatchObject({ ocppVersion: "OCPP201" });
  });

  it("gives the demo operator its OCPI identity and an unregistered demo platform", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const platforms = await call<{ records: { id: number; name: string; registerStatus: string }[] }>("GET", "/ocpi-service/platform?size=100", { token });
    const demo = platforms.body.data.records.find((p) => p.name === "Demo CPO (not registered)")!;
    expect(demo.registerStatus).toBe("Unregistered");
    const detail = await call<{ ourCountryCode: string; ourPartyId: string }>("GET", `/ocpi-service/platform/${demo.id}`, { token });
    expect(detail.body.data).toMatchObject({ ourCountryCode: "PL", ourPartyId: "PLD" });
  });

  it("publishes the demo operators' disclaimer and privacy policy, opened from the operator's own domain or from ?operatorCode=", async () => {
    const context = { cloudflare: { env, ctx: {}, nonce: "" } } as unknown as AppLoadContext;
    const page = async (url: string, kind: "DISCLAIMER" | "PRIVACY_POLICY") => {
      const answer = (await loadPublishedText({ request: new Request(url), context, params: {} } as LoaderFunctionArgs, kind)) as unknown as { data: { text: { operatorCode: string; lang: string; content: string | null } | null } };
      return answer.data.text;
    };
    const [polska, deutschland] = DEMO_DRIVER_PAGES;
    expect(await page(`http://${polska.domain}:8787/disclaimer/mobile`, "DISCLAIMER")).toMatchObject({ operatorCode: "0PL002", lang: "en", content: polska.texts.DISCLAIMER.en });
    expect(await page(`http://${polska.domain}/privacy/mobile?lang=pl`, "PRIVACY_POLICY")).toMatchObject({ operatorCode: "0PL002", content: polska.texts.PRIVACY_POLICY.pl });
    expect(await page(`${ORIGIN}/privacy/mobile?operatorCode=0DE001&lang=de`, "PRIVACY_POLICY")).toMatchObject({ operatorCode: "0DE001", content: deutschland.texts.PRIVACY_POLICY.de });
    expect(await page(`${ORIGIN}/disclaimer/mobile?operatorCode=0PL002&lang=pl`, "DISCLAIMER")).toMatchObject({ content: polska.texts.DISCLAIMER.pl });
  });

  it("opens the account deletion page for the operator of its domain or its link, and names none to choose by name otherwise", async () => {
    const context = { cloudflare: { env, ctx: {}, nonce: "" } } as unknown as AppLoadContext;
    const operatorOf = async (url: string) => (await loadDeletePage({ request: new Request(url), context, params: {} } as LoaderFunctionArgs)).operator;
    expect(await operatorOf(`http://${DEMO_DRIVER_PAGES[0].domain}:8787/app/delete/account`)).toEqual({ code: "0PL002", name: "Plugdesk Polska" });
    expect(await operatorOf(`http://${DEMO_DRIVER_PAGES[1].domain}/app/delete/account?operatorCode=0PL002`)).toEqual({ code: "0DE001", name: "Plugdesk Deutschland" });
    expect(await operatorOf(`${ORIGIN}/app/delete/account?operatorCode=0DE001`)).toEqual({ code: "0DE001", name: "Plugdesk Deutschland" });
    expect(await operatorOf(`${ORIGIN}/app/delete/account`)).toBeNull();
    expect(await operatorOf(`${ORIGIN}/app/delete/account?operatorCode=PLATFORM`)).toBeNull();
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
    expect(before.sub_operator_devices).toBe(3);
  });
});

/** The history's rows, as the demo operator's screens read them. */
const HISTORY_TABLES = ["transactions", "charge_records", "bills", "recharges", "daily_charge_totals", "alarms", "work_orders", "work_order_history", "firmwares", "firmware_rollouts", "reservations", "ocpi_platforms", "ocpi_sessions", "ocpi_cdrs", "ocpi_locations", "customers", "rf_cards", "payments"];

async function historyCounts() {
  const counts: Record<string, number> = {};
  for (const table of HISTORY_TABLES) counts[table] = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  return counts;
}

const DAY = 86_400_000;

/** Rows of 0PL002 answering `query`, whose `?1` is the operator's id. */
async function ofDemo<T>(query: string) {
  const { id } = (await env.DB.prepare("SELECT id FROM operators WHERE code = '0PL002'").first<{ id: number }>())!;
  return (await env.DB.prepare(query).bind(id).all<T>()).results;
}

// Last in the file: it adds the month the demo operator's screens show after `npm start`.
describe("the demo's month of history", () => {
  const now = Date.now();

  it("writes 150 to 250 priced sessions over the 30 days before today at daytime hours, billed and paid from the wallets", async () => {
    await seedDemoHistory(env, now);
    const records = await ofDemo<{ startAt: number; status: string; phase: string | null; total: number | null; unplugAt: number | null; reason: string | null; hour: number }>(
      `SELECT start_at AS startAt, status, pricing_phase AS phase, total_cost AS total, unplug_at AS unplugAt, unsettled_reason AS reason,
              CAST(strftime('%H', start_at / 1000, 'unixepoch', '+2 hours') AS INTEGER) AS hour
         FROM charge_records WHERE operator_id = ?1 AND source = 'OCPP'`,
    );
    expect(records.length).toBeGreaterThanOrEqual(150);
    expect(records.length).toBeLessThanOrEqual(250);
    expect(records.every((r) => r.startAt >= now - 31 * DAY && r.startAt < now)).toBe(true);
    // Warsaw is UTC+1 or +2: a start between 06:00 and 23:00 local time is between 04 and 23 UTC+2.
    expect(records.every((r) => r.hour >= 5 && r.hour <= 23)).toBe(true);
    const days = new Set(records.map((r) => new Date(r.startAt).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(28);
    expect(records.every((r) => r.phase === "FINAL" && r.total !== null && r.total > 0 && r.unplugAt !== null)).toBe(true);
    const inState = (status: string) => records.filter((r) => r.status === status);
    expect([...new Set(records.map((r) => r.status))].sort()).toEqual(["PAY_FAIL", "RECORD_COMPLETE", "RECORD_UNSETTLED"]);
    expect(inState("PAY_FAIL")).toHaveLength(1);
    expect(inState("RECORD_UNSETTLED").every((r) => r.reason === "NO_PAYER")).toBe(true);
    expect(inState("RECORD_COMPLETE").length).toBeGreaterThanOrEqual(100);

    const bills = await ofDemo<{ type: string; status: string; n: number }>("SELECT type, status, COUNT(*) AS n FROM bills WHERE operator_id = ?1 GROUP BY type, status ORDER BY type, status");
    const paid = bills.find((b) => b.type === "Charging" && b.status === "PaySuccess")!.n;
    expect(paid).toBeGreaterThanOrEqual(100);
    const [{ n: recharges }] = await ofDemo<{ n: number }>("SELECT COUNT(*) AS n FROM recharges WHERE operator_id = ?1 AND amount > 0");
    expect(recharges).toBeGreaterThanOrEqual(12);
    expect(bills.find((b) => b.type === "Recharge")!.n).toBe(recharges);
  });

  it("keeps every wallet equal to its top-ups less its paid bills, and every bill's balance trail in order", async () => {
    const wallets = await ofDemo<{ balance: number; toppedUp: number; debited: number }>(
      `SELECT c.balance,
              (SELECT COALESCE(SUM(amount), 0) FROM recharges r WHERE r.customer_id = c.id) AS toppedUp,
              (SELECT COALESCE(SUM(cost), 0) FROM bills b WHERE b.customer_id = c.id AND b.type = 'Charging' AND b.status = 'PaySuccess') AS debited
         FROM customers c JOIN rf_cards k ON k.customer_id = c.id WHERE c.operator_id = ?1 AND k.id_tag LIKE 'PLH%'`,
    );
    expect(wallets).toHaveLength(DEMO_HISTORY.drivers.length);
    for (const w of wallets) expect(w.balance).toBe(w.toppedUp - w.debited);
    const trail = await ofDemo<{ customerId: number; before: number; after: number; cost: number; type: string; status: string }>(
      `SELECT customer_id AS customerId, balance_before AS before, balance_after AS after, cost, type, status FROM bills
        WHERE operator_id = ?1 AND customer_id IN (SELECT customer_id FROM rf_cards WHERE id_tag LIKE 'PLH%') ORDER BY id`,
    );
    const last = new Map<number, number>();
    for (const b of trail) {
      expect(b.before).toBe(last.get(b.customerId) ?? 0);
      expect(b.after).toBe(b.status === "PaySuccess" ? b.before + (b.type === "Recharge" ? b.cost : -b.cost) : b.before);
      last.set(b.customerId, b.after);
    }
  });

  it("gives the dashboard and the statements a month of daily totals that add up to the records", async () => {
    const totals = await ofDemo<{ days: number; sessions: number; revenue: number; records: number }>(
      "SELECT COUNT(DISTINCT day) AS days, SUM(sessions) AS sessions, SUM(revenue) AS revenue, SUM(records) AS records FROM daily_charge_totals WHERE operator_id = ?1",
    );
    const [records] = await ofDemo<{ n: number; revenue: number; total: number }>(
      "SELECT COUNT(*) FILTER (WHERE source = 'OCPP') AS n, SUM(total_cost) FILTER (WHERE source = 'OCPP') AS revenue, COUNT(*) AS total FROM charge_records WHERE operator_id = ?1",
    );
    // Sessions and revenue are our chargers' (docs/decisions/0027); the record count holds the roaming records too.
    expect({ sessions: totals[0].sessions, revenue: totals[0].revenue, records: totals[0].records }).toEqual({ sessions: records.n, revenue: records.revenue, records: records.total });
    expect(totals[0].days).toBeGreaterThanOrEqual(28);
    const token = await tokenFor("0PL002", "demoadmin");
    const dashboard = (await call<{ month: { sessions: number }; energyByDay: unknown[] }>("GET", "/station-service/dashboard/home", { token })).body.data;
    expect(dashboard.energyByDay.length).toBeGreaterThanOrEqual(28);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const statement = await call<{ totals: { sessions: number; totalCost: number } }>("GET", `/finance-service/statement?from=${day(now - 32 * DAY)}&to=${day(now)}&groupBy=day`, { token });
    expect(statement.status).toBe(200);
    expect(statement.body.data.totals.sessions).toBe(records.n);
  });

  it("adds alarms with work orders in each state, a finished firmware rollout, a used reservation and a roaming partner's billed CDRs", async () => {
    const alarms = await ofDemo<{ status: string; orderStatus: string | null }>(
      "SELECT a.status, w.status AS orderStatus FROM alarms a LEFT JOIN work_orders w ON w.alarm_id = a.id WHERE a.operator_id = ?1",
    );
    expect(alarms.length).toBeGreaterThanOrEqual(4);
    expect(alarms.some((a) => a.status === "Undisposed")).toBe(false);
    expect(new Set(alarms.map((a) => a.orderStatus).filter(Boolean))).toEqual(new Set(["ALREADY", "PASS", "CLOSE"]));
    const rollout = await ofDemo<{ status: string; delivery: string }>(
      "SELECT r.status, r.delivery FROM firmware_rollouts r JOIN firmwares f ON f.id = r.firmware_id WHERE r.operator_id = ?1 AND f.version = '1.0.8'",
    );
    expect(rollout).toEqual([1, 2, 3].map(() => ({ status: "Installed", delivery: "Sent" })));
    const reservations = await ofDemo<{ endReason: string; used: number }>(
      "SELECT end_reason AS endReason, (SELECT COUNT(*) FROM transactions t WHERE t.id = r.transaction_id AND t.reservation_id = r.id) AS used FROM reservations r WHERE operator_id = ?1 AND end_reason = 'used'",
    );
    expect(reservations).toEqual([{ endReason: "used", used: 1 }]);
    const cdrs = await ofDemo<{ billingStatus: string; record: string }>(
      "SELECT c.billing_status AS billingStatus, r.status AS record FROM ocpi_cdrs c JOIN charge_records r ON r.transaction_id = c.charge_record_id WHERE c.operator_id = ?1",
    );
    expect(cdrs).toHaveLength(DEMO_HISTORY.partner.sessions.length);
    expect(cdrs.every((c) => c.billingStatus === "BILLED" && c.record === "RECORD_COMPLETE")).toBe(true);
    const sessions = await ofDemo<{ status: string; cdrId: string | null }>("SELECT status, cdr_id AS cdrId FROM ocpi_sessions WHERE operator_id = ?1");
    expect(sessions.every((s) => s.status === "COMPLETED" && s.cdrId !== null)).toBe(true);
    const [partner] = await ofDemo<{ status: string }>(`SELECT register_status AS status FROM ocpi_platforms WHERE operator_id = ?1 AND name = '${DEMO_HISTORY.partner.name}'`);
    expect(partner.status).toBe("Registered");
  });

  it("leaves nothing in flight: no session running or awaiting its price, no reservation held, no card payment, every connector Available or not yet reported", async () => {
    const open = await ofDemo<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM transactions WHERE operator_id = ?1 AND (status <> 'COMPLETED' OR billed_at IS NULL))
            + (SELECT COUNT(*) FROM charge_records WHERE operator_id = ?1 AND (status IN ('CHARGING', 'CHARGE_COMPLETE') OR pricing_phase = 'PROVISIONAL' OR unplug_at > ${now}))
            + (SELECT COUNT(*) FROM reservations WHERE operator_id = ?1 AND status IN ('reserved', 'canceling'))
            + (SELECT COUNT(*) FROM payments WHERE operator_id = ?1)
            + (SELECT COUNT(*) FROM connectors WHERE operator_id = ?1 AND ((status IS NOT NULL AND status <> 'Available') OR status_at > ${now})) AS n`,
    );
    expect(open[0].n).toBe(0);
  });

  it("adds nothing when it runs again", async () => {
    const before = await historyCounts();
    await seedDemoHistory(env, now + DAY);
    expect(await historyCounts()).toEqual(before);
  });
});
