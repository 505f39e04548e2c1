import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemCtx } from "../../workers/services/context";

/**
 * The system context of chargers, jobs and cron is built in one place, `systemCtx`
 * (`workers/services/context.ts`; docs/architecture.md "One door"): a system actor, a request of
 * the system or an operator reference written by hand elsewhere fails here, so what a system
 * context knows cannot drift between the doors that build one.
 */
const root = join(import.meta.dirname, "../..");
const BUILDER = "workers/services/context.ts";
const FOLDERS = ["workers", "scripts", "db", "app", "tenants", "domain", "tests"];

/** What only the builder writes: the system actor, the system's request line, an operator reference. */
const HAND_BUILT: [string, RegExp][] = [
  ["a system actor", /kind:\s*["'`]system["'`]/],
  ["the system's request", /method:\s*["'`]SYSTEM["'`]/],
  ["an operator reference", /\bsub:\s*0\s*,\s*parentId:\s*null|\bparentId:\s*null\s*,\s*sub:\s*0\b/],
];

export function handBuiltSystemContexts(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) => HAND_BUILT.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${path}:${index + 1} ${what}`));
}

const sources = FOLDERS.flatMap((folder) =>
  readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name) && !name.includes("node_modules"))
    .map((name) => `${folder}/${name}`),
).filter((path) => path !== BUILDER && path !== "tests/unit/system-context.test.ts");

describe("the system context", () => {
  it("is built by systemCtx alone: no module writes a system actor or an operator reference by hand", () => {
    const found = sources.flatMap((path) => handBuiltSystemContexts(path, readFileSync(join(root, path), "utf8")));
    expect(found).toEqual([]);
  });

  it("the check can fail: it names each hand-built piece of a context", () => {
    const handBuilt = [
      'const ctx = { db, env, lang: "en", now: Date.now,',
      '  operator: { id: 7, code: "0PL002", sub: 0, parentId: null },',
      '  actor: { kind: "system", name: "billing" },',
      '  request: { ip: "system", url: "billing", method: "SYSTEM", userAgent: null } } as SystemCtx;',
    ].join("\n");
    expect(handBuiltSystemContexts("workers/jobs/example.ts", handBuilt)).toEqual([
      "workers/jobs/example.ts:2 an operator reference",
      "workers/jobs/example.ts:3 a system actor",
      "workers/jobs/example.ts:4 the system's request",
    ]);
  });

  it("takes the operator as a query found it or as a charger's identity or a job's message names it", () => {
    const env = { DB: {} } as Env;
    const fromMessage = systemCtx(env, { operatorId: 7, operatorCode: "0PL002" }, "billing");
    const fromRow = systemCtx(env, { id: 7, code: "0PL002" }, "billing");
    expect(fromMessage.operator).toEqual({ id: 7, code: "0PL002", sub: 0, parentId: null });
    expect(fromRow.operator).toEqual(fromMessage.operator);
    const subOperator = systemCtx(env, { id: 9, code: "0PL002-S", sub: 1, parentId: 7 }, "account deletion page");
    expect(subOperator.operator).toEqual({ id: 9, code: "0PL002-S", sub: 1, parentId: 7 });
    expect(fromMessage.actor).toEqual({ kind: "system", name: "billing" });
    expect(fromMessage.request).toEqual({ ip: "system", url: "billing", method: "SYSTEM", userAgent: null });
  });
});
