import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { changeWriterName, type ChangeWriter } from "../../workers/ocpp/change-writer";
import { chargePointName } from "../../workers/ocpp/identity";
import type { ChargerOutbox } from "../../workers/ocpp/outbox";
import { consumeBilling } from "../../workers/jobs/billing";
import { allowConsoleError } from "../support/console-guard";
import { boot, connect, eventually, landed } from "./support/charger";
import { makeCharger } from "./support/factories";
import { tokenFor } from "./support/http";
import { paidSession } from "./support/sessions";
import { flatStrategy } from "./support/strategies";

/**
 * D1 refuses or times out (docs/testing.md "Chaos"): the charger's changes and the billing job
 * meet a D1 whose batches fail, before they apply or after (a time-out whose write went through).
 * The failure is injected here only, by wrapping the binding the object or the consumer is given;
 * nothing in the product can turn it on. Changes are retried in order, none is lost or applied
 * twice, and the charger keeps being answered.
 */

/** When the wrapped D1's batches fail: not at all, before they apply, or after they applied. */
interface Refusal {
  mode: "none" | "before" | "after";
  refused: number;
}

function refusingD1(real: D1Database, refusal: Refusal): D1Database {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (refusal.mode === "before") {
            refusal.refused++;
            throw new Error("D1_ERROR: injected refusal");
          }
          const results = await target.batch(statements);
          if (refusal.mode === "after") {
            refusal.refused++;
            throw new Error("D1_ERROR: injected time-out after the write");
          }
          return results;
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const connectorRows = (id: number) =>
  env.DB.prepare("SELECT connector_no, status, error_code FROM connectors WHERE point_id = ? ORDER BY connector_no")
    .bind(id)
    .all<{ connector_no: number; status: string | null; error_code: string | null }>()
    .then((r) => r.results);

describe("the change writer meets a failing D1", () => {
  it.each(["before", "after"] as const)("retries a charger's changes in order when D1 fails %s applying them, answering the charger meanwhile, and applies none twice", async (mode) => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    await landed();
    const writer = env.CHANGE_WRITER.getByName(changeWriterName(made.operatorId));
    const refusal: Refusal = { mode, refused: 0 };
    await runInDurableObject(writer, (instance: ChangeWriter) => {
      const own = instance as unknown as { env: Env };
      own.env = { ...own.env, DB: refusingD1(own.env.DB, refusal) };
    });
    allowConsoleError(/ocpp changes to D1.*injected/);
    // Answered from the charger's own state while D1 refuses what they change.
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing" });
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "GroundFailure", status: "Faulted" });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Unavailable" });
    expect(await charger.call("Heartbeat", {})).toHaveProperty("currentTime");
    await eventually(
      async () => refusal.refused,
      (n) => n > 0,
    );
    refusal.mode = "none";
    // The charger's alarm sends again what is still in its outbox.
    const stub = env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber));
    await runDurableObjectAlarm(stub);
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "GroundFailure", status: "Faulted" });
    const rows = await eventually(
      () => connectorRows(made.pointId),
      (r) => r[0]?.status === "Unavailable" && r[1]?.status === "Faulted",
    );
    expect(rows).toEqual([
      { connector_no: 1, status: "Unavailable", error_code: "NoError" },
      { connector_no: 2, status: "Faulted", error_code: "GroundFailure" },
    ]);
    // Nothing waits beyond what D1 has (docs/performance.md "The outbox's rows leave with the next write").
    await runInDurableObject(stub, (instance) => {
      expect((instance as unknown as { outbox: ChargerOutbox }).outbox.pending()).toBe(false);
    });
    // The fault was raised once, however often its change went to D1.
    expect((await env.DB.prepare("SELECT count(*) AS n FROM alarms WHERE point_id = ? AND type = 'GroundFailure'").bind(made.pointId).first())!.n).toBe(1);
    await runInDurableObject(writer, (instance: ChangeWriter) => {
      const own = instance as unknown as { env: Env };
      own.env = env;
    });
  });
});

describe("the billing job meets a failing D1", () => {
  it.each(["before", "after"] as const)("bills and debits a session once when D1 fails %s applying the billing's batch, and the message comes again", async (mode) => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const operatorId = (await env.DB.prepare("SELECT id FROM operators WHERE code = '0PL002'").first<{ id: number }>())!.id;
    const { versionId } = await flatStrategy(pl);
    const { id, customerId } = await paidSession(pl, versionId);
    const verdicts: string[] = [];
    const batch = {
      queue: "plugdesk-billing",
      messages: [{ id: "m", timestamp: new Date(), attempts: 1, body: { transactionId: id, operatorId, operatorCode: "0PL002" }, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") }],
    } as unknown as MessageBatch<unknown>;
    const refusal: Refusal = { mode, refused: 0 };
    allowConsoleError(/"where":"billing".*injected/);
    await consumeBilling(batch, { ...env, DB: refusingD1(env.DB, refusal) });
    expect(refusal.refused).toBeGreaterThan(0);
    expect(verdicts).toEqual(["retry"]);
    // The queue's retry, with D1 answering again.
    await consumeBilling(batch, env);
    expect(verdicts).toEqual(["retry", "ack"]);
    expect(await env.DB.prepare("SELECT cost FROM bills WHERE transaction_id = ?").bind(id).all().then((r) => r.results)).toEqual([{ cost: 1_235 }]);
    expect(await env.DB.prepare("SELECT balance FROM customers WHERE id = ?").bind(customerId).first()).toEqual({ balance: 5_000 - 1_235 });
  });
});
