import { fork, spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { freePort, type ServedProduct } from "../support/serve-product";
import type { BenchCharger, ClientCommand, ClientReport, OcppVersion } from "./protocol";

/** The machine has two cores: connects in flight across all load processes. */
export const CONNECTS_IN_FLIGHT = 50;

/** Everything a bench run started, for stopping it at the end or on a signal. */
export const started: { product?: ServedProduct; echoDo?: ChildProcess; nodeEcho?: ChildProcess; clients: ChildProcess[] } = { clients: [] };

/** Stops everything a bench run started: the load processes, the echo servers, the product. */
export async function stopStarted() {
  for (const child of [...started.clients, started.nodeEcho]) child?.kill("SIGTERM");
  const echo = started.echoDo;
  if (echo?.pid) {
    try {
      process.kill(-echo.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  await started.product?.stop();
}

/** The echo Durable Object worker of tests/bench/echo under `wrangler dev`, its state in `persistTo`, in its own process group. */
export async function serveEchoDo(persistTo: string): Promise<{ origin: string; group: number }> {
  const port = await freePort();
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--config",
      "tests/bench/echo/wrangler.json",
      "--persist-to",
      persistTo,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
    ],
    { stdio: "ignore", detached: true },
  );
  started.echoDo = child;
  const origin = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    try {
      if ((await fetch(origin)).ok) return { origin, group: child.pid! };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the echo Durable Object worker did not come up");
}

/** The load processes; each command goes to all of them and their reports are merged. */
export class Load {
  private constructor(private readonly processes: ChildProcess[]) {}

  static async start(count: number) {
    const processes = await Promise.all(
      Array.from({ length: count }, async () => {
        const child = fork(resolve("tests/bench/load-client.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
        started.clients.push(child);
        await new Promise((done) => child.once("message", done));
        return child;
      }),
    );
    return new Load(processes);
  }

  private ask(child: ChildProcess, command: ClientCommand): Promise<ClientReport> {
    return new Promise((done) => {
      child.once("message", (report) => done(report as ClientReport));
      child.send(command);
    });
  }

  /** `command(i)` for process i, all at once; the merged report and the wall time in ms. */
  async run(command: (i: number, of: number) => ClientCommand) {
    const start = performance.now();
    const reports = await Promise.all(this.processes.map((child, i) => this.ask(child, command(i, this.processes.length))));
    return {
      ms: performance.now() - start,
      samples: reports.flatMap((r) => r.samples),
      done: reports.reduce((n, r) => n + r.done, 0),
      failed: reports.reduce((n, r) => n + r.failed, 0),
      firstError: reports.find((r) => r.firstError)?.firstError,
    };
  }

  /** `chargers` connect and boot speaking `version`, spread over the processes. */
  connect(url: string, chargers: BenchCharger[], version: OcppVersion) {
    return this.run((i, of) => ({ kind: "connect", url, chargers: chargers.filter((_, n) => n % of === i), inFlight: Math.ceil(CONNECTS_IN_FLIGHT / of), version }));
  }
}
