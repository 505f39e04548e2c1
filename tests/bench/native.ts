/**
 * `npm run bench:native` (docs/performance.md "Where a status's CPU goes, natively"): what a burst
 * of StatusNotification to objects asleep costs workerd below JavaScript, where V8's profile
 * (`npm run bench:profile`) does not look: SQLite's commits and their fsyncs, opening an object's
 * files, reading its schema. It serves the product as `npm start` does (or, with `--echo`, the bare
 * echo Durable Object of tests/bench/echo under `wrangler dev`), connects 1 000 bench chargers (or
 * `--chargers N`), lets their objects fall asleep, and sends every charger one status, twice. Per
 * burst it prints workerd's CPU per status, through `perf stat` its fsync, openat and pwrite64
 * calls per status, and the D1 statements and round trips the product sent per status (its bench
 * counters); `--record` runs `perf record -g` instead and leaves the profile in
 * `/tmp/native-<target>-<round>.data` for `perf report`. `--rounds N` bursts instead of two;
 * `--state N` seeds an operator of N chargers and connects the first 1 000 (or `--chargers`). Needs
 * `perf` and the permission to trace (as root, or `kernel.perf_event_paranoid` ≤ 1).
 */
import { execFileSync, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { serveProduct } from "../support/serve-product";
import { d1Counters, perEach } from "./d1-counters";
import { prepareBenchState } from "./fleet";
import { Load, serveEchoDo, started, stopStarted } from "./load";
import { workerdCpuSeconds } from "./workerd";

const STATE = ".wrangler/bench-native-state";
const chargersArg = process.argv.indexOf("--chargers");
const CHARGERS = chargersArg > 0 ? Number(process.argv[chargersArg + 1]) : 1000;
/** `--state N`: the operator's size in the bench state (the chargers connected by default), to see whether an operator's size costs a status anything. */
const stateArg = process.argv.indexOf("--state");
const STATE_SIZE = stateArg > 0 ? Math.max(CHARGERS, Number(process.argv[stateArg + 1]) || CHARGERS) : CHARGERS;
const ECHO = process.argv.includes("--echo");
const RECORD = process.argv.includes("--record");
const roundsArg = process.argv.indexOf("--rounds");
/** `--rounds N`: bursts per run (two by default); a third or more are worth it when comparing two versions of the code, burst to burst. */
const ROUNDS = roundsArg > 0 ? Math.max(1, Number(process.argv[roundsArg + 1]) || 2) : 2;
/** An idle object is evicted about ten seconds after its last message (docs/performance.md "Waking up"). */
const ASLEEP_MS = 25_000;
const SYSCALLS = ["fsync", "openat", "pwrite64"] as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `perf stat`'s counts of SYSCALLS from its output. */
function countsOf(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of SYSCALLS) {
    const line = output.split("\n").find((l) => l.includes(`sys_enter_${name}`));
    counts[name] = line ? Number(line.trim().split(/\s+/)[0].replace(/[^\d]/g, "")) : Number.NaN;
  }
  return counts;
}

async function main() {
  const { ["1.6"]: seeded } = await prepareBenchState(STATE, STATE_SIZE, ["1.6"]);
  const fleet = seeded.slice(0, CHARGERS);
  const target = ECHO ? await serveEchoDo(`${STATE}/echo`) : (started.product = await serveProduct(STATE, { keepState: true, env: { PLUGDESK_CRONS: "off", PLUGDESK_BENCH_COUNTERS: "on" } }));
  const url = `${target.origin.replace(/^http/, "ws")}/ocpp`;
  const load = await Load.start(1);
  const connected = await load.connect(url, fleet, "1.6");
  console.log(`${ECHO ? "echo DO" : "product"} (operator of ${STATE_SIZE}): ${connected.done} chargers connected, ${connected.failed} failed${connected.firstError ? ` (${connected.firstError})` : ""}`);
  const pids = execFileSync("pgrep", ["-g", String(target.group), "workerd"], { encoding: "utf8" })
    .trim()
    .split("\n");
  for (let round = 0; round < ROUNDS; round++) {
    await sleep(ASLEEP_MS);
    const args = RECORD
      ? ["record", "-F", "999", "-g", "-o", `/tmp/native-${ECHO ? "echo" : "product"}-${round}.data`, "-p", pids.join(",")]
      : ["stat", "-e", SYSCALLS.map((s) => `syscalls:sys_enter_${s}`).join(","), "-p", pids.join(",")];
    const perf = spawn("perf", args, { stdio: ["ignore", "ignore", "pipe"] });
    let perfOutput = "";
    perf.stderr!.on("data", (chunk: Buffer) => (perfOutput += chunk.toString()));
    await sleep(1000);
    const d1Before = ECHO ? undefined : await d1Counters(target.origin);
    const cpuBefore = workerdCpuSeconds(target.group);
    const t0 = performance.now();
    const burst = await load.run(() => ({ kind: "burst", action: "StatusNotification", count: CHARGERS }));
    const ms = performance.now() - t0;
    const cpu = workerdCpuSeconds(target.group) - cpuBefore;
    // What the burst handed on (the product's changes on their way to D1) lands within seconds.
    await sleep(3000);
    const landed = workerdCpuSeconds(target.group) - cpuBefore;
    const d1 = d1Before && perEach(d1Before, await d1Counters(target.origin), Math.max(1, burst.done));
    perf.kill("SIGINT");
    await new Promise((r) => perf.on("exit", r));
    const per = (v: number) => (v / Math.max(1, burst.done)).toFixed(2);
    const calls = RECORD
      ? ""
      : `; per status ${Object.entries(countsOf(perfOutput))
          .map(([name, n]) => `${per(n)} ${name}`)
          .join(", ")}`;
    console.log(
      `burst ${round + 1}: ${burst.done} answered (${burst.failed} failed) in ${(ms / 1000).toFixed(1)} s; workerd CPU per status ${per(cpu * 1000)} ms, ${per(landed * 1000)} ms until landed${calls}${d1 ? `; D1 per status ${d1.statements.toFixed(3)} statements, ${d1.roundTrips.toFixed(3)} round trips` : ""}`,
    );
  }
}

try {
  await main();
} finally {
  await stopStarted();
}
setTimeout(() => process.exit(0), 3000).unref();
