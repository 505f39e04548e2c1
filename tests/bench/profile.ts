/**
 * `npm run bench:profile` (docs/performance.md "Where a message spent its time"): serves the
 * product as `npm start` does with workerd's inspector open, connects 100 bench chargers (or
 * `--chargers N`) with the light clients, and records V8's CPU profile of the worker while they
 * send Heartbeats, then MeterValues, then one Heartbeat each to objects asleep (docs/performance.md
 * "Waking up, again"), then remote starts to objects asleep, a read of the same points, and an
 * authenticated read. It prints, per message, the CPU time spent inside the functions that make
 * up the answer (inclusive) and the functions that cost most by themselves. `--version 2.0.1`
 * profiles a fleet of OCPP 2.0.1 chargers instead, whose readings are TransactionEvent Updated
 * in a transaction each started first (OCPP 2.0.1 Part 2 E02, E03).
 */
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadWs, type WsModule } from "../peers/ws";
import { freePort, serveProduct } from "../support/serve-product";
import { prepareBenchState } from "./fleet";
import { Load, started } from "./load";
import { READING, type OcppVersion } from "./protocol";
import { Api, inBatches } from "../../scripts/sim/register";

const STATE = ".wrangler/bench-profile-state";
/** `--chargers N` profiles a larger fleet (the 1 000-charger figures differ from the 100's). */
const chargersArg = process.argv.indexOf("--chargers");
const CHARGERS = chargersArg > 0 ? Number(process.argv[chargersArg + 1]) : 100;
const MESSAGES = 4000;
const VERSION: OcppVersion = process.argv.includes("--version") && process.argv[process.argv.indexOf("--version") + 1] === "2.0.1" ? "2.0.1" : "1.6";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A minimal Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspect(port: number) {
  const ws = (await loadWs()) as WsModule;
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string; title?: string }[];
  const target = targets.find((t) => !/proxy|entry/i.test(t.title ?? "")) ?? targets[0];
  // A profile of a large fleet is a big message: ws's default 100 MiB cap would drop it silently.
  const socket = new ws.WebSocket(target.webSocketDebuggerUrl, [], { maxPayload: 2 ** 31 - 1 });
  await new Promise<void>((done, fail) => {
    socket.on("open", () => done());
    socket.on("error", fail);
  });
  let next = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString("utf8")) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const send = <T>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((done) => {
      const id = ++next;
      waiting.set(id, (result) => done(result as T));
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close(), title: target.title };
}

/** CPU ms per message: inclusive for the named functions, self time for the most expensive ones. */
function summarise(profile: Profile, messages: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const label = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop() ?? ""}:${n.callFrame.lineNumber + 1}`;
  const selfBy = new Map<string, number>();
  const inclusiveBy = new Map<string, number>();
  let total = 0;
  for (const [id, msSpent] of self) {
    const node = byId.get(id)!;
    if (["(idle)", "(program)", "(garbage collector)"].includes(node.callFrame.functionName)) {
      selfBy.set(node.callFrame.functionName, (selfBy.get(node.callFrame.functionName) ?? 0) + msSpent);
      if (node.callFrame.functionName !== "(idle)") total += msSpent;
      continue;
    }
    total += msSpent;
    selfBy.set(label(node), (selfBy.get(label(node)) ?? 0) + msSpent);
    // Each function once per stack, however deep its recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (!name || seen.has(name)) continue;
      seen.add(name);
      inclusiveBy.set(name, (inclusiveBy.get(name) ?? 0) + msSpent);
    }
  }
  const per = (v: number) => `${((v / messages) * 1000).toFixed(0).padStart(6)} µs`;
  console.log(`  busy CPU ${per(total)} per message (${messages} messages)`);
  console.log("  inclusive, per message:");
  const named = ["webSocketMessage", "answer", "session", "chargerCtx", "systemCtx", "createDb", "drizzle", "extractTablesRelationalConfig", "parseFrame", "checkRequest", "checkResponse", "serializeAttachment", "deserializeAttachment", "log", "reply", "flushLog", "flush", "frame", "addSamples", "appendLog", "pruneLog", "insertSamples", "touch", "record", "publishMany", "normaliseMeterValues", "liveReadings", "transactionEvent", "checkRequest201", "checkResponse201", "meterValuesAs16", "energyRegisterWh", "meterReadings", "v201State", "saveState", "publishMeter", "toHub", "Heartbeat", "MeterValues", "samplesOf", "park", "adopt", "restore", "releaseParked", "answered", "ChargePoint", "ChargerStore", "ChargerOutbox", "get", "put", "relay", "remember", "alarm", "fetch", "remoteStart", "commandTo", "findPoint", "callCharger", "afterAnswer", "authenticate", "dispatch", "send", "socket", "isCurrent", "readKv", "settingsOf", "remoteIdTagOf", "claim", "settle", "webSocketClose", "getWebSockets", "connectorStatus", "drainOutbox", "applyChanges", "apply", "land", "applyChargersChanges", "pointFacts", "changeStatements", "batchOf", "statusesLanded", "connectorStatusesChanged", "all", "first", "run", "raw", "execute"];
  for (const name of named) if (inclusiveBy.has(name)) console.log(`    ${name.padEnd(32)} ${per(inclusiveBy.get(name)!)}`);
  console.log("  most self time, per message:");
  for (const [name, v] of [...selfBy].filter(([n]) => n !== "(idle)").sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${name.slice(0, 70).padEnd(72)} ${per(v)}`);
}

