/**
 * The peppers the integration project's Worker is given (`vitest.config.ts`): the seeded database
 * is built in Node before the tests (`tests/integration/support/seeded-database.ts`), and its
 * password hashes and charger keys must verify with what the Worker reads.
 */
export const testPeppers = {
  PASSWORD_PEPPER: "test-pepper",
  CHARGER_KEY_PEPPER: "test-charger-pepper",
} as const;
