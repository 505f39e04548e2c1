import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { consumeBilling } from "../../workers/jobs/billing";
import { consumeOutbox } from "../../workers/jobs/outbox";
import { row, rows } from "./support/d1";
import { operatorIdOf } from "./support/driver-rows";
import { call, tokenFor } from "./support/http";
import { paidSession as paidSessionOf } from "./support/sessions";
import { flatStrategy } from "./support/strategies";

/**
 * Queues deliver at least once, in no promised order (docs/testing.md "Chaos"): each consumer
 * here gets every message twice, the batch in reverse order, and the same batch again side by
 * side with itself, as two deliveries of one message may run at once. Nothing may be billed,
 * debited or pushed twice.
 */
const { httpOrigin } = inject("fakes");

let pl: string;
let operatorId: number;

beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  operatorId = await operatorIdOf("0PL002");
});

/** `bodies` twice each, the second copy in reverse order: a, b, b, a. */
const twiceReversed = <T>(bodies: T[]) => [...bodies, ...[...bodies].reverse()];

/** A batch of `bodies` for `queue`, each message's verdict kept. */
function batchOf(queue: string, bodies: unknown[]) {
  const verdicts: string[] = [];
  const batch = {
    queue,
    messages: bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") })),
  } as unknown as MessageBatch<unknown>;
  return { batch, verdicts };
}

/** A stopped session of 12.345 kWh on a fresh charger, paid by a customer with 50 zł. */
const paidSession = (versionId: number) => paidSessionOf(pl, versionId);

describe("the billing queue delivered twice and out of order", () => {
  it("bills and debits each session once", async () => {
    const { versionId } = await flatStrategy(pl);
    const sessions = [await paidSession(versionId), await paidSession(versionId), await paidSession(versionId)];
    const bodies = twiceReversed(sessions.map((s) => ({ transactionId: s.id, operatorId, operatorCode: "0PL002" })));

    const first = batchOf("plugdesk-billing", bodies);
    const second = batchOf("plugdesk-billing", [...bodies].reverse());
    await Promise.all([consumeBilling(first.batch, env), consumeBilling(second.batch, env)]);
    expect([...first.verdicts, ...second.verdicts].filter((v) => v !== "ack")).toEqual([]);

    for (const s of sessions) {
      // 12.345 kWh at 1.0000 zł: 12.35 zł, once.
      expect(await rows("SELECT cost, type FROM bills WHERE transaction_id = ?", s.id)).toEqual([{ cost: 1_235, type: "Charging" }]);
      expect(await row("SELECT balance FROM customers WHERE id = ?", s.customerId)).toEqual({ balance: 5_000 - 1_235 });
      expect(await row("SELECT COUNT(*) AS n, total_cost AS total FROM charge_records WHERE transaction_id = ?", s.id)).toEqual({ n: 1, total: 1_235 });
    }
  });
});

describe("the outbox queue delivered twice and out of order", () => {
  let path: string;
  beforeAll(async () => {
    path = `/redelivered-bills-${Date.now().toString(36)}`;
    const doc = (await call("GET", "/system-service/parameter-settings", { token: pl })).body.data;
    const res = await call("PUT", "/system-service/parameter-settings", {
      token: pl,
      body: { ...doc, billPush: { url: `${httpOrigin}${path}`, signatureKey: "bill-push-key-0123456789abcdef" } },
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    const doc = (await call("GET", "/system-service/parameter-settings", { token: pl })).body.data;
    await call("PUT", "/system-service/parameter-settings", { token: pl, body: { ...doc, billPush: { url: null, signatureKey: null } } });
  });

  it("pushes each settled record to the receiver once", async () => {
    const { versionId } = await flatStrategy(pl);
    const sessions = [await paidSession(versionId), await paidSession(versionId)];
    // Billing queues the pushes; they are caught here and delivered by hand, twice and reversed.
    const caught: unknown[] = [];
    const spy = vi.spyOn(env.OUTBOX, "sendBatch").mockImplementation((async (messages: Iterable<MessageSendRequest>) => {
      for (const m of messages) caught.push(m.body);
    }) as never);
    vi.spyOn(env.OUTBOX, "send").mockImplementation((async (body: unknown) => void caught.push(body)) as never);
    await consumeBilling(batchOf("plugdesk-billing", sessions.map((s) => ({ transactionId: s.id, operatorId, operatorCode: "0PL002" }))).batch, env);
    spy.mockRestore();
    vi.restoreAllMocks();
    const pushes = caught.filter((m) => (m as { kind: string }).kind === "billPush");
    expect(pushes).toHaveLength(2);

    const bodies = twiceReversed(pushes);
    const first = batchOf("plugdesk-outbox", bodies);
    const second = batchOf("plugdesk-outbox", [...bodies].reverse());
    await Promise.all([consumeOutbox(first.batch, env), consumeOutbox(second.batch, env)]);

    const received = (await (await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent(path)}`)).json()) as { body: string }[];
    const pushed = received.map((r) => (JSON.parse(r.body) as { transactionId: number }).transactionId).sort();
    expect(pushed).toEqual(sessions.map((s) => s.id).sort());
  });
});
