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
 *
 * The build runs in a process of its own, tried up to three times: it talks to D1 through
 * wrangler's platform proxy, whose synchronous fetch can, rarely, fail an assertion of its own
 * (a race inside miniflare, `message?.id === id`), sometimes outside any promise the build holds.
 * In this process that would fail the whole run; in a child it only fails one attempt.
 */
declare module "vitest" {
  export interface ProvidedContext {
    seededDatabase: string[];
  }
}

const ATTEMPTS = 3;
const script = fileURLToPath(new URL("./build-seeded-database.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

export async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "plugdesk-seeded-"));
  const out = join(dir, "database.json");
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await promisify(execFile)(tsx, [script, out], { maxBuffer: 16 * 1024 * 1024 });
        break;
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
        console.warn(`Building the seeded test database failed (attempt ${attempt} of ${ATTEMPTS}); trying again.`, error);
      }
    }
    project.provide("seededDatabase", JSON.parse(readFileSync(out, "utf8")) as string[]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
