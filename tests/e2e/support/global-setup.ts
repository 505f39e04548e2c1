import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/**
 * Serves the whole product the way `npm start` does, on its own local state and a free port,
 * for the browser tests; stops it afterwards.
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

let server: ChildProcess | undefined;
let state = "";

export async function setup(project: TestProject) {
  // Each run has its own state, so two runs on one machine never share a database.
  state = `.wrangler/e2e-state-${process.pid}`;
  rmSync(state, { recursive: true, force: true });
  const readyFile = join(mkdtempSync(join(tmpdir(), "plugdesk-e2e-")), "ready");
  const port = await freePort();
  server = spawn("npx", ["tsx", "scripts/start.ts", "--preview"], {
    env: { ...process.env, PORT: String(port), PLUGDESK_STATE: state, PLUGDESK_READY_FILE: readyFile },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 200_000;
  while (!existsSync(readyFile)) {
    if (server.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the local server did not start:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  project.provide("baseURL", readFileSync(readyFile, "utf8"));
}

export async function teardown() {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  // Give workerd a moment to let go of its files before the folder goes.
  await new Promise((r) => setTimeout(r, 500));
  rmSync(state, { recursive: true, force: true });
}
