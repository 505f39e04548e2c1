import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { testPeppers } from "./tests/integration/support/peppers.ts";
import LongFilesFirst from "./tests/support/sequencer.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const alias = { "~": here("./app") };
/** Browser and peer test files run at once; E2E_FILES_AT_ONCE=1 runs them one after another. */
const E2E_FILES_AT_ONCE = Number(process.env.E2E_FILES_AT_ONCE) || 3;
/** Fails a test on an unexpected console.error. */
const guard = "./tests/support/console-guard.ts";

/**
 * Four projects: `unit` (pure domain rules, Node), `integration` (the Worker in the Workers
 * runtime with real D1 migrations), `chaos` (a product of its own killed and restarted), `e2e`
 * (the product served locally, driven by Chromium).
 */
export default defineConfig({
  test: {
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    // `unit`, `integration` and `chaos` run together, one file per core and three more: an
    // integration file waits on its runtime, its timers and the local fakes for part of its time,
    // which the extra files fill (docs/testing.md "The runner": on two cores the whole run took
    // 10 min 13 s with three more against 10 min 26 s with two; the two layers alone took 4 min 25 s
    // with one more). `e2e` sets its own.
    maxWorkers: availableParallelism() + 3,
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          // A worker's files share its process and modules, imported once rather than once a
          // file: half the layer's CPU (docs/testing.md "Unit tests"). Its setup undoes what
          // the file before left.
          isolate: false,
          setupFiles: ["./tests/unit/support/setup.ts", guard],
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
                DEV_CAPTCHA: "1234",
                // As in local development: nothing vouches for CF-Connecting-IP.
                BEHIND_CLOUDFLARE: "false",
                // The seeded database's hashes are made with these (tests/integration/support/seeded-database.ts).
                ...testPeppers,
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
          // A worker's files run one after another in its one runtime, each setup clearing what the
          // file before left (docs/decisions/0113-integration-files-share-their-workers-runtime.md).
          isolate: false,
          // Local SMTP and HTTP servers standing in for mail, bill-push and invoice receivers, and
          // the database every file starts from, migrated and seeded once per run
          // (docs/testing.md "Integration tests").
          globalSetup: ["./tests/integration/support/fakes.ts", "./tests/integration/support/seeded-database.ts"],
          setupFiles: ["./tests/integration/support/setup.ts", guard],
          // Generous bounds for a busy two-core machine; no test asserts on time.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The chaos harness serves, kills and restarts a product of its own (its own state, port
          // and copy of the build), so it needs neither the browser layer's server nor its
          // Chromium: it runs beside the integration files, on the CPU their waits leave idle,
          // instead of taking a third of the browser layer's slots for two minutes
          // (docs/testing.md "Chaos").
          name: "chaos",
          include: ["tests/chaos/**/*.test.ts"],
          environment: "node",
          setupFiles: [guard],
          // No maxWorkers of its own: vitest runs a project with one worker and isolated files in a
          // group of its own after every other, and projects of one group share one bound.
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
          // Three files side by side against the one server: the browser, the server and the test
          // mostly wait on each other (docs/testing.md "Browser tests"). A file that changes demo
          // state others use holds it (tests/e2e/support/exclusive.ts).
          maxWorkers: E2E_FILES_AT_ONCE,
          // A worker's files share its modules (playwright's client, the catalogues, the support
          // code), imported once rather than once a file: about a second of CPU less per file on
          // two cores (docs/testing.md "Browser tests"). Each file still opens its own browser
          // context, and the setup files still run before each file.
          isolate: false,
          // A browser test that fails is run once more before the file fails: three files share two
          // cores, and a page's load can outlast a bound once (docs/testing.md "Browser tests").
          retry: 1,
          // A screen or a charge waited on with expect.poll gets as long as a slow, shared machine
          // needs (vitest's default is one second); a bound only a failing test reaches, no test
          // asserts on time.
          expect: { poll: { timeout: 30_000, interval: 100 } },
          testTimeout: 90_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
