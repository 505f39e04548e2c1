import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * `npm run chaos` at its small size (docs/testing.md "Chaos"): the runtime killed under sessions of
 * both OCPP versions and a reconnect storm, against a product of its own (own state, build folder
 * and port): serving the browser tests' build from a second server took their server down. The queue-redelivery and D1-fault
 * tests run in the integration project anyway, so the harness leaves them out here.
 */
/** The run's build, fresh from the global setup: copied into the harness's own folder instead of built again. */
const RUN_BUILD = process.env.PLUGDESK_BUILD_DIR ?? "build";
/** Longer than the harness's own bound (scripts/chaos/index.ts `GIVE_UP_AFTER_MS`), shorter than the test's. */
const HARNESS_MS = 540_000;
describe("chaos", () => {
  it(
    "loses and doubles nothing when the runtime dies mid-session and the fleet reconnects at once",
    async () => {
      const { code, output } = await new Promise<{ code: number; output: string }>((done) => {
        // Its own process group, so that a harness stuck past HARNESS_MS goes whole, with what it printed.
        const harness = spawn("npx", ["tsx", "scripts/chaos/index.ts", "--live-only", "--copy-build", RUN_BUILD], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
        const chunks: Buffer[] = [];
        harness.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
        harness.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
        const stuck = setTimeout(() => process.kill(-harness.pid!, "SIGKILL"), HARNESS_MS);
        harness.on("close", (exit) => {
          clearTimeout(stuck);
          done({ code: exit ?? 1, output: Buffer.concat(chunks).toString() });
        });
      });
      const closing = output.trimEnd().split("\n").pop();
      expect(closing, output.slice(-6000)).toBe("chaos: lost 0, doubled 0");
      expect(code, output.slice(-6000)).toBe(0);
    },
    // It serves a product of its own and restarts it once: minutes on a busy two-core machine.
    600_000,
  );
});
