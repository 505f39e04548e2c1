import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

/**
 * The integration project's starting database, built once per run (docs/testing.md "Integration
 * tests") by `tests/integration/support/build-seeded-database.ts`, and handed to every test
 * file's setup as SQL to replay into its own empty D1.
 * The build runs in a Node process of its own, as `npm start`'s seed does, outside vitest's
 * module runner.
 */
declare module "vitest" {
  export interface ProvidedContext {
    seededDatabase: string[];
  }
}

const script = fileURLToPath(new URL("./build-seeded-database.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

export async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "plugdesk-seeded-"));
  const out = join(dir, "database.json");
  try {
    await promisify(execFile)(tsx, [script, out], { maxBuffer: 16 * 1024 * 1024 });
    project.provide("seededDatabase", JSON.parse(readFileSync(out, "utf8")) as string[]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
