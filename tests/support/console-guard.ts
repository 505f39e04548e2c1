import { afterEach, beforeEach, expect } from "vitest";

/**
 * A test fails on an unexpected `console.error` (docs/architecture.md "Tests"): a 500 the
 * Worker logs, a handler that threw, a React warning. A test that provokes an error on purpose
 * says so with `allowConsoleError(/what it logs/)`, before or after provoking it: the lines are
 * judged when the test ends.
 */
const original = console.error.bind(console);
let allowed: RegExp[] = [];
let logged: string[] = [];

export function allowConsoleError(pattern: RegExp) {
  allowed.push(pattern);
}

/** Every line logged with `console.error` during this test, allowed or not. */
export function seen(): readonly string[] {
  return [...logged];
}

/** The lines of this test that no `allowConsoleError` pattern allows: the test fails if any is left when it ends. */
export function unexpected(): string[] {
  return logged.filter((line) => !allowed.some((pattern) => pattern.test(line)));
}

const text = (args: unknown[]) => args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === "string" ? a : JSON.stringify(a))).join(" ");

beforeEach(() => {
  allowed = [];
  logged = [];
  console.error = (...args: unknown[]) => {
    logged.push(text(args));
    original(...args);
  };
});

afterEach(() => {
  console.error = original;
  expect(unexpected(), "console.error during the test").toEqual([]);
});
