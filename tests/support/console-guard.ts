import { afterEach, beforeEach, expect } from "vitest";

/**
 * A test fails on an unexpected `console.error` (docs/architecture.md "Tests"): a 500 the
 * Worker logs, a handler that threw, a React warning. A test that provokes an error on purpose
 * says so with `allowConsoleError(/what it logs/)`.
 */
const original = console.error.bind(console);
let allowed: RegExp[] = [];
let logged: string[] = [];

export function allowConsoleError(pattern: RegExp) {
  allowed.push(pattern);
}

const text = (args: unknown[]) => args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === "string" ? a : JSON.stringify(a))).join(" ");

beforeEach(() => {
  allowed = [];
  logged = [];
  console.error = (...args: unknown[]) => {
    const line = text(args);
    if (!allowed.some((pattern) => pattern.test(line))) logged.push(line);
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  expect(logged, "console.error during the test").toEqual([]);
});
