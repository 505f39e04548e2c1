/**
 * `npm run sim -- [--chargers N] [--ocpp 1.6|2.0.1] [--url http://127.0.0.1:8787] [--meter-interval S] [--fault SERIAL:CONNECTOR:CODE]…`
 *
 * Simulated chargers for a running Plugdesk, each speaking its own OCPP version. Without
 * `--chargers`, the demo chargers of the seed, each in the version its point names (PL002-CP03 in
 * 2.0.1, the others in 1.6J); with `--chargers N`, `SIM-00001`…`SIM-<N>` in the version `--ocpp`
 * gives (1.6 unless told), registered under 0PL002 through the API when needed (keys kept in
 * `.wrangler/sim-keys.json`). `--fault` raises a fault on a connector (on a 2.0.1 charger, an
 * EVSE) once its charger is up; in a terminal, keys raise and clear faults (printed at start).
 * Ctrl-C or q ends running sessions (StopTransaction, TransactionEvent Ended) and closes every socket.
 */
import { parseArgs } from "node:util";
import { DEMO_CHARGER_KEY, DEMO_EQUIPMENT } from "../../db/seed";
import { SimCharger, type ChargerOptions, type ChargerSpec } from "./charger";
import { SimCharger201 } from "./charger201";
import { parseFault } from "./faults";
import { listenToKeys } from "./keys";
import { Api, inBatches, KeyFile, registerSimChargers, renewKey } from "./register";
import type { SimulatedCharger } from "./simulated-charger";

const KEY_FILE = ".wrangler/sim-keys.json";
const CONNECTS_IN_FLIGHT = 25;

const { values } = parseArgs({
  options: {
    chargers: { type: "string" },
    ocpp: { type: "string", default: "1.6" },
    url: { type: "string", default: `http://127.0.0.1:${process.env.PORT ?? 8787}` },
    "meter-interval": { type: "string", default: "5" },
    fault: { type: "string", multiple: true, default: [] },
    help: { type: "boolean", short: "h" },
  },
});

if (values.help) {
  console.log("npm run sim -- [--chargers N] [--ocpp 1.6|2.0.1] [--url http://127.0.0.1:8787] [--meter-interval S] [--fault PL002-CP01:1:HighTemperature]…");
  console.log("  without --chargers: the demo chargers, each in its own OCPP version (PL002-CP03 in 2.0.1)");
  console.log("  --ocpp: the version the --chargers fleet speaks (1.6 unless told)");
  process.exit(0);
}
const faults = values.fault.map(parseFault);

const origin = values.url.replace(/\/+$/, "");
const endpoint = `${origin.replace(/^http/, "ws")}/ocpp`;
const meterIntervalS = Number(values["meter-interval"]);
const count = values.chargers === undefined ? undefined : Number(values.chargers);
if (!Number.isFinite(meterIntervalS) || meterIntervalS <= 0) throw new Error("--meter-interval wants a number of seconds above 0");
if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 99_999)) throw new Error("--chargers wants a whole number from 1 to 99999");
type Version = "1.6" | "2.0.1";
const isVersion = (v: string): v is Version => v === "1.6" || v === "2.0.1";
const fleetVersion = values.ocpp;
if (!isVersion(fleetVersion)) throw new Error("--ocpp wants 1.6 or 2.0.1");
if (count === undefined && process.argv.some((a) => a === "--ocpp" || a.startsWith("--ocpp="))) throw new Error("--ocpp goes with --chargers: the demo chargers each speak their own version");

const time = () => new Date().toTimeString().slice(0, 8);
const logFor = (serialNumber: string) => (line: string) => console.log(`${time()} ${serialNumber.padEnd(11)} ${line}`);

let specs: (ChargerSpec & { version: Version })[];
let api: Api | undefined;
let keys: KeyFile | undefined;

if (count === undefined) {
  specs = DEMO_EQUIPMENT.flatMap((demo) =>
    demo.points.map((p) => ({
      serialNumber: p.serialNumber,
      key: DEMO_CHARGER_KEY,
      connectors: p.connectorCount,
      connectorPowerW: p.connectorPowerW,
      type: p.type,
      // A point that accepts either version (AUTO) is simulated in 1.6J, as the chargers of the seed always were.
      version: p.ocppVersion === "OCPP201" ? ("2.0.1" as const) : ("1.6" as const),
    })),
  );
  console.log(`${time()} simulating the demo chargers ${specs.map((s) => `${s.serialNumber} (OCPP ${s.version})`).join(", ")} against ${origin}`);
} else {
  api = await Api.login(origin);
  keys = new KeyFile(KEY_FILE, origin);
  console.log(`${time()} registering ${count} simulated OCPP ${fleetVersion} chargers under 0PL002…`);
  let lastShown = 0;
  const points = await registerSimChargers(api, count, keys, {
    onProgress: (done, total) => {
      if (done === total || done - lastShown >= 100) {
        lastShown = done;
        console.log(`${time()} registered ${done}/${total}`);
      }
    },
  });
  specs = points.map((p) => ({ serialNumber: p.serialNumber, key: p.key, connectors: p.connectors, connectorPowerW: p.connectorPowerW, type: p.type, version: fleetVersion }));
}

const chargers: SimulatedCharger[] = specs.map(({ version, ...spec }) => {
  const options: ChargerOptions = {
    endpoint,
    meterIntervalS,
    log: logFor(spec.serialNumber),
    ...(api && keys
      ? {
          renewKey: () => renewKey(api, spec.serialNumber, keys),
          onKeyChange: (key: string) => {
            keys.set(spec.serialNumber, key);
            keys.save();
          },
        }
      : {}),
  };
  return version === "2.0.1" ? new SimCharger201(spec, options) : new SimCharger(spec, options);
});

for (const fault of faults) {
  const charger = chargers.find((c) => c.serialNumber === fault.serialNumber);
  if (!charger) throw new Error(`--fault: ${fault.serialNumber} is not one of the simulated chargers (${chargers.map((c) => c.serialNumber).join(", ")})`);
  if (fault.connectorId > charger.connectorCount) throw new Error(`--fault: ${fault.serialNumber} has ${charger.connectorCount} connectors`);
}

let releaseKeys = () => {};
let stopping = 0;
async function shutdown() {
  // npm and tsx pass a Ctrl-C on as well, so the same keypress can arrive two or three times.
  if (stopping) {
    if (Date.now() - stopping > 1000) process.exit(1);
    return;
  }
  stopping = Date.now();
  releaseKeys();
  console.log(`\n${time()} stopping: ending running sessions and closing ${chargers.length} connections (Ctrl-C again to quit at once)`);
  const timeout = setTimeout(() => process.exit(1), 15_000);
  await Promise.allSettled(chargers.map((c) => c.stop()));
  clearTimeout(timeout);
  console.log(`${time()} stopped`);
  process.exit(0);
}
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());

await inBatches(chargers, CONNECTS_IN_FLIGHT, (c) => c.start());
if (!stopping) {
  for (const fault of faults) await chargers.find((c) => c.serialNumber === fault.serialNumber)?.raiseFault(fault.connectorId, fault.errorCode);
  const online = chargers.filter((c) => c.online).length;
  console.log(
    `${time()} ${online} of ${chargers.length} chargers online. Start a session from the console (Equipment › Remote control) or with` +
      ` PUT /station-service/remoteControl/remoteStart/{pointId}; Ctrl-C stops.`,
  );
  releaseKeys = listenToKeys(chargers, { log: logFor("keys"), quit: () => void shutdown() });
}
