/**
 * `npm run bench:ocpp` (docs/performance.md): figures for the OCPP edge with 100, 1 000 and
 * 5 000 chargers (`--quick`: 100 only; `--size N`: N only, to try a change), each beside a bare hibernating echo Durable Object served
 * the same way in the same run (tests/bench/echo, `wrangler dev`), with its ratio to it, and a
 * bare Node `ws` echo as the machine's ceiling. Each size runs a fleet of OCPP 1.6 chargers,
 * then the same phases with a fleet of OCPP 2.0.1 ones (their readings as TransactionEvent
 * Updated, OCPP 2.0.1 Part 2 E02), whose connect is also set beside the 1.6 fleet's
 * (`--version V`: one version's fleet only).
 *
 * The product is served as `npm start` serves it (the build under `wrangler dev`, own state
 * folder, free port); its chargers are written into that state before it starts, and connect,
 * like the echo DO's, to the workerd that runs the worker, past wrangler's proxy. Load comes from
 * light clients in several processes (tests/bench/load-client.ts); a strict ocpp-rpc client of
 * each version checks a sample for correctness. D1 statements are counted by the worker itself
 * (workers/http/bench-counters.ts) and workerd's CPU time is read from /proc. It prints figures,
 * never fails on speed, and stops everything it started.
 */
import { execFileSync, fork, spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { Api, inBatches } from "../../scripts/sim/register";
import { OcppClient, type RpcConnection } from "../../scripts/sim/rpc";
import { Ocpp201Client } from "../../scripts/sim/rpc201";
import { at, energy, energySample, startedBy } from "../support/ocpp201";
import { serveProduct } from "../support/serve-product";
import { COUNTERS_PATH, d1Counters, perEach, type Counters } from "./d1-counters";
import { prepareBenchState, type BenchPoint } from "./fleet";
import { CONNECTS_IN_FLIGHT, Load, serveEchoDo, started, stopStarted } from "./load";
import { BOOT_STATUSES, READING, type BenchCharger, type OcppVersion } from "./protocol";
import { workerdCpuSeconds, workerdOpenFiles, workerOrigin, type OpenFiles } from "./workerd";

const QUICK = process.argv.includes("--quick");
const sizeArg = process.argv.indexOf("--size");
const ONE_SIZE = sizeArg > 0 ? Number(process.argv[sizeArg + 1]) : undefined;
/**
 * `--storm`: only what a reconnect storm is judged on (issue 30 "Storms at the runtime's speed"):
 * connect and boot, the StatusNotification burst and the remote starts, at 1 000 and 5 000 chargers
 * unless `--size` names one; `--runs N` repeats them N times on the same servers and ends with each
 * ratio's median (docs/performance.md "How the figures are taken").
 */
const STORM = process.argv.includes("--storm");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 1;
const SIZES = ONE_SIZE ? [ONE_SIZE] : QUICK ? [100] : STORM ? [1000, 5000] : [100, 1000, 5000];
const STRICT_SAMPLE = 3;
const CLIENT_PROCESSES = 2;
const HEARTBEATS_IN_FLIGHT = 50;
const HEARTBEAT_SAMPLES = 1000;
/**
 * MeterValues run in pairs of rounds, the product's and the echo DO's in turn, each round this
 * long after a warm-up that wakes the objects: at least one unwatched pace of meter pushes
 * (METER_PUSH_UNWATCHED_MS), so each round pays for the pushes a steady stream does.
 */
const METER_SECONDS = 10;
const METER_WARMUP_SECONDS = 1;
const METER_PAIRS = 3;
const METER_UP_TO = 1000;
const STEADY_INTERVAL_S = 60;
/**
 * A Heartbeat or status phase of a small fleet lasts well under a second, where one stall of
 * workerd (the SQLite of an object going to sleep checkpointed, a collection) doubles its
 * figures: it runs this many rounds, each from sleep, on the product and the echo DO in turn,
 * and the median of the pairs' ratios counts (docs/performance.md "Small fleets, several rounds",
 * "Small fleets, in pairs").
 */
const roundsFor = (chargers: number) => (chargers <= 100 ? 5 : 1);
/**
 * Remote starts per size, one per charger, each from sleep: a fleet smaller than that is started
 * in rounds, its objects asleep before each. The p99 of 500 is their fifth-slowest; of 200 it was
 * the second-slowest, which one stall of workerd set alone (docs/performance.md "Remote start,
 * one statement less").
 */
const REMOTE_STARTS = 500;
const REMOTE_STARTS_IN_FLIGHT = 10;
/** The product's read of a point runs three D1 statements (session, account, point): its CPU comes in four pieces. */
const ECHO_READ_PIECES = 4;
/** Product reads, one at a time, whose workerd CPU the echo DO's yardstick spends. */
const READ_CPU_SAMPLES = 100;
const TRANSACTIONS = 50;
const ALL_VERSIONS: readonly OcppVersion[] = ["1.6", "2.0.1"];
/** `--version V`: that version's fleet only, to try a change. */
const versionArg = process.argv.indexOf("--version");
/** The OCPP versions the bench runs a fleet of, each beside the echo DO (OCPP 2.0.1's readings ride on TransactionEvent). */
const VERSIONS = versionArg > 0 ? ALL_VERSIONS.filter((v) => v === process.argv[versionArg + 1]) : ALL_VERSIONS;
/**
 * The demo operator's remote-start id tag (db/seed.ts): accepted at every start, however many
 * sessions it already has (domain/ocpp/authorization.ts), as a fleet's transactions need.
 */
const OPERATOR_ID_TOKEN = "PLREMOTE";
/** Batched D1 writes land at most about two seconds after the message (docs/rules/ocpp.md "Hot path"). */
const SETTLE_MS = 3000;
const IDLE_WAIT_MS = 30_000;
const STATE = ".wrangler/bench-ocpp-state";
/** Two sockets' worth of descriptors per charger (the client's and workerd's ends), and room. */
const FILES_NEEDED = Math.max(...SIZES) * 2 + 2000;

// ── the file-descriptor limit ───────────────────────────────────────────────────────────────

/** Raises the soft limit to what the run needs by running again under `ulimit -n`, or says how. */
function ensureFileLimit(): number {
  const [soft, hard] = execFileSync("sh", ["-c", "ulimit -Sn; ulimit -Hn"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((v) => (v === "unlimited" ? Number.POSITIVE_INFINITY : Number(v)));
  if (soft >= FILES_NEEDED) return soft;
  if (hard >= FILES_NEEDED && !process.env.PLUGDESK_BENCH_RAISED) {
    const child = spawn("sh", ["-c", `ulimit -n ${FILES_NEEDED} && exec "$@"`, "sh", process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, PLUGDESK_BENCH_RAISED: "1" },
    });
    child.on("exit", (code) => process.exit(code ?? 1));
    return -1;
  }
  console.log(
    `Open files: the limit is ${soft} (hard ${hard}); ${FILES_NEEDED} are needed for ${Math.max(...SIZES)} chargers. ` +
      `Raise the hard limit (as root: \`ulimit -Hn ${FILES_NEEDED}\` in the shell that runs the bench, or nofile in /etc/security/limits.conf); ` +
      `sizes that do not fit are skipped.`,
  );
  return soft;
}

// ── figures ─────────────────────────────────────────────────────────────────────────────────

const ms = (start: number) => performance.now() - start;
const fmt = (n: number | undefined, digits = 1) => (n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : "–");
function percentile(samples: number[], p: number) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
/** product ÷ echo DO: how many times the echo DO's figure the product's is. */
const ratio = (product: number | undefined, echo: number | undefined) =>
  product === undefined || echo === undefined || !Number.isFinite(product) || !Number.isFinite(echo) || echo <= 0 ? "" : `${(product / echo).toFixed(2)}`;

// ── what the run starts ─────────────────────────────────────────────────────────────────────

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    void stopStarted().finally(() => process.exit(130));
  });
}

