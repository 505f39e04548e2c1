import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = { "~": here("./app") };
/** Fails a test on an unexpected console.error. */
const guard = "./tests/support/console-guard.ts";

/**
 * Three projects: `unit` (pure domain rules, Node), `integration` (the Worker in the Workers
 * runtime with real D1 migrations), `e2e` (the product served locally, driven by Chromium).
 */
export default defineConfig({
  test: {
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          setupFiles: [guard],
          // The static checks read the whole source tree: seconds on a busy two-core machine.
          testTimeout: 30_000,
        },
      },
      {
        resolve: {
          alias: { ...alias, "virtual:react-router/server-build": here("./tests/integration/support/server-build-stub.ts") },
        },
        plugins: [
          cloudflareTest(async () => ({
            main: "./workers/app.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(here("./db/migrations")),
                DEV_CAPTCHA: "1234",
                // As in local development: nothing vouches for CF-Connecting-IP.
                BEHIND_CLOUDFLARE: "false",
                PASSWORD_PEPPER: "test-pepper",
                CHARGER_KEY_PEPPER: "test-charger-pepper",
                SECRETS_KEY: "test-secrets-key",
                // Short enough that the time-out path is tested without waiting 30 s.
                OCPP_CALL_TIMEOUT_MS: "1500",
              },
            },
          })),
        ],
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // Local SMTP and HTTP servers standing in for mail, bill-push and invoice receivers.
          globalSetup: ["./tests/integration/support/fakes.ts"],
          setupFiles: ["./tests/integration/support/setup.ts", guard],
          // Generous bounds for a busy two-core machine; no test asserts on time.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts", "tests/peers/**/*.test.ts"],
          // After the other projects: the browser and the local server want both cores.
          sequence: { groupOrder: 1 },
          environment: "node",
          globalSetup: ["./tests/e2e/support/global-setup.ts"],
          setupFiles: [guard, "./tests/e2e/support/server-errors.ts"],
          fileParallelism: false,
          // A screen waited on with expect.poll gets as long as a slow, shared machine needs
          // (vitest's default is one second); no test asserts on time.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          testTimeout: 90_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
