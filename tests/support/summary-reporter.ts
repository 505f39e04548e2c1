import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends a run with one plain line, `Tests: N passed, N failed`, so that CI tooling that reads
 * closing lines counts what ran, whichever projects took part.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    // An unhandled error fails the run even when every test passed; count it as a failure.
    failed += unhandledErrors.length;
    console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  }
}
