/**
 * `npm run bench:lists`: the charge record list and the dashboard with 100 000 records of one
 * operator (docs/performance.md "Lists at scale"). It migrates and seeds its own local state
 * (`.wrangler/bench-lists-state`), adds 100 000 stopped and billed sessions of `0PL002` over a
 * year (with their charge records and daily totals, as the billing job leaves them), serves the
 * product on it as `npm start` does, and prints p50/p95 of the first page, a filtered page (tag,
 * point and a month), page 500 and the dashboard, beside a trivial authenticated read. It prints
 * figures only and never fails on speed; everything it starts, it stops.
 */
import { performance } from "node:perf_hooks";
import { Api } from "../../scripts/sim/register";
import { serveProduct, type ServedProduct } from "../support/serve-product";

const STATE = ".wrangler/bench-lists-state";
process.env.PLUGDESK_STATE = STATE;
const { migrate, seed, withLocalD1 } = await import("../../scripts/local-state");

const RECORDS = 100_000;
/** Rows per seeding statement (one recursive CTE each). */
const CHUNK = 20_000;
const STEP_MS = 5 * 60_000;
const TAGS = 500;
const WARMUP = 3;
const SAMPLES = 40;

let product: ServedProduct | undefined;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    void (product?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

function percentile(samples: number[], p: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * 100 000 sessions on the operator's demo points, five minutes apart and ending a day ago, each
 * with its charge record (CHARGE_COMPLETE) and counted in the daily totals of its Warsaw day.
 * Bench data only: the day is taken at a fixed +1 h, which is what the bench needs to fill the
 * totals table, not how the product computes local days (domain/time.ts).
 */
async function fillRecords() {
  return withLocalD1(async (d1) => {
    const operator = await d1.prepare("SELECT id FROM operators WHERE code = '0PL002'").first<{ id: number }>();
    const pointRows = await d1.prepare("SELECT id FROM points WHERE operator_id = ? ORDER BY id").bind(operator!.id).all<{ id: number }>();
    const pointIds = pointRows.results.map((p) => p.id);
    const end = Date.now() - 24 * 60 * 60_000;
    const first = end - RECORDS * STEP_MS;
    const pointOf = `CASE n % ${pointIds.length} ${pointIds.map((id, i) => `WHEN ${i} THEN ${id}`).join(" ")} END`;
    for (let from = 0; from < RECORDS; from += CHUNK) {
      // Our own constants, written into the statement: D1 binds JS numbers as reals.
      const to = Math.min(RECORDS, from + CHUNK) - 1;
      const start = `${first} + n * ${STEP_MS}`;
      await d1
        .prepare(
          `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})
           INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at, meter_stop_wh, stop_at, stop_reason, status, energy_wh, duration_s, billed_at)
           SELECT ${operator!.id}, ${pointOf}, 1 + n % 2, 'BENCH' || (n % ${TAGS}), 'Accepted', n * 10, ${start},
                  n * 10 + 1000 + n % 20000, ${start} + 1800000, 'Local', 'COMPLETED', 1000 + n % 20000, 1800, ${start} + 1800000
           FROM seq`,
        )
        .run();
    }
    await d1
      .prepare(
        `INSERT INTO charge_records (transaction_id, operator_id, point_id, connector_no, id_tag, start_at, status, currency, receipt_token, bill_code)
         SELECT id, operator_id, point_id, connector_no, id_tag, start_at, 'CHARGE_COMPLETE', 'PLN', lower(hex(randomblob(16))), lower(hex(randomblob(16)))
         FROM transactions WHERE operator_id = ? AND id_tag LIKE 'BENCH%'`,
      )
      .bind(operator!.id)
      .run();
    await d1
      .prepare(
        `INSERT INTO daily_charge_totals (operator_id, day, point_id, sessions, energy_wh, duration_s, revenue, priced_sessions, records)
         SELECT operator_id, date(start_at / 1000, 'unixepoch', '+1 hours'), point_id, count(*), sum(energy_wh), sum(duration_s), 0, 0, count(*)
         FROM transactions WHERE operator_id = ? AND id_tag LIKE 'BENCH%' GROUP BY 2, 3`,
      )
      .bind(operator!.id)
      .run();
    return { pointId: pointIds[0], month: new Date(end - 30 * 24 * 60 * 60_000).toISOString().slice(0, 7) };
  });
}

async function measure(api: Api, name: string, path: string) {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const start = performance.now();
    const res = await api.request("GET", path);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${res.body?.msg}`);
    if (i >= WARMUP) samples.push(performance.now() - start);
  }
  console.log(`${name.padEnd(46)} p50 ${percentile(samples, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(samples, 95).toFixed(1).padStart(7)} ms`);
}

try {
  console.log(`Preparing ${STATE}: migrate, seed, ${RECORDS.toLocaleString("en")} charge records…`);
  const { rmSync } = await import("node:fs");
  rmSync(STATE, { recursive: true, force: true });
  await migrate();
  await seed();
  const started = performance.now();
  const { pointId, month } = await fillRecords();
  console.log(`  records written in ${((performance.now() - started) / 1000).toFixed(1)} s; serving the product…`);
  product = await serveProduct(STATE, { keepState: true });
  const api = await Api.login(product.origin);
  console.log(`\nPlugdesk lists at scale: ${RECORDS.toLocaleString("en")} charge records of 0PL002, ${SAMPLES} sequential requests each\n`);
  await measure(api, "trivial authenticated read (person/operator)", "/user-service/person/operator");
  await measure(api, "charge records, first page (100)", "/station-service/charge/record?size=100");
  await measure(api, "charge records, tag + point + month (100)", `/station-service/charge/record?size=100&idTag=BENCH7&pointId=${pointId}&from=${month}-01&to=${month}-28`);
  await measure(api, "charge records, page 500 (100 per page)", "/station-service/charge/record?size=100&current=500");
  await measure(api, "dashboard", "/station-service/dashboard/home");
} finally {
  await product?.stop();
}
