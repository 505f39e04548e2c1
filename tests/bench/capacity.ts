/**
 * `npm run bench:capacity`: what the platform costs in storage (docs/performance.md "Capacity";
 * docs/decisions/0084-past-one-d1-database.md). It migrates and seeds its own local state
 * (`.wrangler/bench-capacity-state`), gives the demo operator `0PL002` a fleet of chargers and a
 * simulated month of their sessions through the real schema (transactions, charge records, final
 * bills, daily totals and operation-log rows, written as billing and the console leave them), and
 * measures the database file after each table's rows land: local D1 answers neither `dbstat` nor
 * `PRAGMA page_count`, so each figure is the growth of the SQLite file itself, indexes included.
 * A charger's own storage (its Durable Object's SQLite, workers/ocpp/store.ts `SCHEMA`) is measured
 * the same way with a month of one charger's frames and MeterValues in a scratch database.
 * It prints figures and extrapolations only; everything it starts, it stops.
 *
 *   npm run bench:capacity                      5 000 chargers, 30 days, 4 sessions a charger a day
 *   npm run bench:capacity -- --chargers 500    a smaller fleet (quicker)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { SCHEMA as CHARGER_SCHEMA, meterRange } from "../../workers/ocpp/store";

const STATE = ".wrangler/bench-capacity-state";
process.env.PLUGDESK_STATE = STATE;
const { migrate, seed, withLocalD1 } = await import("../../scripts/local-state");

const { values: args } = parseArgs({
  options: {
    chargers: { type: "string", default: "5000" },
    days: { type: "string", default: "30" },
    "sessions-per-day": { type: "string", default: "4" },
    "log-rows-per-charger-day": { type: "string", default: "1" },
  },
});
const CHARGERS = Number(args.chargers);
const DAYS = Number(args.days);
const PER_DAY = Number(args["sessions-per-day"]);
/** Operation-log rows an operator writes per charger and day: console edits, commands and the system's own rows. An assumption, stated in the output. */
const LOG_ROWS_PER_CHARGER_DAY = Number(args["log-rows-per-charger-day"]);
const SESSIONS = CHARGERS * DAYS * PER_DAY;
/** Rows per seeding statement (one recursive CTE each). */
const CHUNK = 50_000;
const DAY_MS = 86_400_000;
const GB = 1e9;
const D1_LIMIT = 10 * GB;

/**
 * The bytes of the pages a SQLite database uses (page count less free pages, times the page
 * size), read from its file and its write-ahead log: local D1 answers neither `dbstat` nor
 * `PRAGMA page_count`, and workerd leaves committed pages in the log when it closes. The log's
 * last committed frame gives the page count, its latest committed copy of page 1 the free pages.
 */
function usedBytes(file: string): number {
  const main = readFileSync(file);
  const wal = existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0);
  let pageSize = main.length >= 100 ? main.readUInt16BE(16) : wal.length >= 32 ? wal.readUInt32BE(8) : 4096;
  if (pageSize === 1) pageSize = 65536;
  let pages = main.length >= 100 ? main.readUInt32BE(28) : 0;
  let page1: Buffer | undefined = main.length >= 100 ? main.subarray(0, pageSize) : undefined;
  if (wal.length >= 32) {
    const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
    const frame = 24 + wal.readUInt32BE(8);
    let pending: Buffer | undefined;
    for (let at = 32; at + frame <= wal.length; at += frame) {
      if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
      if (wal.readUInt32BE(at) === 1) pending = wal.subarray(at + 24, at + frame);
      const committedPages = wal.readUInt32BE(at + 4);
      if (committedPages > 0) {
        pages = committedPages;
        if (pending) page1 = pending;
        pending = undefined;
      }
    }
  }
  const free = page1 ? page1.readUInt32BE(36) : 0;
  return (pages - free) * pageSize;
}

