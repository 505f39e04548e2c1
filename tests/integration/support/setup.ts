import { abortAllDurableObjects, env, reset } from "cloudflare:test";
import { inject, vi } from "vitest";
import { restore } from "./snapshot";

/**
 * The files of one worker share its runtime, one after another (`isolate: false`,
 * docs/decisions/0113-integration-files-share-their-workers-runtime.md): what the file before
 * left is cleared first. Its mocks and stubbed globals are restored, every binding's data deleted
 * (D1, the objects' storage, queued messages) and its Durable Objects stopped, so no object, alarm
 * or message of the last file acts on this one's rows. In this order: the objects stopped first
 * left D1's own object unable to be emptied.
 */
vi.restoreAllMocks();
vi.unstubAllGlobals();
await reset();
await abortAllDurableObjects();

/**
 * Every test file starts from the same database: the one migrated and seeded once per run by the
 * global setup (`tests/integration/support/seeded-database.ts`), replayed into the D1 emptied
 * above in one batch (docs/testing.md "Integration tests").
 */
await restore(env.DB, inject("seededDatabase"));

/**
 * Payment ids become Stripe idempotency keys (`keyOf` in workers/services/payments/cards.ts), and
 * the Stripe fake is one for the files that run side by side, each on its own copy of the
 * database: each file's payments start at an id of its own, as they are unique in one database.
 */
const firstPaymentId = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
// sqlite_sequence has no key on its name: a row is updated when there is one, else added.
const moved = await env.DB.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'payments'").bind(firstPaymentId).run();
if (moved.meta.changes === 0) await env.DB.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('payments', ?)").bind(firstPaymentId).run();
