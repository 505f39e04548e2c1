/**
 * `npm run bench:ocpp`: figures for the OCPP edge with 100 and with 1 000 chargers. It serves the
 * product itself (`npm start`, own state folder, free port, as the browser tests do), registers
 * 1 000 SIM chargers through the API, and measures with ocpp-rpc strict clients: connect and boot
 * all, Heartbeat round trips, MeterValues per second with every charger sending at once, and
 * remote starts through the API answered by the chargers. Beside them, the same connect and
 * round-trip figures against a bare Node `ws` server that echoes each CALL's payload back as its
 * result. It prints figures only and never fails on speed; everything it starts, it stops.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Api, inBatches, KeyFile, registerSimChargers, type SimPoint } from "../../scripts/sim/register";
import { OcppClient } from "../../scripts/sim/rpc";
import { loadWs, type WsServer } from "../peers/ws";
import { serveProduct, type ServedProduct } from "../support/serve-product";

const SIZES = [100, 1000];
const CHARGERS = Math.max(...SIZES);
/** The machine has two cores: at most this many connects (and API calls) in flight. */
const CONNECTS_IN_FLIGHT = 50;
const HEARTBEATS_IN_FLIGHT = 50;
const HEARTBEAT_SAMPLES = 1000;
const METER_SECONDS = 5;
const REMOTE_STARTS = 200;
const REMOTE_STARTS_IN_FLIGHT = 10;
const STATE = ".wrangler/bench-ocpp-state";

const started: { product?: ServedProduct; echo?: WsServer } = {};
const clients = new Set<OcppClient>();

async function stopEverything() {
  for (const c of clients) void c.close().catch(() => undefined);
  started.echo?.close();
  await started.product?.stop();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    void stopEverything().finally(() => process.exit(130));
  });
}

const ms = (start: number) => performance.now() - start;
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
function percentile(samples: number[], p: number) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A bare `ws` server on loopback: each CALL `[2, id, action, payload]` is answered `[3, id, payload]`. */
async function serveEcho(): Promise<string | undefined> {
  const ws = await loadWs();
  if (!ws) return undefined;
  const server = new ws.WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: (offered) => (offered.has("ocpp1.6") ? "ocpp1.6" : false) });
  started.echo = server;
  await new Promise<void>((resolve) => server.on("listening", resolve));
  server.on("connection", (socket) =>
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString("utf8")) as [number, string, string, unknown];
      if (frame[0] === 2) socket.send(JSON.stringify([3, frame[1], frame[3]]));
    }),
  );
  const address = server.address();
  return typeof address === "object" && address ? `ws://127.0.0.1:${address.port}` : undefined;
}

interface Fleet {
  clients: OcppClient[];
  connectS: number;
  failed: number;
}

/** Connects and boots `points`, at most CONNECTS_IN_FLIGHT at a time. */
async function connectFleet(endpoint: string, points: SimPoint[], strict: boolean): Promise<Fleet> {
  const start = performance.now();
  let failed = 0;
  const connected = await inBatches(points, CONNECTS_IN_FLIGHT, async (p) => {
    const client = new OcppClient({ endpoint, identity: p.serialNumber, password: p.key, strictMode: strict, callTimeoutMs: 120_000 });
    try {
      await client.connect();
      clients.add(client);
      client.handle("RemoteStartTransaction", () => ({ status: "Accepted" }));
      await client.call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "Bench" });
      return client;
    } catch {
      failed++;
      return undefined;
    }
  });
  return { clients: connected.filter((c): c is OcppClient => c !== undefined), connectS: ms(start) / 1000, failed };
}

async function closeFleet(fleet: Fleet) {
  await inBatches(fleet.clients, CONNECTS_IN_FLIGHT, async (c) => {
    await c.close().catch(() => undefined);
    clients.delete(c);
  });
}