async function serveNodeEcho(): Promise<string> {
  const child = fork(resolve("tests/bench/node-echo.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.nodeEcho = child;
  const port = await new Promise<number>((done) => child.once("message", (p) => done(p as number)));
  return `ws://127.0.0.1:${port}`;
}

// ── one target (product, echo DO or Node echo) at one size ─────────────────────────────────

interface Figures {
  connectS?: number;
  connectFailed?: number;
  /** Each charger's WebSocket upgrade and BootNotification, with CONNECTS_IN_FLIGHT in flight. */
  connectBoot?: { p50: number; p99: number };
  /** The transactions the readings belong to, where the version needs one (2.0.1). */
  begun?: { done: number; failed: number; firstError?: string };
  hb?: { p50: number; p99: number };
  burst?: { p50: number; p99: number; s: number; n: number };
  steady?: { p50: number; p99: number; n: number };
  /**
   * `cpuMs`: workerd's CPU per status within the burst (the answers, and what they hand on
   * meanwhile); `landedCpuMs`: until it has all landed; `d1`: the product's D1 statements and
   * round trips per status.
   */
  status?: { p50: number; p99: number; perSecond: number; n: number; cpuMs?: number; landedCpuMs?: number; d1?: { statements: number; roundTrips: number } };
  meter?: { perSecond: number; failed: number };
  /** The medians of the pairs' ratios, product ÷ echo DO, of the phases run in turn (`measure` with two workers). */
  pairs?: Record<"hb" | "burst" | "status", { p50: number; p99: number }>;
  /** Each pair's MeterValues ratio, product ÷ echo DO, in the order run (`meterPairs`). */
  meterRatios?: number[];
  cpuPer1000?: { heartbeat: number; meter?: number };
  remoteStarts?: RemoteStarts;
  /** Files the server's workerd held open with every charger connected. */
  openFiles?: OpenFiles;
  firstError?: string;
}

interface Server {
  cpu?: () => number;
  /** The worker's own D1 counters (the product's). */
  counters?: () => Promise<Counters>;
  files?: () => OpenFiles;
  /** Files other than sockets it holds before any charger connects. */
  resting?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until what the previous phase handed on has landed: at least SETTLE_MS, then until the
 * server's workerd uses under a tenth of a core over half a second (a large fleet's D1 batches
 * can take longer than SETTLE_MS on two cores), at most IDLE_WAIT_MS.
 */
async function settled(server?: Server) {
  await sleep(SETTLE_MS);
  const cpu = server?.cpu;
  if (!cpu) return;
  const until = performance.now() + IDLE_WAIT_MS;
  for (let before = cpu(); performance.now() < until; ) {
    await sleep(500);
    const now = cpu();
    if (now - before < 0.05) return;
    before = now;
  }
}

/**
 * Until the Durable Objects the phases before woke are asleep again (workerd evicts an idle
 * hibernating object, and closes its SQLite files, about ten seconds after its last message):
 * until the server's files are about its sockets again, at most IDLE_WAIT_MS. A charger on a
 * 60 s heartbeat finds its object asleep, and so does each Heartbeat and status phase, on the
 * product and the echo DO alike (without this the echo DO, which settles sooner, met its objects
 * still awake).
 */
async function asleep(server: Server, chargers: number) {
  const { files, resting = 0 } = server;
  if (!files) return;
  // Three SQLite files per awake object; 2 % of the fleet (and the D1 and hub objects) may stay awake.
  const awake = () => {
    const now = files();
    return now.files - now.sockets - resting;
  };
  for (const until = performance.now() + IDLE_WAIT_MS; performance.now() < until && awake() > 3 * Math.max(10, chargers * 0.02); ) await sleep(1000);
}

/** Where one worker's fleet connects, and the worker's workerd as the bench reads it. */
interface Target {
  url: string;
  server: Server;
}

interface Round extends Awaited<ReturnType<Load["run"]>> {
  cpu: number;
  /** With `landing`: workerd's CPU until what the round handed on has landed, and the D1 statements and round trips it took. */
  landed?: { cpu: number; d1?: { statements: number; roundTrips: number } };
  p50: number;
  p99: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const medianRound = (rounds: Round[]) => [...rounds].sort((a, b) => a.p50 - b.p50)[Math.floor(rounds.length / 2)];

/**
 * One size on one worker, or on two in turn. With two, both fleets stay connected (the load
 * client's `swap`), and each phase's rounds alternate, the first worker's then the second's, each
 * from sleep: the machine's speed drifts over the minutes one worker's rounds take, and the
 * pairs' ratios hold where the two workers' medians did not (docs/performance.md "Small fleets,
 * in pairs"). Each worker's figures are its round with the median p50; the first worker's
 * `pairs` holds the medians of the pairs' ratios. Ends with the first worker's fleet connected
 * and the second's set aside.
 * `version`: the OCPP version the chargers speak (tests/bench/load-client.ts frames each phase in it).
 * `awake`: how many of the chargers' Durable Objects the server's workerd can hold awake at once.
 * `meter`: whether readings are measured here (the Node echo's; the two workers' run in
 * pairs, `meterPairs`).
 */
async function measure(
  load: Load,
  targets: Target[],
  chargers: BenchCharger[],
  version: OcppVersion,
  steadyState: boolean,
  awake: number,
  meter = false,
): Promise<Figures[]> {
  const figures: Figures[] = targets.map(() => ({}));
  let current = 0;
  const turnTo = async (t: number) => {
    if (t === current) return;
    await load.run(() => ({ kind: "swap" }));
    current = t;
  };
  for (const [t, { url, server }] of targets.entries()) {
    if (t > 0) await load.run(() => ({ kind: "swap" }));
    current = t;
    const connect = await load.connect(url, chargers, version);
    Object.assign(figures[t], {
      connectS: connect.ms / 1000,
      connectBoot: { p50: percentile(connect.samples, 50), p99: percentile(connect.samples, 99) },
      connectFailed: connect.failed,
      firstError: connect.firstError,
      openFiles: server.files?.(),
    });
  }
  const settledAll = async () => {
    for (const { server } of targets) await settled(server);
  };
  const reach = Math.min(chargers.length, awake);
  /**
   * A phase run `roundsFor` times on each worker in turn, each round from sleep: each worker's
   * median round, with the workerd CPU seconds it took, and with two workers the medians of the
   * pairs' ratios.
   */
  const inTurn = async (command: Parameters<Load["run"]>[0], landing = false) => {
    const rounds: Round[][] = targets.map(() => []);
    for (let round = 0; round < roundsFor(chargers.length); round++) {
      for (const [t, { server }] of targets.entries()) {
        await turnTo(t);
        await asleep(server, chargers.length);
        const d1Before = landing ? await server.counters?.() : undefined;
        const before = server.cpu?.() ?? 0;
        const report = await load.run(command);
        const cpu = (server.cpu?.() ?? 0) - before;
        let landed: Round["landed"];
        if (landing) {
          await settled(server);
          const d1 = d1Before && server.counters ? perEach(d1Before, await server.counters(), Math.max(1, report.done)) : undefined;
          landed = { cpu: (server.cpu?.() ?? 0) - before, d1 };
        }
        rounds[t].push({ ...report, cpu, landed, p50: percentile(report.samples, 50), p99: percentile(report.samples, 99) });
      }
    }
    const ratios = (key: "p50" | "p99") => median(rounds[0].map((r, i) => r[key] / rounds[1][i][key]));
    const pair = targets.length === 2 ? { p50: ratios("p50"), p99: ratios("p99") } : undefined;
    return { medians: rounds.map(medianRound), pair };
  };
  /** Every charger within reach at once. */
  const burst = (action: "Heartbeat" | "StatusNotification") =>
    inTurn((i, of) => ({ kind: "burst", action, count: Math.ceil(reach / of) }), action === "StatusNotification");
  // What a phase hands to D1 lands up to two seconds later, in the same workerd: each phase waits
  // for the previous one's writes, so its time and CPU are its own (docs/performance.md).
  await settledAll();
  const heartbeats = STORM
    ? undefined
    : {
        hb: await inTurn((i, of) => ({ kind: "heartbeats", count: Math.ceil(HEARTBEAT_SAMPLES / of), inFlight: Math.ceil(HEARTBEATS_IN_FLIGHT / of) })),
        burst: await burst("Heartbeat"),
      };
  if (heartbeats) {
    const [hb, hbBurst] = [heartbeats.hb.medians, heartbeats.burst.medians];
    for (const [t, { server }] of targets.entries()) {
      const f = figures[t];
      f.hb = { p50: hb[t].p50, p99: hb[t].p99 };
      f.burst = { p50: hbBurst[t].p50, p99: hbBurst[t].p99, s: hbBurst[t].ms / 1000, n: hbBurst[t].done + hbBurst[t].failed };
      if (server.cpu) f.cpuPer1000 = { heartbeat: ((hb[t].cpu + hbBurst[t].cpu) / (hb[t].done + hbBurst[t].done)) * 1000 };
    }
  }
  if (steadyState) {
    for (const t of targets.keys()) {
      await turnTo(t);
      const steady = await load.run(() => ({ kind: "steady", intervalS: STEADY_INTERVAL_S, durationS: STEADY_INTERVAL_S }));
      figures[t].steady = { p50: percentile(steady.samples, 50), p99: percentile(steady.samples, 99), n: steady.samples.length };
    }
  }
  await settledAll();
  const { medians: status, pair: statusPair } = await burst("StatusNotification");
  for (const t of targets.keys()) {
    const answered = status[t].done;
    figures[t].status = {
      p50: status[t].p50,
      p99: status[t].p99,
      perSecond: answered / (status[t].ms / 1000),
      n: answered + status[t].failed,
      cpuMs: targets[t].server.cpu && answered > 0 ? (status[t].cpu / answered) * 1000 : undefined,
      landedCpuMs: targets[t].server.cpu && status[t].landed && answered > 0 ? (status[t].landed.cpu / answered) * 1000 : undefined,
      d1: status[t].landed?.d1,
    };
  }
  const [hbPair, burstPair] = [heartbeats?.hb.pair, heartbeats?.burst.pair];
  if (hbPair && burstPair && statusPair) figures[0].pairs = { hb: hbPair, burst: burstPair, status: statusPair };
  if (meter && chargers.length <= METER_UP_TO) {
    for (const [t, { server }] of targets.entries()) {
      await turnTo(t);
      const { perSecond, failed } = await meterRound(load, server);
      figures[t].meter = { perSecond, failed };
    }
  }
  await turnTo(0);
  return figures;
}

/** One round of readings (MeterValues, or 2.0.1's TransactionEvent Updated) from the fleet connected now, after the warm-up that wakes its objects; with the server's workerd CPU seconds per 1 000. */
async function meterRound(load: Load, server: Server) {
  await settled(server);
  await load.run(() => ({ kind: "meter", seconds: METER_WARMUP_SECONDS }));
  const before = server.cpu?.();
  const run = await load.run(() => ({ kind: "meter", seconds: METER_SECONDS }));
  const cpu = server.cpu && before !== undefined ? ((server.cpu() - before) / run.done) * 1000 : undefined;
  return { perSecond: run.done / (run.ms / 1000), failed: run.failed, cpu };
}

/**
 * Readings of the product and of the echo DO in turn, P E P E P E, each round after a warm-up
 * that wakes the objects: the machine's speed drifts over the minutes between the two workers'
 * other phases, and three runs of the same code, MeterValues measured once on each worker
 * minutes apart, put the product at 0.74 to 0.98 of the echo DO. The ratio shown is the median
 * of the pairs' ratios (docs/performance.md "MeterValues in pairs"). Starts with the echo DO's
 * fleet connected and the product's set aside; ends with both closed, their transactions ended.
 */
async function meterPairs(load: Load, servers: { product: Server; echo: Server }, product: Figures, echo: Figures) {
  const rounds: Record<"product" | "echo", { perSecond: number; failed: number; cpu?: number }[]> = { product: [], echo: [] };
  for (let pair = 0; pair < METER_PAIRS; pair++) {
    for (const side of ["product", "echo"] as const) {
      await load.run(() => ({ kind: "swap" }));
      rounds[side].push(await meterRound(load, servers[side]));
    }
  }
  for (const [side, f] of [["product", product], ["echo", echo]] as const) {
    const mine = rounds[side];
    f.meter = { perSecond: median(mine.map((r) => r.perSecond)), failed: mine.reduce((n, r) => n + r.failed, 0) };
    const cpus = mine.flatMap((r) => (r.cpu === undefined ? [] : [r.cpu]));
    if (f.cpuPer1000 && cpus.length) f.cpuPer1000.meter = median(cpus);
  }
  product.meterRatios = rounds.product.map((r, i) => r.perSecond / rounds.echo[i].perSecond);
  for (const side of ["echo", "product"]) {
    await load.run(() => ({ kind: "end" }));
    await load.run(() => ({ kind: "close" }));
    if (side === "echo") await load.run(() => ({ kind: "swap" }));
  }
}

// ── the product's own figures ───────────────────────────────────────────────────────────────

interface RemoteStarts {
  count: number;
  p50: number;
  p99: number;
  readP50: number;
  readP99: number;
  refused: number;
}

/**
 * REMOTE_STARTS remote starts, REMOTE_STARTS_IN_FLIGHT at a time, one per charger in each round,
 * after `asleep` (the chargers' objects asleep): each start is followed by a read in the same
 * lane, so both meet the same machine; the difference of their percentiles is what the start
 * adds. `start` answers whether the charger accepted.
 */
async function remoteStarts<P extends BenchCharger>(
  points: P[],
  start: (p: P) => Promise<boolean>,
  read: (p: P) => Promise<unknown>,
  asleep: () => Promise<void>,
): Promise<RemoteStarts> {
  const starts: number[] = [];
  const reads: number[] = [];
  let refused = 0;
  for (let done = 0; done < REMOTE_STARTS && points.length > 0; ) {
    const round = points.slice(0, Math.min(points.length, REMOTE_STARTS - done));
    await asleep();
    await inBatches(round, REMOTE_STARTS_IN_FLIGHT, async (p) => {
      // A start or read the loaded machine drops (a reset connection) counts as refused, not as the end of the bench.
      let t = performance.now();
      if (!(await start(p).catch(() => false))) refused++;
      starts.push(ms(t));
      t = performance.now();
      if ((await read(p).then(() => true, () => false)) === false) refused++;
      reads.push(ms(t));
    });
    done += round.length;
  }
  return {
    count: starts.length,
    p50: percentile(starts, 50),
    p99: percentile(starts, 99),
    readP50: percentile(reads, 50),
    readP99: percentile(reads, 99),
    refused,
  };
}

/** workerd milliseconds of CPU per request, `count` requests one at a time. */
async function cpuPerRequest(server: Server, count: number, request: (i: number) => Promise<unknown>): Promise<number> {
  const before = server.cpu?.() ?? 0;
  for (let i = 0; i < count; i++) await request(i);
  return (((server.cpu?.() ?? 0) - before) * 1000) / count;
}

/**
 * The echo DO's remote starts beside the product's: its `/read` and the part of its `/start`
 * before the object spin the CPU the product's read took (`readCpuMs`), as many pieces as the
 * product's read has D1 statements between its awaits (tests/bench/echo/worker.ts). The spin is
 * drawn through two measured points, then corrected once by a third.
 */
async function echoStarts(origin: string, server: Server, points: BenchCharger[], readCpuMs: number) {
  const CALIBRATION = 50;
  const STEP = 4_000_000;
  const at = (spin: number) => cpuPerRequest(server, CALIBRATION, () => fetch(`${origin}/read?spin=${spin}&pieces=${ECHO_READ_PIECES}`).then((r) => r.arrayBuffer()));
  // Objects the phases before woke go to sleep first: their checkpoints would count as the read's CPU.
  await asleep(server, points.length);
  const base = await at(0);
  const perStep = ((await at(STEP)) - base) / STEP;
  let spin = perStep > 0 ? Math.max(0, Math.round((readCpuMs - base) / perStep)) : 0;
  let echoReadCpuMs = await at(spin);
  if (spin > 0 && echoReadCpuMs > base) {
    spin = Math.max(0, Math.round((spin * (readCpuMs - base)) / (echoReadCpuMs - base)));
    echoReadCpuMs = await at(spin);
  }
  const query = `spin=${spin}&pieces=${ECHO_READ_PIECES}`;
  const figures = await remoteStarts(
    points,
    async (p) => (await fetch(`${origin}/start/${p.serial}?${query}`).then(async (r) => (await r.json()) as { answer?: { status?: string } })).answer?.status === "Accepted",
    () => fetch(`${origin}/read?${query}`).then((r) => r.arrayBuffer()),
    () => asleep(server, points.length),
  );
  return { ...figures, spin, readCpuMs: echoReadCpuMs };
}

/**
 * A strict ocpp-rpc client of each version (every frame checked both ways against the version's
 * official schemas) runs a whole session on each of `points`: what the light clients send, and
 * the transaction around it.
 */
const STRICT_SESSIONS: Record<OcppVersion, (p: BenchPoint, endpoint: string) => { client: RpcConnection; session: () => Promise<void> }> = {
  "1.6": (p, endpoint) => {
    const client = new OcppClient({ endpoint, identity: p.serial, password: p.key, strictMode: true, callTimeoutMs: 60_000 });
    const session = async () => {
      const boot = await client.call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "Bench" });
      if (boot.status !== "Accepted") throw new Error(`boot ${boot.status}`);
      await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available" });
      await client.call("Heartbeat", {});
      const { transactionId } = await client.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: new Date().toISOString() });
      await client.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: "100" }] }] });
      await client.call("StopTransaction", { transactionId, meterStop: 200, timestamp: new Date().toISOString() });
    };
    return { client, session };
  },
  "2.0.1": (p, endpoint) => {
    const client = new Ocpp201Client({ endpoint, identity: p.serial, password: p.key, strictMode: true, callTimeoutMs: 60_000 });
    const session = async () => {
      // B01, G01, G02, then E03 (card first, the operator's token), E02 with J02 (periodic readings), E06.
      const boot = await client.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Plugdesk", model: "Bench" } });
      if (boot.status !== "Accepted") throw new Error(`boot ${boot.status}`);
      await client.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId: 1, connectorId: 1 });
      await client.call("Heartbeat", {});
      const transactionId = crypto.randomUUID();
      const started = await client.call("TransactionEvent", startedBy({ idToken: OPERATOR_ID_TOKEN, type: "Central" }, transactionId));
      if (started.idTokenInfo?.status !== "Accepted") throw new Error(`idToken ${started.idTokenInfo?.status ?? "without an answer"}`);
      await client.call("TransactionEvent", {
        eventType: "Updated",
        timestamp: at(),
        triggerReason: "MeterValuePeriodic",
        seqNo: 1,
        transactionInfo: { transactionId },
        meterValue: [{ timestamp: at(), sampledValue: [energySample(100, "Sample.Periodic"), { value: 11_000, measurand: "Power.Active.Import", unitOfMeasure: { unit: "W" } }] }],
      });
      await client.call("TransactionEvent", {
        eventType: "Ended",
        timestamp: at(),
        triggerReason: "StopAuthorized",
        seqNo: 2,
        transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "Local" },
        meterValue: energy(200, "Transaction.End"),
      });
    };
    return { client, session };
  },
};

