import { readFileSync } from "node:fs";
import { Api } from "../sim/register";
import type { BenchPoint } from "../../tests/bench/fleet";
import { loadWs } from "../../tests/peers/ws";
import { ChaosCharger, type ChaosStatus } from "./chargers";
import { checkMoney, type ChaosWallet } from "./money";
import type { ChaosRow } from "./report";
import type { Product } from "./product";

/**
 * The faults `npm run chaos` injects into the running product (docs/testing.md "Chaos"). Each
 * answers its row of the table: what it checked, how many sessions, the money the sessions moved,
 * and what was lost or doubled, each counted from what the product kept (D1 through the local
 * database, the charger's own samples through the API) against what the chargers sent.
 */

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wsOf = (origin: string) => `${origin.replace(/^http/, "ws")}/ocpp`;

/** Runs `work` over `items`, `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Polls `check` until it answers true or `ms` passed; answers its last answer. */
async function settles(check: () => Promise<boolean>, ms: number, everyMs = 1000): Promise<boolean> {
  for (const deadline = Date.now() + ms; ; ) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await pause(everyMs);
  }
}

type Rows = Record<string, unknown>[];
/** A read-only query on the product's D1 (the local database file, beside the running server). */
export type Query = (sql: string, ...params: unknown[]) => Promise<Rows>;

/** What a line of the server's log says of D1 failing (docs/architecture.md "Errors": one JSON line per error). */
export function d1ErrorsIn(log: string): string[] {
  return log.split("\n").filter((line) => line.includes('"level":"error"') && /D1|SQLITE|database/i.test(line));
}

// ── 1. the runtime dies mid-session ─────────────────────────────────────────────────────────

/**
 * Chargers of both versions in transactions, readings flowing; half of them stop just before
 * the kill (their stop in flight), then the server's whole process group is killed (SIGKILL)
 * and the other half stop while it is gone (their stop queued, 2.0.1 with `offline: true`). The
 * product restarts on the same state; the chargers reconnect and send what they queued, and every
 * other charger sends its stop once more (an answer lost). Then: each transaction ended once with
 * the charger's meter stop, billed once (one charge record, no bill twice) for what the pricing
 * engine gives for its readings, debited once from the driver's wallet (scripts/chaos/money.ts),
 * every reading the server answered is in the charger's samples, and nothing is left unanswered.
 */