async function main() {
  const { [VERSION]: fleet } = await prepareBenchState(STATE, CHARGERS, [VERSION]);
  const inspectorPort = await freePort();
  const product = await serveProduct(STATE, { keepState: true, env: { PLUGDESK_INSPECTOR_PORT: String(inspectorPort) } });
  started.product = product;
  // The inspector is attached and the profiler enabled before the fleet connects: with 1 000
  // chargers connected workerd's inspector never answered Profiler.enable.
  const inspector = await inspect(inspectorPort);
  console.log(`profiling ${inspector.title ?? "the worker"} through the inspector on port ${inspectorPort}`);
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
  const load = await Load.start(1);
  const connected = await load.connect(`${product.origin.replace(/^http/, "ws")}/ocpp`, fleet, VERSION);
  console.log(`${connected.done} chargers connected, ${connected.failed} failed${connected.firstError ? ` (${connected.firstError})` : ""}`);
  // The boots' and statuses' D1 batches land before anything is profiled (as in bench:ocpp).
  await new Promise((r) => setTimeout(r, 3000 + CHARGERS * 3));
  // A 2.0.1 charger's readings belong to a transaction: each starts one with the demo operator's remote-start tag.
  const begun = await load.run(() => ({ kind: "begin", idToken: "PLREMOTE" }));
  if (begun.done + begun.failed > 0) console.log(`transactions started: ${begun.done}, ${begun.failed} failed${begun.firstError ? ` (${begun.firstError})` : ""}`);
  for (const action of ["Heartbeat", READING[VERSION]]) {
    await inspector.send("Profiler.start");
    console.log(`${action}: profiler started`);
    const start = performance.now();
    const run =
      action === "Heartbeat"
        ? await load.run(() => ({ kind: "heartbeats", count: MESSAGES, inFlight: 50 }))
        : await load.run(() => ({ kind: "meter", seconds: 8 }));
    console.log(`${action}: ${run.done} sent, ${run.failed} failed; stopping the profiler`);
    const { profile } = await inspector.send<{ profile: Profile }>("Profiler.stop");
    // The whole profile, for Chrome's DevTools (Performance → Load profile) or a closer look.
    if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}/${action.replace(" ", "-")}.cpuprofile`, JSON.stringify(profile));
    console.log(`\n${action}: ${run.done} in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    summarise(profile, run.done);
  }
  // Heartbeats to objects workerd has put to sleep (about ten seconds after their last message):
  // what a wake-up costs on top of the answer.
  await new Promise((r) => setTimeout(r, 20_000));
  await inspector.send("Profiler.start");
  const woken = await load.run(() => ({ kind: "burst", action: "Heartbeat", count: CHARGERS }));
  const wakeProfile = (await inspector.send<{ profile: Profile }>("Profiler.stop")).profile;
  if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}/heartbeat-after-sleep.cpuprofile`, JSON.stringify(wakeProfile));
  console.log(`\nHeartbeat after sleep, all at once: ${woken.done} in ${(woken.ms / 1000).toFixed(1)} s`);
  summarise(wakeProfile, woken.done);

  // A StatusNotification that changes the status, to objects asleep (the heart of a reconnect
  // storm), and the seconds after it, in which its change reaches D1 through the ChangeWriter.
  await new Promise((r) => setTimeout(r, 20_000));
  await inspector.send("Profiler.start");
  const statuses = await load.run(() => ({ kind: "burst", action: "StatusNotification", count: CHARGERS }));
  await new Promise((r) => setTimeout(r, 3000));
  const statusProfile = (await inspector.send<{ profile: Profile }>("Profiler.stop")).profile;
  if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}/status-after-sleep.cpuprofile`, JSON.stringify(statusProfile));
  console.log(`\nStatusNotification after sleep, all at once, and its change landing: ${statuses.done} in ${(statuses.ms / 1000).toFixed(1)} s`);
  summarise(statusProfile, statuses.done);

  // A remote start through the API, as bench:ocpp times it: the Worker's side and the charger's.
  const api = await Api.login(product.origin);
  // The objects go to sleep first, as in bench:ocpp: a start wakes its charger's object.
  await new Promise((r) => setTimeout(r, 25_000));
  const starts = fleet.slice(0, 200);
  await inspector.send("Profiler.start");
  const start = performance.now();
  let refused = 0;
  await inBatches(starts, 10, async (p) => {
    const res = await api.request("PUT", `/station-service/remoteControl/remoteStart/${p.id}`, { connectorId: 1 });
    if (res.status !== 200) refused++;
  });
  const { profile } = await inspector.send<{ profile: Profile }>("Profiler.stop");
  if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}/remote-start.cpuprofile`, JSON.stringify(profile));
  console.log(`\nremote start: ${starts.length} (${refused} refused) in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  summarise(profile, starts.length);

  // The read bench:ocpp subtracts from a start: the same points, read in the same lanes.
  await inspector.send("Profiler.start");
  await inBatches(starts, 10, async (p) => {
    await api.request("GET", `/station-service/point/${p.id}`);
  });
  const pointRead = (await inspector.send<{ profile: Profile }>("Profiler.stop")).profile;
  if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}/point-read.cpuprofile`, JSON.stringify(pointRead));
  console.log(`\npoint read: ${starts.length}`);
  summarise(pointRead, starts.length);

  // The cost every console and API request starts with: an authenticated read of the account.
  const reads = 500;
  await inspector.send("Profiler.start");
  for (let i = 0; i < reads; i++) await api.request("GET", "/user-service/person/operator");
  const read = (await inspector.send<{ profile: Profile }>("Profiler.stop")).profile;
  if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}/authenticated-read.cpuprofile`, JSON.stringify(read));
  console.log(`\nauthenticated read: ${reads}`);
  summarise(read, reads);
  inspector.close();
}

try {
  await main();
} finally {
  for (const child of started.clients) child.kill("SIGTERM");
  await started.product?.stop();
}
setTimeout(() => process.exit(0), 3000).unref();