/** The pages in use of the one database kept under a local state's D1 folder (not miniflare's metadata). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".sqlite") && entry.name !== "metadata.sqlite") total += usedBytes(join(entry.parentPath, entry.name));
  }
  return total;
}
const d1Bytes = () => sizeOf(join(STATE, "v3", "d1"));

interface Step {
  table: string;
  rows: number;
  bytes: number;
}
const steps: Step[] = [];

/** Runs `work` on the local database, then measures how much the file grew once it is closed. */
async function step(table: string, rows: number, work: (d1: D1Database) => Promise<void>) {
  const before = d1Bytes();
  const started = performance.now();
  await withLocalD1(work);
  const bytes = d1Bytes() - before;
  steps.push({ table, rows, bytes });
  console.log(`  ${table.padEnd(22)} ${rows.toLocaleString("en").padStart(11)} rows  ${mb(bytes).padStart(10)}  ${(bytes / rows).toFixed(0).padStart(5)} B/row  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** `n` from `from` to `to` (inclusive) in chunks, one recursive CTE statement each. */
async function chunked(d1: D1Database, total: number, statement: (from: number, to: number) => string) {
  for (let from = 0; from < total; from += CHUNK) await d1.prepare(statement(from, Math.min(total, from + CHUNK) - 1)).run();
}
const seq = (from: number, to: number) => `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})`;

rmSync(STATE, { recursive: true, force: true });
console.log(`capacity: ${CHARGERS.toLocaleString("en")} chargers, ${DAYS} days, ${PER_DAY} sessions a charger a day = ${SESSIONS.toLocaleString("en")} sessions`);
await migrate();
await seed();
const seeded = d1Bytes();
console.log(`  migrated and seeded: ${mb(seeded)}`);

const ids = await withLocalD1(async (d1) => {
  const operator = await d1.prepare("SELECT id FROM operators WHERE code = '0PL002'").first<{ id: number }>();
  const customer = await d1.prepare("SELECT id FROM customers WHERE operator_id = ? ORDER BY id LIMIT 1").bind(operator!.id).first<{ id: number }>();
  return { operator: operator!.id, customer: customer!.id };
});
const OP = ids.operator;
const monthStart = Date.UTC(2026, 9, 1);

console.log("D1, per table (indexes included):");
await step("stations", Math.ceil(CHARGERS / 10), (d1) =>
  chunked(d1, Math.ceil(CHARGERS / 10), (a, b) => `${seq(a, b)} INSERT INTO stations (operator_id, name, status, address, lat, lng) SELECT ${OP}, 'Capacity station ' || n, 'VALID', 'Street ' || n || ', Warsaw', '52.' || (100000 + n), '21.' || (100000 + n) FROM seq`),
);
await step("points", CHARGERS, async (d1) => {
  const first = await d1.prepare("SELECT min(id) AS id FROM stations WHERE name LIKE 'Capacity station %'").first<{ id: number }>();
  await chunked(
    d1,
    CHARGERS,
    (a, b) => `${seq(a, b)} INSERT INTO points (operator_id, station_id, serial_number, point_no, name, type, rated_power_w, connector_count, status, ocpp_version, key_hash)
      SELECT ${OP}, ${first!.id} + n / 10, 'CAP-' || printf('%06d', n), printf('%02d', n % 10), 'Capacity ' || n, 'AC', 22000, 2, 'VALID', 'AUTO', lower(hex(randomblob(32))) FROM seq`,
  );
});
const pointIds = await withLocalD1(async (d1) => {
  const r = await d1.prepare("SELECT min(id) AS first FROM points WHERE serial_number LIKE 'CAP-%'").first<{ first: number }>();
  return r!.first;
});
await step("connectors", CHARGERS * 2, (d1) =>
  chunked(
    d1,
    CHARGERS * 2,
    (a, b) => `${seq(a, b)} INSERT INTO connectors (operator_id, point_id, connector_no, standard, power_w, charge_speed, status, status_at)
      SELECT ${OP}, ${pointIds} + n / 2, 1 + n % 2, 'IEC2', 11000, 'SLOW', 'Available', ${monthStart} FROM seq`,
  ),
);

/** Session n: its point, connector and start, spread evenly over the month. */
const pointOf = `${pointIds} + n % ${CHARGERS}`;
const startOf = `${monthStart} + (n / ${CHARGERS}) * ${Math.floor(DAY_MS / PER_DAY)} + (n % 97) * 60000`;
await step("transactions", SESSIONS, (d1) =>
  chunked(
    d1,
    SESSIONS,
    (a, b) => `${seq(a, b)} INSERT INTO transactions (operator_id, point_id, connector_no, charger_transaction_id, id_tag, auth_status, meter_start_wh, start_at, meter_stop_wh, stop_at, stop_reason, status, energy_wh, duration_s, billed_at)
      SELECT ${OP}, ${pointOf}, 1 + n % 2, NULL, 'CAP' || printf('%06d', n % 20000), 'Accepted', n * 7, ${startOf}, n * 7 + 8000 + n % 20000, ${startOf} + 3600000, 'EVDisconnected', 'COMPLETED', 8000 + n % 20000, 3600, ${startOf} + 3605000 FROM seq`,
  ),
);
const firstTx = await withLocalD1(async (d1) => (await d1.prepare("SELECT min(id) AS id FROM transactions WHERE id_tag LIKE 'CAP%'").first<{ id: number }>())!.id);
await step("charge_records", SESSIONS, (d1) =>
  chunked(
    d1,
    SESSIONS,
    (a, b) => `${seq(a, b)} INSERT INTO charge_records (transaction_id, operator_id, point_id, connector_no, id_tag, customer_id, start_at, status, currency, strategy_version_id,
        electric_cost, service_cost, tax_cost, total_cost, paid_cost, balance_before, balance_after, paid_by, unplug_at, priced_at, pricing_phase, receipt_token, bill_code)
      SELECT ${firstTx} + n, ${OP}, ${pointOf}, 1 + n % 2, 'CAP' || printf('%06d', n % 20000), ${ids.customer}, ${startOf}, 'CHARGE_COMPLETE', 'PLN', NULL,
        1800 + n % 500, 400, 506, 2706 + n % 500, 2706 + n % 500, 100000, 97294, 'BALANCE', ${startOf} + 3700000, ${startOf} + 3605000, 'FINAL',
        lower(hex(randomblob(16))), lower(hex(randomblob(16))) FROM seq`,
  ),
);
await step("bills", SESSIONS, (d1) =>
  chunked(
    d1,
    SESSIONS,
    (a, b) => `${seq(a, b)} INSERT INTO bills (operator_id, customer_id, cost, balance_before, balance_after, member_level_before, member_level_after, type, payment_method, status, transaction_number, transaction_id, phase, applied, created_at, updated_at)
      SELECT ${OP}, ${ids.customer}, 2706 + n % 500, 100000, 97294, 'NORMAL', 'NORMAL', 'Charging', 'BALANCE', 'PaySuccess', CAST(${firstTx} + n AS TEXT), ${firstTx} + n, 'FINAL', 1, ${startOf} + 3605000, ${startOf} + 3605000 FROM seq`,
  ),
);
await step("daily_charge_totals", CHARGERS * DAYS, (d1) =>
  chunked(
    d1,
    CHARGERS * DAYS,
    (a, b) => `${seq(a, b)} INSERT INTO daily_charge_totals (operator_id, day, point_id, sessions, energy_wh, duration_s, revenue, priced_sessions, records)
      SELECT ${OP}, date((${monthStart} + (n / ${CHARGERS}) * ${DAY_MS}) / 1000, 'unixepoch'), ${pointIds} + n % ${CHARGERS}, ${PER_DAY}, ${PER_DAY} * 12000, ${PER_DAY} * 3600, ${PER_DAY} * 2900, ${PER_DAY}, ${PER_DAY} FROM seq`,
  ),
);
const logRows = Math.round(CHARGERS * DAYS * LOG_ROWS_PER_CHARGER_DAY);
await step("operation_logs", logRows, (d1) =>
  chunked(
    d1,
    logRows,
    (a, b) => `${seq(a, b)} INSERT INTO operation_logs (operator_id, operator_code, table_name, module, operation_type, account, old_data, new_data, url, request_body, ip, created_at)
      SELECT ${OP}, '0PL002', 'points', 'points', 'UPDATE', 'system: cron', '{"id":' || n || ',"status":"VALID","name":"Capacity ' || n || '"}',
        '{"id":' || n || ',"status":"INVALID","name":"Capacity ' || n || '","remark":"' || hex(randomblob(24)) || '"}', 'PUT /station-service/point/' || n, '{"status":"INVALID"}', '10.0.0.' || (n % 250),
        ${monthStart} + n * ${Math.max(1, Math.floor((DAYS * DAY_MS) / Math.max(1, logRows)))} FROM seq`,
  ),
);

/** A month of one charger's own storage, in a scratch SQLite with the object's schema. */
async function chargerMonth() {
  const dir = mkdtempSync(join(tmpdir(), "plugdesk-capacity-"));
  const open = () => new Miniflare({ modules: true, script: "export default { fetch() { return new Response(null) } }", d1Databases: { DB: "charger" }, d1Persist: dir });
  const measure = async (work: (db: D1Database) => Promise<void>) => {
    const before = sizeOf(dir);
    const mf = open();
    await work((await mf.getD1Database("DB")) as unknown as D1Database);
    await mf.dispose();
    return sizeOf(dir) - before;
  };
  try {
    await measure(async (db) => {
      for (const statement of CHARGER_SCHEMA.split(";").map((s) => s.trim()).filter(Boolean)) await db.prepare(statement).run();
    });
    // A day: a Heartbeat every 5 minutes, and per session Authorize, StartTransaction, four
    // StatusNotifications, a MeterValues a minute for an hour (energy, power, three currents,
    // voltage) and StopTransaction; each frame and its answer logged.
    const frames: [number, string, string, string, string][] = [];
    const values: [number, number, number, string][] = [];
    let id = 0;
    for (let day = 0; day < DAYS; day++) {
      const base = monthStart + day * DAY_MS;
      for (let m = 0; m < 288; m++) {
        const at = base + m * 300_000;
        frames.push([at, "IN", "CALL", "Heartbeat", `[2,"hb${id}","Heartbeat",{}]`], [at, "OUT", "CALLRESULT", "Heartbeat", `[3,"hb${id++}",{"currentTime":"${new Date(at).toISOString()}"}]`]);
      }
      for (let s = 0; s < PER_DAY; s++) {
        const tx = 1000 + day * PER_DAY + s;
        const start = base + s * Math.floor(DAY_MS / PER_DAY);
        const call = (at: number, action: string, payload: unknown, answer: unknown) => {
          const mid = `${action.slice(0, 2)}${id++}`;
          frames.push([at, "IN", "CALL", action, JSON.stringify([2, mid, action, payload])], [at, "OUT", "CALLRESULT", action, JSON.stringify([3, mid, answer])]);
        };
        call(start, "Authorize", { idTag: "04A2B3C4D5E6F7" }, { idTagInfo: { status: "Accepted" } });
        for (const status of ["Preparing", "Charging"]) call(start, "StatusNotification", { connectorId: 1, errorCode: "NoError", status, timestamp: new Date(start).toISOString() }, {});
        call(start, "StartTransaction", { connectorId: 1, idTag: "04A2B3C4D5E6F7", meterStart: tx * 10, timestamp: new Date(start).toISOString() }, { transactionId: tx, idTagInfo: { status: "Accepted" } });
        for (let m = 1; m <= 60; m++) {
          const at = start + m * 60_000;
          const ts = new Date(at).toISOString();
          const sampled = [
            { value: String(tx * 10 + m * 183), measurand: "Energy.Active.Import.Register", unit: "Wh" },
            { value: "11040", measurand: "Power.Active.Import", unit: "W" },
            ...["L1", "L2", "L3"].map((phase) => ({ value: "16.0", measurand: "Current.Import", phase, unit: "A" })),
            { value: "230.1", measurand: "Voltage", phase: "L1-N", unit: "V" },
          ];
          call(at, "MeterValues", { connectorId: 1, transactionId: tx, meterValue: [{ timestamp: ts, sampledValue: sampled }] }, {});
          const packed = sampled.map((v) => ({ ts, measurand: v.measurand, ...("phase" in v && { phase: v.phase }), context: "Sample.Periodic", value: Number(v.value), unit: v.unit }));
          values.push([meterRange(tx) * 2 ** 32 + m, tx, 1, JSON.stringify(packed)]);
        }
        const stop = start + 3_600_000;
        call(stop, "StopTransaction", { transactionId: tx, idTag: "04A2B3C4D5E6F7", meterStop: tx * 10 + 10980, timestamp: new Date(stop).toISOString(), reason: "EVDisconnected" }, { idTagInfo: { status: "Accepted" } });
        for (const status of ["Finishing", "Available"]) call(stop, "StatusNotification", { connectorId: 1, errorCode: "NoError", status, timestamp: new Date(stop).toISOString() }, {});
      }
    }
    // Rows go in as one JSON array per statement, unpacked by SQLite (json_each), as the object's own multi-row inserts do.
    const insertAll = async (db: D1Database, rows: unknown[][], sql: string) => {
      for (let i = 0; i < rows.length; i += 2000) await db.prepare(sql).bind(JSON.stringify(rows.slice(i, i + 2000))).run();
    };
    const logBytes = await measure((db) =>
      insertAll(
        db,
        frames,
        "INSERT INTO ocpp_log (at, direction, type, action, message_id, message) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), 'm', json_extract(value, '$[4]') FROM json_each(?)",
      ),
    );
    const sampleBytes = await measure((db) =>
      insertAll(
        db,
        values,
        "INSERT INTO meter_values (id, transaction_id, connector_id, samples) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?)",
      ),
    );
    // What the same rows cost in R2 once archived: NDJSON compressed with gzip, as retention writes them.
    const archive = (rows: unknown[]) => gzipSync(rows.map((r) => `${JSON.stringify(r)}\n`).join("")).byteLength;
    const archivedBytes = archive(frames.map(([at, direction, type, action, message]) => ({ at: new Date(at).toISOString(), direction, type, action, message }))) + archive(values);
    return { frames: frames.length, logBytes, meterRows: values.length, sampleBytes, archivedBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const charger = await chargerMonth();
console.log("A charger's own storage (Durable Object SQLite), per charger:");
console.log(`  ocpp_log     ${(charger.frames / DAYS).toFixed(0).padStart(6)} frames a day  ${(charger.logBytes / DAYS / 1e3).toFixed(0).padStart(6)} KB a day  ${(charger.logBytes / charger.frames).toFixed(0)} B/frame`);
console.log(`  meter_values ${(charger.meterRows / DAYS).toFixed(0).padStart(6)} rows a day    ${(charger.sampleBytes / DAYS / 1e3).toFixed(0).padStart(6)} KB a day  ${(charger.sampleBytes / charger.meterRows).toFixed(0)} B/row`);
console.log(`  archived to R2 (gzip NDJSON): ${(charger.archivedBytes / DAYS / 1e3).toFixed(0)} KB a charger a day`);

const bytesOf = (table: string) => steps.find((s) => s.table === table)!.bytes;
const perSession = ["transactions", "charge_records", "bills"].reduce((sum, t) => sum + bytesOf(t), 0) / SESSIONS;
const perChargerDay = (bytesOf("daily_charge_totals") + bytesOf("operation_logs")) / (CHARGERS * DAYS);
const perCharger = (bytesOf("stations") + bytesOf("points") + bytesOf("connectors")) / CHARGERS;
const month = steps.reduce((sum, s) => sum + s.bytes, 0) - perCharger * CHARGERS;
const year = month * (365 / DAYS);
console.log("Figures:");
console.log(`  one session in D1 (transaction, charge record, bill): ${perSession.toFixed(0)} B`);
console.log(`  per charger and day besides its sessions (daily totals, ${LOG_ROWS_PER_CHARGER_DAY} log row(s)): ${perChargerDay.toFixed(0)} B`);
console.log(`  per charger registered (station share, point, two connectors): ${perCharger.toFixed(0)} B`);
console.log(`  the simulated month of ${CHARGERS.toLocaleString("en")} chargers: ${mb(month)} (${((month / D1_LIMIT) * 100).toFixed(2)} % of 10 GB)`);
console.log(`  extrapolated to a year: ${(year / GB).toFixed(2)} GB; to 50 000 chargers a year: ${((year * (50_000 / CHARGERS)) / GB).toFixed(2)} GB`);
const sessionsPerYearFor = (chargers: number) => chargers * PER_DAY * 365;
const yearsToFill = (chargers: number) => D1_LIMIT / (chargers * (PER_DAY * 365 * perSession + 365 * perChargerDay) + chargers * perCharger);
console.log(`  one 10 GB database holds ${(D1_LIMIT / perSession / 1e6).toFixed(1)} M sessions; at ${PER_DAY} a day: ${sessionsPerYearFor(5000).toLocaleString("en")} a year per 5 000 chargers`);
for (const chargers of [5_000, 20_000, 50_000]) console.log(`  ${chargers.toLocaleString("en").padStart(6)} chargers fill 10 GB in ${yearsToFill(chargers).toFixed(1)} years`);
console.log(`  charger objects: ${((charger.logBytes + charger.sampleBytes) / DAYS / 1e3).toFixed(0)} KB a charger a day; 90 days of frames and 13 months of samples: ${((charger.logBytes / DAYS) * 90 / 1e6 + (charger.sampleBytes / DAYS) * 395 / 1e6).toFixed(0)} MB a charger`);
rmSync(STATE, { recursive: true, force: true });
