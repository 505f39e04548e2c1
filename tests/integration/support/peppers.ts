/**
 * The peppers the integration project's Worker is given (`vitest.config.ts`): the seeded database
 * is built in Node before the tests (`tests/integration/support/seeded-database.ts`), and its
 * password hashes and charger keys must verify with what the Worker reads.
 */
export const testPeppers = {
  PASSWORD_PEPPER: "test-pepper",
  CHARGER_KEY_PEPPER: "test-charger-pepper",
} as const;

/**
 * The work factor of the seeded demo accounts' password hashes: a login verifies at the count its
 * hash carries, so the hundreds of demo logins of a run cost half a millisecond each instead of
 * 50 ms (docs/testing.md "Integration tests"). Accounts the tests make are hashed as the product
 * hashes them.
 */
export const SEEDED_PASSWORD_ITERATIONS = 1_000;
