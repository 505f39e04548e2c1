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

afterEach(() => {
  const added = existsSync(log) ? readFileSync(log).subarray(from).toString("utf8") : "";
  const errors = added
    .split("\n")
    .filter((line) => line.includes('"level":"error"'))
    .filter((line) => !allowed.some((pattern) => pattern.test(line)));
  expect(errors, "errors the server reported during the test").toEqual([]);
});
