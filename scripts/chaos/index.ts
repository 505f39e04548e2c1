/**
 * `npm run chaos` (docs/testing.md "Chaos"): breaks the product on purpose and counts what was
 * lost or doubled. It serves the product as `npm start` does, on a state folder, build folder and
 * port of its own, with a fleet of chargers of both OCPP versions written into that state, then:
 *
 * 1. kills the server's whole process group (SIGKILL) while chargers are in transactions and
 *    readings are in flight, restarts it on the same state, and checks every session against what
 *    its charger sent after it reconnected and resent its queue (scripts/chaos/faults.ts), its
 *    money against the pricing engine and the driver's wallet (scripts/chaos/money.ts);
 * 2. drops every charger of the fleet at once and reconnects them all within seconds;
 * 3. and 4. run the integration tests that deliver the queues' messages twice and out of order
 *    (tests/integration/queue-redelivery.test.ts) and make D1 refuse the change writer's and the
 *    billing job's batches (tests/integration/d1-faults.test.ts), in the Workers runtime;
 *    `--live-only` leaves them out (the suite runs them anyway).
 *
 * It prints a table (fault, what was checked, sessions, money moved, lost, doubled) and ends with
 * `chaos: lost N, doubled M`; the exit code is non-zero when either is, or a fault failed. The
 * small size (default) runs in a few minutes on two cores; `--full` storms 1 000 chargers.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { prepareBenchState } from "../../tests/bench/fleet";
import { copyBuild } from "../local-server";
import { Api } from "../sim/register";
import { reconnectStorm, runtimeDies, type Query } from "./faults";
import { pricedWallet } from "./money";
import { Product } from "./product";
import { chaosExitCode, chaosReport, type ChaosRow } from "./report";

const FULL = process.argv.includes("--full");
const LIVE_ONLY = process.argv.includes("--live-only");
/** Chargers per OCPP version in transactions when the runtime dies, and chargers in the storm (half of each version). */
const SIZE = FULL ? { killed: 50, storm: 1000 } : { killed: 5, storm: 100 };
const STATE = resolve(`.wrangler/chaos-state-${process.pid}`);
/**
 * Its own build folder, so that it never rebuilds a folder another run serves; `--build DIR`
 * serves a build made already instead of making one; `--copy-build DIR` copies the build in DIR
 * (the browser tests' own, fresh from their global setup) into its own folder when DIR is the
 * build of these sources (scripts/local-server.ts `copyBuild`), and builds only when it is not.
 */
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const BUILD = argument("--build") ?? `.wrangler/chaos-build`;
const COPY_BUILD = argument("--copy-build");

/**
 * A read of the product's database file from this process meets it locked now and then while the
 * server writes (workerd logs SQLITE_BUSY; the read fails as a D1 "internal error"): on a busy
 * machine a full run's chaos test failed there twice. The read is tried again, a few times.
 */
async function whenUnlocked<T>(read: () => Promise<T>, tries = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= tries || !/SQLITE_BUSY|database is locked|internal error/i.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

async function integrationRows(): Promise<ChaosRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "plugdesk-chaos-"));
  const out = join(dir, "results.json");
  const files = { "queues deliver twice": "tests/integration/queue-redelivery.test.ts", "D1 refuses": "tests/integration/d1-faults.test.ts" };
  await new Promise<void>((done) =>
    execFile("npx", ["vitest", "run", "--project", "integration", ...Object.values(files), "--reporter=json", `--outputFile=${out}`], { maxBuffer: 64 << 20 }, () => done()),
  );
  let results: { testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] } | undefined;
  try {
    results = JSON.parse(readFileSync(out, "utf8"));
  } catch {
    results = undefined;
  }
  rmSync(dir, { recursive: true, force: true });
  return Object.entries(files).map(([fault, file]) => {
    const tests = results?.testResults.find((r) => r.name.endsWith(file))?.assertionResults ?? [];
    const failed = tests.filter((t) => t.status !== "passed");
    return {
      fault,
      checked: `${file.split("/").pop()}: ${tests.length} tests in the Workers runtime, ${tests.length - failed.length} passed`,
      sessions: 0,
      money: 0,
      // A redelivery test that fails found something done twice; a D1-fault test, something lost.
      lost: fault === "D1 refuses" ? failed.length : 0,
      doubled: fault === "D1 refuses" ? 0 : failed.length,
      problems: tests.length === 0 ? ["the tests did not run"] : failed.map((t) => `${t.title}: ${t.failureMessages.join(" ").slice(0, 300)}`),
      failed: tests.length === 0,
    };
  });
}