/** Heartbeat round trips, spread over the fleet, HEARTBEATS_IN_FLIGHT at a time. */
async function heartbeats(fleet: Fleet) {
  const samples: number[] = [];
  const work = Array.from({ length: HEARTBEAT_SAMPLES }, (_, i) => fleet.clients[i % fleet.clients.length]);
  await inBatches(work, HEARTBEATS_IN_FLIGHT, async (client) => {
    const start = performance.now();
    await client.call("Heartbeat", {});
    samples.push(ms(start));
  });
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Every charger sends MeterValues back to back for METER_SECONDS; answers completed per second. */
async function meterValues(fleet: Fleet) {
  let done = 0;
  let errors = 0;
  let register = 1_000_000;
  const stopAt = performance.now() + METER_SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    fleet.clients.map(async (client) => {
      while (performance.now() < stopAt) {
        register += 10;
        try {
          await client.call("MeterValues", {
            connectorId: 1,
            meterValue: [
              {
                timestamp: new Date().toISOString(),
                sampledValue: [
                  { value: String(register), context: "Sample.Periodic", measurand: "Energy.Active.Import.Register", unit: "Wh" },
                  { value: "11000", measurand: "Power.Active.Import", unit: "W" },
                  { value: "15.9", measurand: "Current.Import", unit: "A" },
                  { value: "230.0", measurand: "Voltage", unit: "V" },
                  { value: "55", measurand: "SoC", unit: "Percent" },
                ],
              },
            ],
          });
          done++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { perSecond: done / (ms(start) / 1000), errors };
}

/** Remote starts through the API, each answered Accepted by its charger at once. */
async function remoteStarts(api: Api, points: SimPoint[]) {
  const samples: number[] = [];
  let refused = 0;
  const work = Array.from({ length: REMOTE_STARTS }, (_, i) => points[i % points.length]);
  await inBatches(work, REMOTE_STARTS_IN_FLIGHT, async (p) => {
    const start = performance.now();
    const res = await api.request("PUT", `/station-service/remoteControl/remoteStart/${p.id}`, { connectorId: 1 });
    samples.push(ms(start));
    if (res.status !== 200) refused++;
  });
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), refused };
}

/** A plain authenticated API read of the same point, for comparison with the remote start. */
async function apiReads(api: Api, points: SimPoint[]) {
  const samples: number[] = [];
  const work = Array.from({ length: REMOTE_STARTS }, (_, i) => points[i % points.length]);
  await inBatches(work, REMOTE_STARTS_IN_FLIGHT, async (p) => {
    const start = performance.now();
    await api.request("GET", `/station-service/point/${p.id}`);
    samples.push(ms(start));
  });
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

const ratio = (product: number, echo: number | undefined) => {
  if (!echo || !Number.isFinite(echo) || echo <= 0) return "";
  const r = product / echo;
  return `×${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toPrecision(2)}`;
};

async function main() {
  const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
  console.log(`Plugdesk OCPP bench (${cpus().length} cores, load average ${load()}; loopback only; figures, never a verdict)\n`);
  const t0 = performance.now();
  started.product = await serveProduct(STATE);
  const origin = started.product.origin;
  const endpoint = `${origin.replace(/^http/, "ws")}/ocpp`;
  console.log(`product: ${origin} (npm start, state ${STATE}), up in ${fmt(ms(t0) / 1000)} s`);
  const echoEndpoint = await serveEcho();
  console.log(echoEndpoint ? `baseline: bare ws echo server at ${echoEndpoint}` : "baseline: skipped (the ws package cannot be imported)");

  const api = await Api.login(origin);
  const t1 = performance.now();
  let shown = 0;
  const points = await registerSimChargers(api, CHARGERS, new KeyFile(join(STATE, "sim-keys.json"), origin), {
    concurrency: 8,
    onProgress: (done, total) => {
      if (done - shown >= 100 || done === total) {
        shown = done;
        console.log(`  registered ${String(done).padStart(4)}/${total} SIM chargers (${fmt(ms(t1) / 1000)} s)`);
      }
    },
  });
  console.log(`registration: ${fmt(ms(t1) / 1000)} s for ${CHARGERS} points (create, enable, key: 3 API calls each, 8 in flight)\n`);

  for (const size of SIZES) {
    const fleetPoints = points.slice(0, size);
    console.log(`── ${size} chargers ${"─".repeat(60)}`);
    const fleet = await connectFleet(endpoint, fleetPoints, true);
    const hb = await heartbeats(fleet);
    const mv = await meterValues(fleet);
    const rs = await remoteStarts(api, fleetPoints);
    const reads = await apiReads(api, fleetPoints);
    await closeFleet(fleet);

    let echo: { connectS: number; hb: { p50: number; p99: number }; mv: { perSecond: number } } | undefined;
    if (echoEndpoint) {
      const echoFleet = await connectFleet(echoEndpoint, fleetPoints, false);
      echo = { connectS: echoFleet.connectS, hb: await heartbeats(echoFleet), mv: await meterValues(echoFleet) };
      await closeFleet(echoFleet);
    }

    const row = (label: string, product: string, baseline = "", r = "") => console.log(`  ${label.padEnd(34)} ${product.padStart(16)}   ${baseline.padStart(16)}   ${r}`);
    row("", "product", echo ? "ws echo" : "", echo ? "product/echo" : "");
    row(
      `connect + boot all (${CONNECTS_IN_FLIGHT} in flight)`,
      `${fmt(fleet.connectS, 2)} s${fleet.failed ? ` (${fleet.failed} failed)` : ""}`,
      echo ? `${fmt(echo.connectS, 2)} s` : "",
      ratio(fleet.connectS, echo?.connectS),
    );
    row(
      `Heartbeat RTT p50 / p99 (${HEARTBEATS_IN_FLIGHT} in flight)`,
      `${fmt(hb.p50)} / ${fmt(hb.p99)} ms`,
      echo ? `${fmt(echo.hb.p50)} / ${fmt(echo.hb.p99)} ms` : "",
      echo ? `${ratio(hb.p50, echo.hb.p50)} / ${ratio(hb.p99, echo.hb.p99)}` : "",
    );
    row(
      `MeterValues/s (all ${fleet.clients.length} at once)`,
      `${fmt(mv.perSecond, 0)} /s${mv.errors ? ` (${mv.errors} errors)` : ""}`,
      echo ? `${fmt(echo.mv.perSecond, 0)} /s` : "",
      echo ? ratio(mv.perSecond, echo.mv.perSecond) : "",
    );
    row(`remote start via API p50 / p99`, `${fmt(rs.p50)} / ${fmt(rs.p99)} ms${rs.refused ? ` (${rs.refused} not 200)` : ""}`);
    row(`  API read of the point p50 / p99`, `${fmt(reads.p50)} / ${fmt(reads.p99)} ms`);
    row(`  remote start minus read, p99`, `${fmt(rs.p99 - reads.p99)} ms`);
    console.log("");
  }
  console.log(
    `Remote starts: ${REMOTE_STARTS} per size, ${REMOTE_STARTS_IN_FLIGHT} in flight, each to a different charger that answers Accepted at once;\n` +
      `"minus read" is what the OCPP hop adds over an authenticated API read of the same point (aim: under 50 ms p99).\n` +
      `The bench's own clients (strict ocpp-rpc, JSON schema checks) share the two cores with workerd.`,
  );
  console.log(`total ${fmt(ms(t0) / 1000)} s; load average at the end ${load()} (other work on the machine slows both columns)`);
}

try {
  await main();
} finally {
  await stopEverything();
}
// Sockets still closing must not keep the process up.
setTimeout(() => process.exit(0), 3000).unref();
