import { abortAllDurableObjects, env, reset } from "cloudflare:test";
import { inject, vi } from "vitest";
import { closeChargersLeftOpen } from "./charger";
import { TEST_PASSWORD_ITERATIONS } from "./peppers";
import { restore } from "./snapshot";

/**
 * Passwords the tests set (accounts made, initial passwords changed) are hashed at the seeded
 * accounts' work factor, not the product's 100 000 iterations: a hash carries its count, and
 * verifying one is the product's code either way (docs/testing.md "Integration tests").
 */
vi.mock(import("../../../workers/auth/password"), async (importOriginal) => {
  const password = await importOriginal();
  return { ...password, hashPassword: (plain: string, pepper: string) => password.hashPasswordAt(TEST_PASSWORD_ITERATIONS, plain, pepper) };
});

/**
 * The files of one worker share its runtime, one after another (`isolate: false`,
 * docs/decisions/0113-integration-files-share-their-workers-runtime.md): what the file before
 * left is cleared first. Its mocks and stubbed globals are restored, its chargers' sockets closed
 * (their objects land the closing against its database, not this one's), its Durable Objects
 * stopped, every binding's data deleted (D1, the objects' storage, queued messages) and the
 * objects stopped again, so no object, alarm or message of the last file acts on this one's rows.
 * Stopped before the deletion, since an object still at work after its landing met its emptied
 * storage as "no such table: outbox" in the next file's first test; D1's own object, stopped
 * with them, is woken by a query before its data is deleted, which it otherwise was not.
 */
vi.restoreAllMocks();
vi.unstubAllGlobals();
await closeChargersLeftOpen();
await abortAllDurableObjects();
await env.DB.prepare("SELECT 1").run();
await reset();
await abortAllDurableObjects();

/**
 * Every test file starts from the same database: the one migrated and seeded once per run by the
 * global setup (`tests/integration/support/seeded-database.ts`), replayed into the D1 emptied
 * above in one batch (docs/testing.md "Integration tests").
 */
await restore(env.DB, inject("seededDatabase"));

/** The next id of an AUTOINCREMENT table (sqlite_sequence has no key on its name: a row is updated when there is one, else added). */
async function nextIdFrom(table: string, first: number) {
  const moved = await env.DB.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = ?")
    .bind(first - 1, table)
    .run();
  if (moved.meta.changes === 0)
    await env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)")
      .bind(table, first - 1)
      .run();
}

/**
 * Payment ids become Stripe idempotency keys (`keyOf` in workers/services/payments/cards.ts), and
 * the Stripe fake is one for the files that run side by side, each on its own copy of the
 * database: each file's payments start at an id of its own, as they are unique in one database.
 */
await nextIdFrom("payments", 1_000_000 + Math.floor(Math.random() * 1_000_000_000));

/**
 * A file's points start at an id of their own too. The restored database gives the next file the
 * same ids the file before it used, so a write of the last file still on its way when this one
 * began (one was seen: a 1.6 charger's HighTemperature alarm landed on the next file's first point)
 * would land on this file's rows; with ids of its own it meets none of them. Below 810 000, so an
 * id still fits wherever a charger's 32-bit integer carries one.
 */
await nextIdFrom("points", 10_000 + Math.floor(Math.random() * 800_000));