async function strictSample(version: OcppVersion, endpoint: string, points: BenchPoint[]) {
  let valid = 0;
  const errors: string[] = [];
  for (const p of points) {
    const { client, session } = STRICT_SESSIONS[version](p, endpoint);
    try {
      await client.connect();
      await session();
      // Strict mode turns an invalid frame of ours into a rejected call, and one of the server's into a recorded failure.
      if (client.validationFailures.length) throw new Error(client.validationFailures.map((f) => `${f.method}: ${f.error.message}`).join(", "));
      valid++;
    } catch (error) {
      errors.push(`${p.serial}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  return { valid, of: points.length, errors };
}

// ── the run ─────────────────────────────────────────────────────────────────────────────────

/** The figures of one size and one version; `of16`: the 1.6 fleet's of the same size, beside a 2.0.1 fleet's. */
function printSize(
  version: OcppVersion,
  size: number,
  { product, echo, node, of16 }: { product: Figures; echo?: Figures; node?: Figures; of16?: { product: Figures; echo?: Figures } },
  extra: string[],
) {
  const row = (label: string, p: string, e: string, r: string, n = "") =>
    console.log(`  ${label.padEnd(40)} ${p.padStart(18)} ${e.padStart(18)} ${r.padStart(9)} ${n.padStart(18)}`);
  console.log(`── ${size} chargers, OCPP ${version} ${"─".repeat(80)}`);
  row("", "product", "echo DO", "÷ echo", node ? "Node ws echo" : of16 ? "2.0.1 ÷ 1.6" : "");
  const failed = (f?: Figures) => (f?.connectFailed ? ` (${f.connectFailed} failed)` : "");
  const pair = (x?: { p50: number; p99: number }) => `${fmt(x?.p50)} / ${fmt(x?.p99)} ms`;
  const pairRatio = (a?: { p50: number; p99: number }, b?: { p50: number; p99: number }) => `${ratio(a?.p50, b?.p50)}/${ratio(a?.p99, b?.p99)}`;
  /** The Node echo's figure where it ran (with the 1.6 fleet: it is the machine's ceiling, whatever the version). */
  const atNode = (figure: (n: Figures) => string) => (node ? figure(node) : "");
  row(
    `connect + boot + ${BOOT_STATUSES[version].length} statuses (${CONNECTS_IN_FLIGHT} in flight)`,
    `${fmt(product.connectS, 2)} s${failed(product)}`,
    `${fmt(echo?.connectS, 2)} s${failed(echo)}`,
    ratio(product.connectS, echo?.connectS),
    of16 ? ratio(product.connectS, of16.product.connectS) : atNode((n) => `${fmt(n.connectS, 2)} s`),
  );
  row(
    `  connect + boot per charger, p50/p99`,
    pair(product.connectBoot),
    pair(echo?.connectBoot),
    pairRatio(product.connectBoot, echo?.connectBoot),
    of16 ? pairRatio(product.connectBoot, of16.product.connectBoot) : atNode((n) => pair(n.connectBoot)),
  );
  if (of16) {
    console.log(
      `    the 1.6 fleet of this size: product ${fmt(of16.product.connectS, 2)} s, per charger ${pair(of16.product.connectBoot)}; ` +
        `echo DO ${fmt(of16.echo?.connectS, 2)} s, per charger ${pair(of16.echo?.connectBoot)}`,
    );
  }
  // Run in pairs: each worker's median round, and the median of the pairs' ratios.
  const inPairs = (key: keyof NonNullable<Figures["pairs"]>, a?: { p50: number; p99: number }, b?: { p50: number; p99: number }) => {
    const pairs = product.pairs?.[key];
    return pairs ? `${fmt(pairs.p50, 2)}/${fmt(pairs.p99, 2)}` : pairRatio(a, b);
  };
  const rounds = product.pairs ? `, ${roundsFor(size)} pairs` : roundsFor(size) > 1 ? `, median of ${roundsFor(size)}` : "";
  row(`Heartbeat p50/p99, ${HEARTBEATS_IN_FLIGHT} in flight${rounds}`, pair(product.hb), pair(echo?.hb), inPairs("hb", product.hb, echo?.hb), atNode((n) => pair(n.hb)));
  const atOnce = (n?: number) => (n === undefined || n >= size ? `all ${size}` : `${n} of ${size}`);
  row(`Heartbeat p50/p99, ${atOnce(product.burst?.n)} at once${rounds}`, pair(product.burst), pair(echo?.burst), inPairs("burst", product.burst, echo?.burst), atNode((n) => pair(n.burst)));
  if (product.steady) {
    row(`Heartbeat p50/p99, every ${STEADY_INTERVAL_S} s (steady)`, pair(product.steady), pair(echo?.steady), pairRatio(product.steady, echo?.steady));
  }
  row(
    `StatusNotification p50/p99, ${atOnce(product.status?.n)} at once${rounds}`,
    pair(product.status),
    pair(echo?.status),
    inPairs("status", product.status, echo?.status),
    atNode((n) => pair(n.status)),
  );
  row(
    `  the same, answered per second`,
    `${fmt(product.status?.perSecond, 0)} /s`,
    `${fmt(echo?.status?.perSecond, 0)} /s`,
    ratio(product.status?.perSecond, echo?.status?.perSecond),
    atNode((n) => `${fmt(n.status?.perSecond, 0)} /s`),
  );
  if (product.status?.cpuMs !== undefined) {
    row(`  workerd CPU ms per status, within the burst`, fmt(product.status.cpuMs, 2), fmt(echo?.status?.cpuMs, 2), ratio(product.status.cpuMs, echo?.status?.cpuMs));
    row(`  the same, until it has landed`, fmt(product.status.landedCpuMs, 2), fmt(echo?.status?.landedCpuMs, 2), ratio(product.status.landedCpuMs, echo?.status?.landedCpuMs));
  }
  if (product.status?.d1) console.log(`    D1 per status: ${fmt(product.status.d1.statements, 2)} statements, ${fmt(product.status.d1.roundTrips, 2)} round trips`);
  if (product.begun) {
    const { done, failed: refused, firstError } = product.begun;
    console.log(`  TransactionEvent Started, the readings' transactions: ${done} accepted${refused ? `, ${refused} failed (${firstError})` : ""}`);
  }
  if (product.meter) {
    row(
      `${READING[version]}/s (4 values), all at once, ${METER_PAIRS} pairs`,
      `${fmt(product.meter.perSecond, 0)} /s${product.meter.failed ? ` (${product.meter.failed} failed)` : ""}`,
      `${fmt(echo?.meter?.perSecond, 0)} /s`,
      product.meterRatios ? fmt(median(product.meterRatios), 2) : ratio(product.meter.perSecond, echo?.meter?.perSecond),
      atNode((n) => `${fmt(n.meter?.perSecond, 0)} /s`),
    );
    if (product.meterRatios) console.log(`    each pair, product ÷ echo DO, in turn: ${product.meterRatios.map((r) => fmt(r, 2)).join(", ")} (the median above)`);
  }
  const added = (r?: RemoteStarts) => (r ? { p50: r.p50 - r.readP50, p99: r.p99 - r.readP99 } : undefined);
  const refused = (r?: RemoteStarts) => (r?.refused ? ` (${r.refused} refused)` : "");
  if (product.remoteStarts) {
    const [a, b] = [added(product.remoteStarts), added(echo?.remoteStarts)];
    row(`remote start (${product.remoteStarts.count}, ${REMOTE_STARTS_IN_FLIGHT} in flight), p50/p99`, pair(product.remoteStarts), pair(echo?.remoteStarts), pairRatio(product.remoteStarts, echo?.remoteStarts));
    row(`  added over a read, p50/p99`, `${pair(a)}${refused(product.remoteStarts)}`, `${pair(b)}${refused(echo?.remoteStarts)}`, pairRatio(a, b));
  }
  row(`workerd CPU s per 1 000 Heartbeats`, fmt(product.cpuPer1000?.heartbeat, 2), fmt(echo?.cpuPer1000?.heartbeat, 2), ratio(product.cpuPer1000?.heartbeat, echo?.cpuPer1000?.heartbeat));
  if (product.cpuPer1000?.meter !== undefined) {
    row(`workerd CPU s per 1 000 ${READING[version]}`, fmt(product.cpuPer1000.meter, 2), fmt(echo?.cpuPer1000?.meter, 2), ratio(product.cpuPer1000.meter, echo?.cpuPer1000?.meter));
  }
  for (const line of extra) console.log(`  ${line}`);
  if (product.firstError) console.log(`  first failure (product): ${product.firstError}`);
  if (echo?.firstError) console.log(`  first failure (echo DO): ${echo.firstError}`);
  console.log("");
}

/** Files the worker's workerd holds per connected charger: asleep (its socket), awake (its Durable Object's SQLite files too). */
interface PerCharger {
  asleep: number;
  awake: number;
}
/** What a first size assumes before it measures (workerd here: one socket asleep, three SQLite files more awake). */
const PER_CHARGER_UNMEASURED: PerCharger = { asleep: 1.1, awake: 4.2 };
/** Objects a size must be able to hold awake at once: the connects of the last ten seconds, the Heartbeats in flight. */
const AWAKE_NEEDED = 1000;
/**
 * The most Durable Objects a burst wakes at once. One workerd process gives all its SQLite
 * databases 512 MiB together (workerd's process-wide hard heap limit) and an awake object's
 * database takes its share: 2 000 objects awake at once ran clean here, the product's and the
 * echo's, and a burst of 4 300 product objects ran out ("SQLITE_NOMEM")
 * (docs/performance.md "Open files, and wrangler's proxy").
 */
const AWAKE_AT_MOST = 2000;

/**
 * A workerd process that runs out of open files dies ("accept: Too many open files"). Every
 * connected charger holds its socket; an awake Durable Object holds its SQLite files as well, until
 * workerd puts it to sleep about ten seconds after its last message. So a size fits when its
 * sockets leave room under 90 % of the limit for AWAKE_NEEDED objects awake, and its bursts reach
 * as many chargers as can be awake at once. A size that does not fit is run as the largest that
 * does, rounded down to 500, and the run says so (docs/performance.md "Open files, and wrangler's proxy").
 */
function plan(planned: number, limit: number, base: number, per: PerCharger): { size: number; awake: number } {
  const room = limit * 0.9 - base;
  const storage = Math.max(0.1, per.awake - per.asleep);
  const awakeAt = (size: number) => Math.min(AWAKE_AT_MOST, Math.floor((room - size * per.asleep) / storage));
  if (awakeAt(planned) >= AWAKE_NEEDED) return { size: planned, awake: awakeAt(planned) };
  const size = Math.max(0, Math.floor((room - AWAKE_NEEDED * storage) / per.asleep / 500) * 500);
  console.log(
    `${planned} chargers would leave one workerd room for ${Math.max(0, awakeAt(planned))} awake Durable Objects under 90 % of this machine's open-file limit of ${limit} ` +
      `(\`ulimit -Hn\`; ${fmt(per.asleep)} files per charger asleep, ${fmt(per.awake)} awake); ${size > 0 ? `running ${size} instead` : "skipped"}.\n`,
  );
  return { size, awake: awakeAt(size) };
}

/** The two workers a fleet is measured on, and the product's D1 counters. */
interface Workers {
  product: Target;
  echo: Target;
  counters: () => Promise<Counters>;
}

/** Every charger connected now starts the transaction its readings belong to, where its version wants one (2.0.1); undefined where none does. */
async function begin(load: Load): Promise<Figures["begun"]> {
  const { done, failed, firstError } = await load.run(() => ({ kind: "begin", idToken: OPERATOR_ID_TOKEN }));
  return done + failed > 0 ? { done, failed, firstError } : undefined;
}

/**
 * One version's fleet of one size on the product and on the echo DO: the phases of `measure` on
 * both (in pairs for a small fleet, else one worker after the other), `productOnly` on the
 * product's fleet before it is set aside (1.6: whole sessions and remote starts), `echoOnly` on
 * the echo DO's once its phases are measured, then, up to METER_UP_TO chargers, both fleets'
 * readings in pairs (`meterPairs`), each fleet's transactions started first where its version
 * puts readings in one (2.0.1: a TransactionEvent Started naming the operator's id token, OCPP
 * 2.0.1 Part 2 E03). Ends with both fleets closed. The product's D1 use per charger is over the
 * phases of `measure`, boots included.
 */
/** A few transactions of the fleet: what each costs in D1 statements and round trips. */
async function d1PerTransaction(load: Load, workers: Workers, server: Server, size: number): Promise<string> {
  const before = await workers.counters();
  const tx = await load.run((i, of) => ({ kind: "transactions", count: Math.ceil(Math.min(TRANSACTIONS, size) / of), inFlight: 10, idTag: OPERATOR_ID_TOKEN }));
  await settled(server);
  const each = perEach(before, await workers.counters(), Math.max(1, tx.done));
  return `D1 per transaction (Authorize, start, 1 MeterValues, stop, 4 statuses; ${tx.done} sessions${tx.failed ? `, ${tx.failed} failed: ${tx.firstError}` : ""}): ${fmt(each.statements)} statements, ${fmt(each.roundTrips)} round trips`;
}

/** What issue 30's storm bar is judged on, per size and run: statuses answered per second, and what a start adds over a read at p50. */
interface StormRatios {
  size: number;
  statusPerSecond?: number;
  startAddedP50?: { product: number; echo: number };
}

function stormRatiosOf(size: number, product: Figures, echo: Figures): StormRatios {
  const added = (r?: RemoteStarts) => (r ? r.p50 - r.readP50 : undefined);
  const [p, e] = [added(product.remoteStarts), added(echo.remoteStarts)];
  return {
    size,
    statusPerSecond: product.status && echo.status ? product.status.perSecond / echo.status.perSecond : undefined,
    startAddedP50: p !== undefined && e !== undefined ? { product: p, echo: e } : undefined,
  };
}

/** The median over the runs of each size's storm figures. */
function printStormMedians(all: StormRatios[]) {
  console.log(`── medians of ${RUNS} runs, OCPP 1.6 ${"─".repeat(80)}`);
  for (const size of [...new Set(all.map((r) => r.size))]) {
    const runs = all.filter((r) => r.size === size);
    const list = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined);
    const statuses = list(runs.map((r) => r.statusPerSecond));
    const starts = runs.flatMap((r) => (r.startAddedP50 ? [r.startAddedP50] : []));
    console.log(
      `  ${size} chargers: StatusNotification answered per second ÷ echo ${fmt(median(statuses), 2)} (${statuses.map((v) => fmt(v, 2)).join(", ")}); ` +
        `a remote start adds at p50: product ${fmt(median(starts.map((s) => s.product)))} ms, echo DO ${fmt(median(starts.map((s) => s.echo)))} ms ` +
        `(${starts.map((s) => `${fmt(s.product)}/${fmt(s.echo)}`).join(", ")})`,
    );
  }
}

async function onBothWorkers(
  load: Load,
  workers: Workers,
  version: OcppVersion,
  chargers: BenchPoint[],
  { steadyState, awake, productOnly, echoOnly }: { steadyState: boolean; awake: number; productOnly?: (p: Figures) => Promise<void>; echoOnly?: (e: Figures) => Promise<void> },
) {
  const size = chargers.length;
  const before = await workers.counters();
  // A small fleet's phases run on both workers in turn; a large one's on each in its own time,
  // as two fleets of it would not fit the open-file limit.
  const inPairs = roundsFor(size) > 1;
  const [product, pairedEcho] = await measure(load, inPairs ? [workers.product, workers.echo] : [workers.product], chargers, version, steadyState, awake);
  await settled(workers.product.server);
  // Read after the boots' batches landed.
  const d1PerCharger = perEach(before, await workers.counters(), size);
  await productOnly?.(product);
  // With readings to measure, the product's fleet stays connected, set aside, for `meterPairs`.
  const paired = !STORM && size <= METER_UP_TO;
  if (paired) product.begun = await begin(load);
  await load.run(() => ({ kind: paired ? "swap" : "close" }));
  const [echo] = pairedEcho ? [pairedEcho] : await measure(load, [workers.echo], chargers, version, steadyState, awake);
  await echoOnly?.(echo);
  if (paired) {
    echo.begun = await begin(load);
    await meterPairs(load, { product: workers.product.server, echo: workers.echo.server }, product, echo);
  } else {
    await load.run(() => ({ kind: "close" }));
  }
  // The whole fleet phase, boots included, divided per charger (its Heartbeats and readings add nothing if the hot path keeps off D1).
  const d1Line = `D1 per charger for the whole fleet phase (boot, ${BOOT_STATUSES[version].length} statuses, online flag, every burst above): ${fmt(d1PerCharger.statements)} statements, ${fmt(d1PerCharger.roundTrips)} round trips`;
  return { product, echo, d1Line };
}

async function main(limit: number) {
  const sizes = SIZES.filter((size) => size * 2 + 2000 <= limit);
  const largest = Math.max(...sizes);
  console.log(`Plugdesk OCPP bench${QUICK ? " --quick" : ""} (${cpus().length} cores, open files ${limit}; loopback; figures, never a verdict)`);
  const loadBefore = loadAverage();
  console.log(`load average before: ${loadBefore}\n`);
  const t0 = performance.now();

  // The product's state, with the bench's chargers of each version, prepared before it is served.
  const fleets = await prepareBenchState(STATE, largest + STRICT_SAMPLE, VERSIONS);
  console.log(`state: ${STATE}, ${VERSIONS.map((v) => `${fleets[v].length} OCPP ${v}`).join(" and ")} bench chargers written in ${fmt(ms(t0) / 1000)} s`);

  const [product, echoDo, nodeEcho, load] = await Promise.all([
    // `--hold-crons`: npm start fires no cron while the bench runs (a deployment runs them in invocations of their own).
    serveProduct(STATE, { keepState: true, env: { PLUGDESK_BENCH_COUNTERS: "on", ...(process.argv.includes("--hold-crons") && { PLUGDESK_CRONS: "off" }) } }),
    serveEchoDo(join(STATE, "echo")),
    serveNodeEcho(),
    Load.start(CLIENT_PROCESSES),
  ]);
  started.product = product;
  // Chargers connect to the workerd that runs each worker, past wrangler dev's proxy (tests/bench/workerd.ts).
  const [productWorker, echoWorker] = await Promise.all([
    workerOrigin(product.group, product.origin, COUNTERS_PATH, async (res) => res.ok && "d1" in ((await res.json()) as object)),
    workerOrigin(echoDo.group, echoDo.origin, "/", async (res) => res.ok && (await res.text()) === "echo"),
  ]);
  const endpoint = `${productWorker.replace(/^http/, "ws")}/ocpp`;
  const echoEndpoint = `${echoWorker.replace(/^http/, "ws")}/ocpp`;
  console.log(
    `product: ${product.origin} (npm start), chargers to its worker at ${productWorker}; echo DO: ${echoDo.origin} (wrangler dev), chargers to ${echoWorker}; ` +
      `Node ws echo: ${nodeEcho}; ${CLIENT_PROCESSES} load processes`,
  );
  console.log(`everything up after ${fmt(ms(t0) / 1000)} s\n`);

  for (const version of VERSIONS) {
    const strict = await strictSample(version, endpoint, fleets[version].slice(largest));
    console.log(`strict ocpp-rpc sample, OCPP ${version}: ${strict.valid}/${strict.of} whole sessions valid both ways${strict.errors.length ? ` (${strict.errors.join("; ")})` : ""}`);
  }
  console.log("");
  const api = await Api.login(product.origin);

  const productServer: Server = { cpu: () => workerdCpuSeconds(product.group), files: () => workerdOpenFiles(product.group), counters: () => d1Counters(product.origin) };
  const echoServer: Server = { cpu: () => workerdCpuSeconds(echoDo.group), files: () => workerdOpenFiles(echoDo.group) };
  const baseFiles = { product: productServer.files!(), echo: echoServer.files!() };
  productServer.resting = baseFiles.product.files - baseFiles.product.sockets;
  echoServer.resting = baseFiles.echo.files - baseFiles.echo.sockets;
  const workers: Workers = { product: { url: endpoint, server: productServer }, echo: { url: echoEndpoint, server: echoServer }, counters: () => d1Counters(product.origin) };
  let perCharger: PerCharger | undefined;
  let previous = 0;
  const stormRatios: StormRatios[] = [];
  // `--runs N`: every size N times over, on the same servers.
  const schedule = Array.from({ length: RUNS }, (_, run) => sizes.map((planned, index) => ({ run, index, planned }))).flat();
  for (const { run, index, planned } of schedule) {
    if (index === 0) previous = 0;
    const { size, awake } = plan(planned, limit, Math.max(baseFiles.product.files, baseFiles.echo.files), perCharger ?? PER_CHARGER_UNMEASURED);
    if (size <= previous) continue;
    previous = size;
    if (RUNS > 1) console.log(`run ${run + 1} of ${RUNS}`);
    // Measured right after the connects, when the objects of the last ten seconds are awake; the
    // largest figure so far plans the next size.
    const measured = (f: Figures, base: OpenFiles, key: keyof OpenFiles) => (f.openFiles ? (f.openFiles[key] - base[key]) / size : 0);
    const files = (f: Figures) => (f.openFiles ? `${f.openFiles.files} (${f.openFiles.sockets} sockets)` : "–");
    const openFiles = (p: Figures, e: Figures) => {
      const seen: PerCharger = {
        asleep: Math.max(measured(p, baseFiles.product, "sockets"), measured(e, baseFiles.echo, "sockets")),
        awake: Math.max(measured(p, baseFiles.product, "files"), measured(e, baseFiles.echo, "files")),
      };
      perCharger = perCharger ? { asleep: Math.max(perCharger.asleep, seen.asleep), awake: Math.max(perCharger.awake, seen.awake) } : seen;
      return `open files of the worker's workerd with every charger connected: product ${files(p)}, echo DO ${files(e)}; per charger asleep ${fmt(seen.asleep)}, awake ${fmt(seen.awake)} at most`;
    };
    let of16: { product: Figures; echo: Figures } | undefined;
    if (VERSIONS.includes("1.6")) {
      const chargers = fleets["1.6"].slice(0, size);
      // The largest size also holds every charger on a 60 s heartbeat for a minute (steady state).
      const steadyState = !QUICK && !ONE_SIZE && !STORM && index === sizes.length - 1;
      const extra: string[] = [];
      let readCpuMs = 0;
      // The product's starts, for the line beside the echo DO's (its figures are not returned yet then).
      let productStarts: RemoteStarts | undefined;
      const { product: p, echo: e, d1Line } = await onBothWorkers(load, workers, "1.6", chargers, {
        steadyState,
        awake,
        async productOnly(p) {
          if (!STORM) extra.push(await d1PerTransaction(load, workers, productServer, size));
          // The objects the phases before woke go to sleep first: a thousand of them going to sleep in the
          // same seconds stop workerd for one to three seconds while it checkpoints each one's SQLite
          // (docs/performance-history.md "Fourth full run: 5 000 chargers, every phase from sleep"), not what a start costs.
          await asleep(productServer, size);
          // The read a start is compared with, and whose CPU the echo DO's yardstick spends.
          const readPoint = (point: BenchPoint) => api.request("GET", `/station-service/point/${point.id}`);
          // Before the starts: objects they wake write their logs and go to sleep in the seconds after.
          readCpuMs = await cpuPerRequest(productServer, READ_CPU_SAMPLES, (i) => readPoint(chargers[i % size]));
          p.remoteStarts = await remoteStarts(
            chargers,
            async (point) => (await api.request("PUT", `/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 })).status === 200,
            readPoint,
            () => asleep(productServer, size),
          );
          productStarts = p.remoteStarts;
        },
        // The echo DO's fleet is connected (set aside or not): its starts, from sleep too.
        async echoOnly(e) {
          const echoRs = await echoStarts(echoWorker, echoServer, chargers, readCpuMs);
          e.remoteStarts = echoRs;
          extra.push(
            `remote start, an API read of the same point in the same lanes p50/p99: product ${fmt(productStarts?.readP50)} / ${fmt(productStarts?.readP99)} ms, ` +
              `echo DO ${fmt(echoRs.readP50)} / ${fmt(echoRs.readP99)} ms; a read's workerd CPU one at a time: product ${fmt(readCpuMs, 2)} ms, echo DO ${fmt(echoRs.readCpuMs, 2)} ms (${echoRs.spin} steps)`,
          );
        },
      });
      extra.unshift(d1Line);
      const [n] = STORM ? [undefined] : await measure(load, [{ url: nodeEcho, server: {} }], chargers, "1.6", false, size, true);
      await load.run(() => ({ kind: "close" }));
      extra.push(openFiles(p, e));
      printSize("1.6", size, { product: p, echo: e, node: n }, extra);
      stormRatios.push(stormRatiosOf(size, p, e));
      of16 = { product: p, echo: e };
    }
    // The same phases with the 2.0.1 fleet, its readings as TransactionEvent Updated (E02).
    if (VERSIONS.includes("2.0.1")) {
      const { product: p, echo: e, d1Line } = await onBothWorkers(load, workers, "2.0.1", fleets["2.0.1"].slice(0, size), { steadyState: false, awake });
      printSize("2.0.1", size, { product: p, echo: e, of16 }, [d1Line, openFiles(p, e)]);
    }
  }
  if (RUNS > 1) printStormMedians(stormRatios);
  console.log(
    `"÷ echo" is the product's figure divided by the echo DO's in the same run (times: lower is better, so 1.25 means 25 % slower; rates: higher is better); ` +
      `"2.0.1 ÷ 1.6" is the product's 2.0.1 fleet's figure divided by its 1.6 fleet's.\n` +
      `The echo DO writes one SQLite row per MeterValues, TransactionEvent and StatusNotification and nothing for a Heartbeat; the product's D1 figures are the worker's own count.\n` +
      `Heartbeat and StatusNotification phases start with every Durable Object asleep, as a charger's next Heartbeat finds it.\n` +
      `load average before: ${loadBefore}; after: ${loadAverage()}; total ${fmt(ms(t0) / 1000)} s.`,
  );
}

const limit = ensureFileLimit();
// A negative limit: the bench runs again under a raised `ulimit -n` and this process waits for it.
if (limit >= 0) {
  try {
    await main(limit);
  } finally {
    await stopStarted();
  }
  // Sockets still closing must not keep the process up.
  setTimeout(() => process.exit(0), 3000).unref();
}
