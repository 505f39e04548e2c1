import { env } from "cloudflare:test";
import { inject } from "vitest";
import { restore } from "./snapshot";

/**
 * Every test file starts from the same database: the one migrated and seeded once per run by the
 * global setup (`tests/integration/support/seeded-database.ts`), replayed into this file's own
 * empty D1 in one batch (docs/testing.md "Integration tests").
 */
await restore(env.DB, inject("seededDatabase"));
