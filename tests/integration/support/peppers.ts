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
 * The work factor of the tests' password hashes, the seeded demo accounts' and those of the
 * accounts the tests make (tests/integration/support/setup.ts): a login verifies at the count its
 * hash carries, so the hundreds of logins of a run cost under a millisecond each instead of about
 * 33 ms (docs/testing.md "Integration tests").
 */
export const TEST_PASSWORD_ITERATIONS = 1_000;
