import { existsSync, readFileSync, statSync } from "node:fs";
import { afterEach, beforeEach, expect, inject } from "vitest";

/**
 * A browser or peer test fails when the server it runs against reports an error meanwhile (a
 * 500, a handler that threw): the server writes each as one `"level":"error"` JSON line
 * (workers/http/report-error.ts) into the log of `npm start`. A test that provokes one on
 * purpose says so with `allowServerError(/what it reports/)`.
 */
const log = inject("serverLog");
let from = 0;
let allowed: RegExp[] = [];

export function allowServerError(pattern: RegExp) {
  allowed.push(pattern);
}

const size = () => (existsSync(log) ? statSync(log).size : 0);

beforeEach(() => {
  allowed = [];
  from = size();
});

/** How many of the server's lines a failed test prints, the last ones of its time. */
const SHOWN_ON_FAILURE = 40;

/**
 * Whether the run's server still answers (an API path with no route: no session, no D1), so
 * that a failed test tells a slow page from a server that stopped answering every request (once
 * seen: the worker's workerd spinning in V8's garbage-collection sweep, docs/testing.md "Browser
 * tests").
 */
async function serverAnswers(): Promise<string> {
  const started = Date.now();
  try {
    const res = await fetch(`${inject("baseURL")}/user-service/__liveness`, { signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return `answered ${res.status} in ${Date.now() - started} ms`;
  } catch (error) {
    return `did not answer within ${Date.now() - started} ms (${(error as Error).message})`;
  }
}

/** An error's message, and its cause's: what undici says a "fetch failed" was (a reset, a closed socket) is in the cause. */
function messageOf(error: { message?: string; cause?: unknown }): string {
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const why = cause && [cause.code, cause.message].filter(Boolean).join(" ");
  return why ? `${error.message} (cause: ${why})` : (error.message ?? String(error));
}

afterEach(async ({ task }) => {
  const added = existsSync(log) ? readFileSync(log).subarray(from).toString("utf8") : "";
  // What the server did meanwhile, for whoever reads a failed run (CI keeps no server log): its
  // queue deliveries (a delivery that never ends holds its queue), crons, warnings and errors.
  if (task.result?.state === "fail") {
    // ProxyWorker: a request that wrangler's proxy sent again
    // (docs/decisions/0114-the-dev-server-sends-a-lost-request-again.md); a reload of the server.
    const told = added.split("\n").filter((line) => /QUEUE|housekeeping|wrangler:(warn|error)|"level":"(warn|error)"|Uncaught|ProxyWorker|Reloading local server/.test(line));
    // The attempt's own error too: a test that passes on its retry is reported as passed, and its first failure's message is kept nowhere else.
    // The message, then the frames of the stack outside vitest (a timeout's stack names the test, its message the bound).
    const failures = (task.result.errors ?? []).map((e) =>
      [
        messageOf(e),
        ...(e.stack ?? "")
          .split("\n")
          .filter((line) => /^\s+at /.test(line) && !line.includes("node_modules"))
          .slice(0, 6),
      ].join("\n"),
    );
    console.warn(`"${task.name}" failed (attempt ${(task.result.retryCount ?? 0) + 1}); the server ${await serverAnswers()}:\n${failures.join("\n")}`);
    console.warn(`the server during "${task.name}" (last ${SHOWN_ON_FAILURE} of ${told.length} lines):\n${told.slice(-SHOWN_ON_FAILURE).join("\n")}`);
  }
  const errors = added
    .split("\n")
    .filter((line) => line.includes('"level":"error"'))
    .filter((line) => !allowed.some((pattern) => pattern.test(line)));
  expect(errors, "errors the server reported during the test").toEqual([]);
});