/**
 * How long the harness may take in all: a step that never ends (a server that never starts, a
 * proxy that never answers) ends the run with what it printed so far, instead of outliving the
 * caller's own time-out silently (tests/chaos/chaos.test.ts).
 */
const GIVE_UP_AFTER_MS = (FULL ? 30 : 8) * 60_000;

async function main(): Promise<number> {
  const perVersion = SIZE.killed + SIZE.storm / 2;
  const product = new Product(STATE, BUILD);
  setTimeout(() => {
    console.log(`chaos: gave up after ${GIVE_UP_AFTER_MS / 60_000} minutes: the step printed last never ended`);
    void product.stop().finally(() => process.exit(1));
  }, GIVE_UP_AFTER_MS).unref();
  console.log(`chaos: ${FULL ? "full" : "small"} size; preparing ${STATE} with ${perVersion} chargers of each OCPP version…`);
  const fleets = await prepareBenchState(STATE, perVersion, ["1.6", "2.0.1"] as const);
  const { withLocalD1 } = await import("../local-state");
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => void product.stop().finally(() => process.exit(130)));
  }
  const rows: ChaosRow[] = [];
  // One reader of the local D1 beside the server for the whole run, opened when first asked.
  let closeD1: (() => void) | undefined;
  let reader: Promise<Query> | undefined;
  const query = () =>
    (reader ??= new Promise<Query>((ready, fail) => {
      withLocalD1(
        (d1) =>
          new Promise<void>((done) => {
            closeD1 = done;
            ready((sql, ...params) => whenUnlocked(async () => (await d1.prepare(sql).bind(...params).all()).results as Record<string, unknown>[]));
          }),
      ).catch(fail);
    }));
  const attempt = async (fault: string, run: () => Promise<ChaosRow>) => {
    try {
      rows.push(await run());
    } catch (error) {
      rows.push({ fault, checked: "the fault did not run to its end", sessions: 0, money: 0, lost: 0, doubled: 0, problems: [String((error as Error).stack ?? error)], failed: true });
    }
  };
  try {
    if (COPY_BUILD) console.log(`chaos: ${copyBuild(COPY_BUILD, BUILD) ? "copied the build" : "not copying the build, which is not"} of these sources in ${COPY_BUILD}`);
    console.log(`chaos: starting the product (its build in ${BUILD})…`);
    await product.start();
    const [v16, v201] = [fleets["1.6"], fleets["2.0.1"]];
    console.log(`chaos: 1. killing the runtime under ${SIZE.killed * 2} sessions…`);
    const killed = [v16.slice(0, SIZE.killed), v201.slice(0, SIZE.killed)];
    await attempt("runtime killed mid-session", async () => {
      const wallet = await pricedWallet(await Api.login(product.origin), killed.flat().map((p) => p.id), SIZE.killed * 2);
      return runtimeDies(product, killed, wallet, query);
    });
    console.log(`chaos: 2. a reconnect storm of ${SIZE.storm} chargers…`);
    await attempt("reconnect storm", () => reconnectStorm(product, [v16.slice(SIZE.killed), v201.slice(SIZE.killed)]));
  } finally {
    closeD1?.();
    await product.stop();
    rmSync(STATE, { recursive: true, force: true });
  }
  if (!LIVE_ONLY) {
    console.log("chaos: 3. and 4. queue redelivery and D1 faults in the Workers runtime…");
    rows.push(...(await integrationRows()));
  }
  console.log(`\n${chaosReport(rows)}`);
  return chaosExitCode(rows);
}

process.exitCode = await main();
