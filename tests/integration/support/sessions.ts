import { env } from "cloudflare:test";
import { billTransaction } from "../../../workers/services/billing/billing";
import { ensureChargeRecord } from "../../../workers/services/charge-records/lifecycle";
import { systemCtx } from "../../../workers/services/context";
import { makeCard, makeCustomer } from "./drivers";
import { makeCharger } from "./factories";

/** A session as a test describes it; instants in UTC ISO 8601. */
export interface SessionSpec {
  start: string;
  stop?: string;
  meterStart?: number;
  meterStop?: number;
  energyWh?: number;
  auth?: string;
  status?: "ACTIVE" | "COMPLETED" | "ABNORMAL";
  idTag?: string;
  connector?: number;
  /** The strategy version the server recorded at the start. */
  strategyVersionId?: number;
  /** Runs the billing job on it (a stopped session only). */
  bill?: boolean;
}

let tag = 0;

/**
 * Records sessions of a charger the way the product does, without a charger: the transaction
 * row a StartTransaction/StopTransaction pair leaves, its charge record made by the same verb
 * billing uses, and, when asked, the billing job itself. Answers the transaction ids in order.
 */
export async function addSessions(made: { pointId: number; operatorId: number }, list: SessionSpec[], operatorCode = "0PL002") {
  const ctx = systemCtx(env, { id: made.operatorId, code: operatorCode }, "test");
  const ids: number[] = [];
  for (const s of list) {
    const inserted = await env.DB.prepare(
      `INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at, meter_stop_wh, stop_at, status, energy_wh, strategy_version_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
      .bind(
        made.operatorId,
        made.pointId,
        s.connector ?? 1,
        s.idTag ?? `T${Date.now().toString(36)}${++tag}`,
        s.auth ?? "Accepted",
        s.meterStart ?? 0,
        Date.parse(s.start),
        s.meterStop ?? null,
        s.stop ? Date.parse(s.stop) : null,
        s.status ?? (s.stop ? "COMPLETED" : "ACTIVE"),
        s.energyWh ?? null,
        s.strategyVersionId ?? null,
      )
      .first<{ id: number }>();
    await ensureChargeRecord(ctx, inserted!.id);
    if (s.bill) await billTransaction(ctx, inserted!.id);
    ids.push(inserted!.id);
  }
  return ids;
}

/** A stopped session of 12.345 kWh (12.35 zł at 1 zł/kWh) by `idTag` on a fresh charger of 0PL002, not billed yet. */
export async function stoppedSession(idTag: string, versionId: number) {
  const made = await makeCharger("0PL002");
  const stop = Date.now() - 3_600_000;
  const [id] = await addSessions(made, [
    { start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), meterStart: 1_000, meterStop: 13_345, idTag, strategyVersionId: versionId },
  ]);
  return { made, id };
}

/** The same session, its tag a card of a customer of 0PL002 with 50 zł. */
export async function paidSession(adminToken: string, versionId: number) {
  const customer = await makeCustomer(adminToken);
  await env.DB.prepare("UPDATE customers SET balance = 5000 WHERE id = ?").bind(customer.id).run();
  const card = await makeCard(adminToken, { customerId: customer.id });
  return { ...(await stoppedSession(card.idTag, versionId)), customerId: customer.id };
}

/** Runs the billing job on a stopped session (as the queue consumer does). */
export function bill(made: { operatorId: number }, transactionId: number, operatorCode = "0PL002") {
  return billTransaction(systemCtx(env, { id: made.operatorId, code: operatorCode }, "billing"), transactionId);
}
