import { performance } from "node:perf_hooks";
import { Api, inBatches, KeyFile, registerSimChargers } from "./scripts/sim/register.ts";
import { OcppClient } from "./scripts/sim/rpc.ts";
const B = "http://127.0.0.1:8911";
const api = await Api.login(B);
const points = await registerSimChargers(api, 100, new KeyFile(".wrangler/sim-check/probe-keys.json", B), { concurrency: 8 });
const clients = await inBatches(points, 50, async (p) => {
  const c = new OcppClient({ endpoint: B.replace("http", "ws") + "/ocpp", identity: p.serialNumber, password: p.key });
  await c.connect();
  await c.call("BootNotification", { chargePointVendor: "x", chargePointModel: "y" });
  return c;
});
const seq = async (label: string, cs: OcppClient[]) => {
  const samples: number[] = [];
  for (let i = 0; i < 100; i++) { const c = cs[i % cs.length]; const s = performance.now(); await c.call("Heartbeat", {}); samples.push(performance.now() - s); }
  samples.sort((a, b) => a - b);
  console.log(`${label}: p50 ${samples[50].toFixed(1)} p90 ${samples[90].toFixed(1)} ms`);
};
await new Promise((r) => setTimeout(r, 3000));
await seq("one charger, 100 others idle", [clients[0]]);
await seq("round robin over 100", clients);
await seq("one charger again", [clients[0]]);
await new Promise((r) => setTimeout(r, 3000));
await seq("one charger after 3 s idle", [clients[0]]);
await Promise.all(clients.map((c) => c.close()));
