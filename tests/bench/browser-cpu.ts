/**
 * `npx tsx tests/bench/browser-cpu.ts` (docs/testing.md "Where the time goes"): what the browser
 * layer's Chromium spends on console screens. Serves the product as `npm start` does on its own
 * state, then per run launches a Chromium as the e2e global setup does, logs in as the demo
 * operator's admin by cookie, opens the screens below (`goto`, hydration, and the accessibility
 * check as tests/e2e/support/axe.ts runs it), and prints the CPU seconds of every Chromium
 * process by type (sampled from /proc while it runs), of the product's workerd, and of this
 * process (playwright's client), with the load average.
 *
 * --runs N        runs of each variant, taken in turns (default 3)
 * --screens N     the first N screens (default all 19)
 * --no-axe        navigation only, no accessibility check
 * --variant SPEC  `label|executable|switches` (empty executable: the suite's `chromiumPath()`);
 *                 repeatable; default the suite's Chromium as it is
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { basename } from "node:path";
import { launchChromiumServer, newBrowserContext, logInByCookie } from "../support/browser";
import { serveProduct } from "../support/serve-product";
import { expectAccessible } from "../e2e/support/axe";

const SCREENS = [
  "/home",
  "/equipmentManagement/station",
  "/equipmentManagement/point",
  "/equipmentManagement/point/pointAdd",
  "/systemMonitoring/charging",
  "/systemMonitoring/alarmRecord",
  "/financialManagement/chargeRecord",
  "/financialManagement/expenseRecord",
  "/financialManagement/discountStrategy",
  "/financialManagement/chargeConfigurationNew",
  "/financialManagement/billManagement",
  "/carrierSystem/role",
  "/carrierSystem/parameterSettings",
  "/carrierSystem/paymentChannel",
  "/carrierSystem/carrierInfo",
  "/operationMaintenance/reservation",
  "/operationMaintenance/operationFailure",
  "/rechargeManagement/userRecharge",
  "/vehicleManage/list",
];

const option = (name: string) => process.argv.flatMap((arg, i) => (arg === name ? [process.argv[i + 1]] : []));
const RUNS = Number(option("--runs")[0] ?? 3);
const SCREEN_COUNT = Number(option("--screens")[0] ?? SCREENS.length);
const AXE = !process.argv.includes("--no-axe");
const VARIANTS = (option("--variant").length > 0 ? option("--variant") : ["suite||"]).map((spec) => {
  const [label, executable = "", switches = ""] = spec.split("|");
  return { label, executable, switches: switches.split(" ").filter(Boolean) };
});

const TICKS = 100; // USER_HZ: /proc counts CPU time in hundredths of a second on Linux.

/** Parent and CPU seconds (user + system) of every process now, from /proc/<pid>/stat. */
function processes(): Map<number, { parent: number; cpu: number }> {
  const found = new Map<number, { parent: number; cpu: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name in parentheses may hold spaces: the fields after it are counted from ")".
      const fields = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ");
      found.set(Number(name), { parent: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / TICKS });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

function descendants(root: number, all: ReturnType<typeof processes>): number[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, { parent }] of all) if (parent === found[i]) found.push(pid);
  return found.filter((pid) => all.has(pid));
}

/** A Chromium process's type from its command line: renderer, gpu-process, utility…; the browser process has none. */
function typeOf(pid: number): string {
  try {
    // Chromium rewrites its command line into one string, so spaces separate the switches too.
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/);
    const type = args.find((arg) => arg.startsWith("--type="))?.slice("--type=".length);
    const program = basename(args[0]);
    return type ?? (/chrom|headless/i.test(program) && !program.includes("crashpad") ? "browser" : program);
  } catch {
    return "gone";
  }
}

const cpuOf = (root: number) => {
  const all = processes();
  return descendants(root, all).reduce((sum, pid) => sum + all.get(pid)!.cpu, 0);
};

async function measure(origin: string, serverGroup: number, variant: (typeof VARIANTS)[number]) {
  if (variant.executable) process.env.CHROMIUM_PATH = variant.executable;
  else delete process.env.CHROMIUM_PATH;
  const loadBefore = loadavg()[0];
  const workerdBefore = cpuOf(serverGroup);
  const clientBefore = process.cpuUsage();
  const server = await launchChromiumServer(variant.switches);
  // Last CPU seen of each Chromium process, sampled: a process that ends keeps its last sample.
  const seen = new Map<number, { type: string; cpu: number }>();
  const sample = () => {
    const all = processes();
    for (const pid of descendants(server.process().pid!, all)) {
      const type = seen.get(pid)?.type ?? typeOf(pid);
      seen.set(pid, { type, cpu: all.get(pid)!.cpu });
    }
  };
  const sampling = setInterval(sample, 100);
  try {
    const context = await newBrowserContext(server.wsEndpoint());
    // tsx keeps function names with a helper, `__name`, that the functions axe.ts evaluates in the page call.
    await context.addInitScript("globalThis.__name = (f) => f");
    const page = await context.newPage();
    await logInByCookie(page, origin, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${origin}/home`);
    for (const screen of SCREENS.slice(0, SCREEN_COUNT)) {
      const response = await page.goto(`${origin}${screen}`);
      if (!response?.ok()) throw new Error(`${screen} answered ${response?.status()}`);
      await page.waitForSelector("html[data-hydrated]", { state: "attached" });
      if (AXE) await expectAccessible(page);
    }
    sample();
    await context.close();
  } finally {
    clearInterval(sampling);
    await server.close();
  }
  const byType: Record<string, number> = {};
  for (const { type, cpu } of seen.values()) byType[type] = (byType[type] ?? 0) + cpu;
  const client = process.cpuUsage(clientBefore);
  return {
    chromium: Object.values(byType).reduce((a, b) => a + b, 0),
    byType,
    workerd: cpuOf(serverGroup) - workerdBefore,
    client: (client.user + client.system) / 1e6,
    load: `${loadBefore.toFixed(1)}–${loadavg()[0].toFixed(1)}`,
  };
}

const fixed = (seconds: number) => seconds.toFixed(1);

const STATE = ".wrangler/bench-browser-state";
const product = await serveProduct(STATE);
try {
  console.log(`${SCREEN_COUNT} screens, ${AXE ? "with" : "without"} the accessibility check; CPU seconds`);
  const results = new Map<string, number[]>();
  for (let run = 1; run <= RUNS; run++) {
    for (const variant of VARIANTS) {
      const result = await measure(product.origin, product.group, variant);
      results.set(variant.label, [...(results.get(variant.label) ?? []), result.chromium]);
      const types = Object.entries(result.byType)
        .sort(([, a], [, b]) => b - a)
        .map(([type, cpu]) => `${type} ${fixed(cpu)}`)
        .join(", ");
      console.log(
        `run ${run} ${variant.label}: Chromium ${fixed(result.chromium)} (${types}); workerd ${fixed(result.workerd)}; client ${fixed(result.client)}; load ${result.load}`,
      );
    }
  }
  for (const [label, runs] of results) {
    const sorted = [...runs].sort((a, b) => a - b);
    console.log(`${label}: median ${fixed(sorted[Math.floor(sorted.length / 2)])} of ${runs.map(fixed).join(", ")}`);
  }
} finally {
  await product.stop();
  rmSync(STATE, { recursive: true, force: true });
}
