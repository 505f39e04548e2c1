import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consumeBilling } from "../../workers/jobs/billing";
import { allowConsoleError, seen, unexpected } from "../support/console-guard";

/**
 * The console guard (docs/architecture.md "Tests") hears what the Worker reports in the Workers
 * runtime: an unreadable billing message is reported with `reportError` and acknowledged, and
 * the guard sees that line; unallowed, it would fail the test.
 */
async function deliverUnreadable() {
  const verdicts: string[] = [];
  const message = { id: "guard", timestamp: new Date(), attempts: 1, body: { transactionId: "not a number" }, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") };
  await consumeBilling({ queue: "plugdesk-billing", messages: [message] } as unknown as MessageBatch<unknown>, env);
  return verdicts;
}

const REPORTED = /"level":"error","where":"billing".*"message":"unreadable message"/;

describe("the console guard", () => {
  it("sees the error line a queue consumer reports, and lets it pass when the test allows it", async () => {
    allowConsoleError(REPORTED);
    expect(await deliverUnreadable()).toEqual(["ack"]);
    expect(seen()).toEqual([expect.stringMatching(REPORTED)]);
    expect(unexpected()).toEqual([]);
  });

  it("counts the same line against a test that did not allow it", async () => {
    expect(await deliverUnreadable()).toEqual(["ack"]);
    expect(unexpected()).toEqual([expect.stringMatching(REPORTED)]);
    // Allowed only now, so that this test itself can pass: the guard judges when the test ends.
    allowConsoleError(REPORTED);
    expect(unexpected()).toEqual([]);
  });
});