export async function runtimeDies(product: Product, fleet: BenchPoint[][], wallet: ChaosWallet, query: () => Promise<Query>): Promise<ChaosRow> {
  const chargers = fleet
    .flatMap((points, v) => points.map((p) => ({ p, version: v === 0 ? ("1.6" as const) : ("2.0.1" as const) })))
    .map(({ p, version }, i) => new ChaosCharger(version, p.serial, p.key, () => wsOf(product.origin), wallet.idTags[i]));
  await inLanes(chargers, 20, async (c) => {
    await c.connect();
    if ((await c.boot()) !== "Accepted") c.failures.push(`${c.serial}: boot ${c.bootStatus}`);
    await c.status(1, "Available");
    await c.start();
  });
  // Readings every 300 ms per charger: some are in flight whenever the process dies.
  let metering = true;
  const meterLoop = Promise.all(
    chargers.map(async (c) => {
      while (metering) {
        void c.reading();
        await pause(300);
      }
    }),
  );
  await pause(3000);
  const early = chargers.filter((_, i) => i % 2 === 0);
  for (const c of early) void c.stop();
  await product.kill();
  // The chargers carry on without a server: readings and stops go to their queues.
  await pause(1000);
  metering = false;
  await meterLoop;
  for (const c of chargers) void c.stop();
  await product.restart();
  await Promise.all(chargers.map((c) => c.untilOnline()));
  await Promise.all(chargers.map((c) => c.queue.drain()));
  for (const [i, c] of chargers.entries()) if (i % 2 === 1) await c.repeatStop();
  await Promise.all(chargers.map((c) => c.queue.drain()));

  const q = await query();
  const api = await Api.login(product.origin);
  const serials = chargers.map((c) => c.serial);
  const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");
  const txRows = async () =>
    q(
      `SELECT t.id, t.charger_transaction_id AS chargerTx, t.status, t.meter_start_wh AS meterStart, t.meter_stop_wh AS meterStop, t.billed_at AS billedAt, p.serial_number AS serial
         FROM transactions t JOIN points p ON p.id = t.point_id WHERE p.serial_number IN (${marks(serials.length)})`,
      ...serials,
    );
  // Billing runs from the queue after each stop: wait until every transaction is billed, or a minute.
  await settles(async () => (await txRows()).every((t) => t.billedAt !== null && t.status !== "ACTIVE"), 60_000);
  const rows = await txRows();
  let lost = 0;
  let doubled = 0;
  const problems: string[] = [];
  const note = (kind: "lost" | "doubled", text: string) => {
    if (kind === "lost") lost++;
    else doubled++;
    problems.push(`${kind}: ${text}`);
  };
  const sessions: { charger: ChaosCharger; transactionId: number }[] = [];
  for (const c of chargers) {
    const tx = c.transaction!;
    const mine = rows.filter((r) => r.serial === c.serial);
    if (mine.length > 1) note("doubled", `${c.serial} has ${mine.length} transactions for one session`);
    const row = mine.find((r) => (c.version === "1.6" ? String(r.id) === tx.id : r.chargerTx === tx.id));
    if (!row) {
      note("lost", `${c.serial}: transaction ${tx.id} not in D1`);
      continue;
    }
    sessions.push({ charger: c, transactionId: row.id as number });
    if (row.status !== "COMPLETED") note("lost", `${c.serial}: transaction ${row.id} is ${row.status}, its stop was sent`);
    else if (row.meterStop !== tx.meterStopWh) note("lost", `${c.serial}: meter stop ${row.meterStop}, the charger's was ${tx.meterStopWh}`);
    if (row.billedAt === null) note("lost", `${c.serial}: transaction ${row.id} never billed`);
    if (c.queue.waiting.length > 0) note("lost", `${c.serial}: ${c.queue.waiting.length} messages never answered (${c.queue.waiting.map((m) => m.action).join(", ")})`);
    const detail = await api.get<{ curve: { at: string; energyWh?: number }[] }>(`/station-service/monitoring/charging/${row.id}`);
    const curve = new Map(detail.curve.map((p) => [Date.parse(p.at), p.energyWh]));
    for (const r of tx.readings.filter((r) => r.answered)) {
      if (curve.get(Date.parse(r.at)) !== r.registerWh - tx.meterStartWh) note("lost", `${c.serial}: the reading of ${r.at} was answered but is not among the samples`);
    }
  }
  const ids = rows.map((r) => r.id as number);
  const records = ids.length ? await q(`SELECT transaction_id AS id, total_cost AS total FROM charge_records WHERE transaction_id IN (${marks(ids.length)})`, ...ids) : [];
  const bills = ids.length ? await q(`SELECT transaction_id AS id, phase, type, applied, cost FROM bills WHERE transaction_id IN (${marks(ids.length)})`, ...ids) : [];
  for (const id of ids) {
    const n = records.filter((r) => r.id === id).length;
    if (n === 0) note("lost", `transaction ${id} has no charge record`);
    if (n > 1) note("doubled", `transaction ${id} has ${n} charge records`);
  }
  const perPhase = new Map<string, number>();
  for (const bill of bills) {
    const which = `transaction ${bill.id} in phase ${bill.phase}`;
    perPhase.set(which, (perPhase.get(which) ?? 0) + 1);
  }
  for (const [which, n] of perPhase) if (n > 1) note("doubled", `${which}: ${n} bills`);
  const [{ balance }] = await q("SELECT balance FROM customers WHERE id = ?", wallet.customerId);
  const money = checkMoney(wallet, sessions, records, bills, balance as number);
  for (const text of money.lost) note("lost", text);
  for (const text of money.doubled) note("doubled", text);
  const failures = chargers.flatMap((c) => c.failures);
  for (const f of failures) problems.push(`charger: ${f}`);
  await Promise.all(chargers.map((c) => c.close()));
  return {
    fault: "runtime killed mid-session",
    checked: "each session ended once, billed and debited once at the engine's price, no answered reading lost (1.6 + 2.0.1, SIGKILL, restart)",
    sessions: chargers.length,
    money: money.moved,
    lost,
    doubled,
    problems,
    failed: failures.length > 0,
  };
}

// ── 2. a reconnect storm ────────────────────────────────────────────────────────────────────

const STORM_STATES: ChaosStatus[] = ["Available", "Unavailable", "Faulted"];

/**
 * What the console's live screens show of each connector as a page opened now sees it: the
 * snapshot the operator's hub sends a new `/live` socket first (workers/live/tenant-hub.ts),
 * keyed `serial connector`.
 */
async function liveStatuses(origin: string, token: string): Promise<Map<string, string>> {
  const ws = await loadWs();
  if (!ws) throw new Error("the ws package cannot be imported");
  const socket = new ws.WebSocket(`${origin.replace(/^http/, "ws")}/live`, [], { headers: { Authorization: `Bearer ${token}` } });
  try {
    const snapshot = await new Promise<{ type: string; serialNumber?: string; connectorId?: number; status?: string }[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no live snapshot within 30 s")), 30_000);
      socket.on("message", (data) => {
        const message = JSON.parse(data.toString("utf8")) as { type: string; events?: [] };
        if (message.type !== "snapshot") return;
        clearTimeout(timer);
        resolve(message.events ?? []);
      });
      socket.on("error", reject);
    });
    return new Map(snapshot.filter((e) => e.type === "connector").map((e) => [`${e.serialNumber} ${e.connectorId}`, e.status!]));
  } finally {
    socket.close();
  }
}

