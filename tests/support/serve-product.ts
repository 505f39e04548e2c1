import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The product served exactly as `npm start` serves it, on its own local state and a free port:
 * for the browser and peer tests and the OCPP bench. What it prints goes to `log`.
 */
export interface ServedProduct {
  origin: string;
  log: string;
  /** Stops everything `npm start` started, waits until it is gone, and removes the log. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * `npm start` on a fresh `state` folder (or, with `keepState`, on one a caller has filled);
 * resolves once it prints its logins.
 */
export async function serveProduct(state: string, timeoutMs = 240_000, options: { keepState?: boolean } = {}): Promise<ServedProduct> {
  if (!options.keepState) rmSync(state, { recursive: true, force: true });
  const dir = mkdtempSync(join(tmpdir(), "plugdesk-product-"));
  const readyFile = join(dir, "ready");
  const log = join(dir, "server.log");
  const output = openSync(log, "a");
  const port = await freePort();
  const server = spawn("npm", ["start"], {
    env: { ...process.env, PORT: String(port), PLUGDESK_STATE: state, PLUGDESK_READY_FILE: readyFile },
    stdio: ["ignore", output, output],
    // Its own process group, so that stopping it stops wrangler and workerd too.
    detached: true,
  });
  closeSync(output);
  const groupAlive = () => {
    try {
      return process.kill(-server.pid!, 0);
    } catch {
      return false;
    }
  };
  const stop = async () => {
    if (server.pid && groupAlive()) {
      process.kill(-server.pid, "SIGTERM");
      // workerd lets go of the state's files only when it is gone (a zombie left to an init that
      // does not reap would stay in the group: give up waiting after ten seconds).
      for (const until = Date.now() + 10_000; groupAlive() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(readyFile)) {
    if (server.exitCode !== null || Date.now() > deadline) {
      const printed = readFileSync(log, "utf8");
      await stop();
      throw new Error(`npm start did not come up:\n${printed.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { origin: readFileSync(readyFile, "utf8"), log, stop };
}
