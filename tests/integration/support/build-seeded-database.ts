import { writeFileSync } from "node:fs";
import { createDb } from "../../../db/client";
import { applyMigrations } from "../../../scripts/d1-migrations";
import { seedDemoPlatform, withD1 } from "../../../scripts/local-state";
import { TEST_PASSWORD_ITERATIONS, testPeppers } from "./peppers";
import { snapshotOf } from "./snapshot";

/**
 * Builds the integration project's starting database (docs/testing.md "Integration tests"), run
 * by `tests/integration/support/seeded-database.ts` in a process of its own: every migration in
 * `db/migrations` applied as `npm start` applies them (scripts/d1-migrations.ts; a broken
 * migration fails the run here), the menus synced, the demo seeded with the peppers the Worker is
 * given (its passwords at the tests' work factor, `TEST_PASSWORD_ITERATIONS`), then written out
 * as SQL (`tests/integration/support/snapshot.ts`) for every test file's setup to replay into its
 * own empty D1.
 */

/** Builds the database and writes its SQL, as JSON, to the file named by the first argument. */
async function main() {
  const out = process.argv[2];
  if (!out) throw new Error("usage: tsx tests/integration/support/build-seeded-database.ts <out.json>");
  const snapshot = await withD1(false, async (d1) => {
    await applyMigrations(d1);
    await seedDemoPlatform(createDb(d1), testPeppers, TEST_PASSWORD_ITERATIONS);
    return snapshotOf(d1);
  });
  writeFileSync(out, JSON.stringify(snapshot));
}

await main();