/**
 * The fleet connects and boots, then every charger drops at once and all reconnect within
 * seconds, each booting and sending two statuses per connector (a change, then its last word).
 * Every boot must be Accepted, each connector's status in D1 must end as the last one sent, no
 * D1 batch may fail (the server's log), and the operator's live view must show the same: a
 * connector it shows otherwise, or not at all, is lost.
 */
export async function reconnectStorm(product: Product, fleet: BenchPoint[][]): Promise<ChaosRow> {
  const origin = await product.chargerOrigin();
  const chargers = fleet.flatMap((points, v) => points.map((p) => new ChaosCharger(v === 0 ? "1.6" : "2.0.1", p.serial, p.key, () => wsOf(origin))));
  const logBefore = readFileSync(product.log, "utf8").length;
  const problems: string[] = [];
  let lost = 0;
  const connectors = [1, 2];
  await inLanes(chargers, 50, async (c) => {
    await c.connect();
    await c.boot();
    for (const n of connectors) await c.status(n, "Available");
  });
  await Promise.all(chargers.map((c) => c.drop()));
  const last = new Map<string, ChaosStatus[]>();
  await Promise.all(
    chargers.map(async (c, i) => {
      try {
        await c.connect();
        if ((await c.boot()) !== "Accepted") {
          lost++;
          problems.push(`lost: ${c.serial} boot ${c.bootStatus}`);
          return;
        }
        const final = connectors.map((n) => STORM_STATES[(i + n) % STORM_STATES.length]);
        for (const [k, n] of connectors.entries()) {
          await c.status(n, final[k] === "Available" ? "Unavailable" : "Available");
          await c.status(n, final[k]);
        }
        last.set(c.serial, final);
      } catch (error) {
        lost++;
        problems.push(`lost: ${c.serial} ${(error as Error).message}`);
      }
    }),
  );
  // Statuses as the console reads them from D1 (the point list, 100 a page).
  const api = await Api.login(product.origin);
  const stale = async () => {
    const shown: { serial: string; n: number; status: string | null }[] = [];
    for (const prefix of ["BENCH-", "BENCH201-"]) {
      for (let page = 1; ; page++) {
        const { records, total } = await api.findPoints(prefix, 100, page);
        for (const p of records) for (const c of p.connectors) shown.push({ serial: p.serialNumber, n: c.connectorId, status: c.status });
        if (page * 100 >= total) break;
      }
    }
    return shown.filter((r) => {
      const final = last.get(r.serial);
      return final !== undefined && r.status !== final[r.n - 1];
    });
  };
  // Changes reach D1 about a second after the answer (docs/rules/ocpp.md "Hot path"); a charger's
  // alarm sends again what a lost batch left, so give them a few of its rounds before calling it lost.
  const landedAt = Date.now();
  const settled = await settles(async () => (await stale()).length === 0, 150_000, 5000);
  if (settled) console.log(`chaos: storm statuses in D1 after ${Math.round((Date.now() - landedAt) / 1000)} s`);
  for (const r of await stale()) {
    lost++;
    problems.push(`lost: ${r.serial} connector ${r.n} is ${r.status} in D1, its last status was ${last.get(r.serial)![r.n - 1]}`);
  }
  // The live view as a console page opened now would show it; the hub hears of a status in the
  // charger's next push after the answer (docs/rules/monitoring.md "Live values").
  const liveStale = async () => {
    const shown = await liveStatuses(product.origin, api.accessToken);
    return [...last].flatMap(([serial, final]) =>
      connectors.filter((n) => shown.get(`${serial} ${n}`) !== final[n - 1]).map((n) => ({ serial, n, status: shown.get(`${serial} ${n}`) ?? "missing", final: final[n - 1] })),
    );
  };
  await settles(async () => (await liveStale()).length === 0, 60_000, 2000);
  for (const r of await liveStale()) {
    lost++;
    problems.push(`lost: ${r.serial} connector ${r.n} is ${r.status} in the live view, its last status was ${r.final}`);
  }
  const printed = readFileSync(product.log, "utf8").slice(logBefore);
  const d1Errors = d1ErrorsIn(printed);
  for (const line of d1Errors) problems.push(`D1: ${line.slice(0, 300)}`);
  for (const line of printed.split("\n").filter((l) => l.includes('"level":"error"') && !d1Errors.includes(l)).slice(0, 20)) problems.push(`server: ${line.slice(0, 300)}`);
  const failures = chargers.flatMap((c) => c.failures);
  for (const f of failures) problems.push(`charger: ${f}`);
  await Promise.all(chargers.map((c) => c.close()));
  return {
    fault: "reconnect storm",
    checked: `${chargers.length} chargers drop and reconnect: all Accepted, D1 and live statuses = last sent, no D1 error`,
    sessions: 0,
    money: 0,
    lost,
    doubled: 0,
    problems,
    failed: d1Errors.length > 0 || failures.length > 0,
  };
}
