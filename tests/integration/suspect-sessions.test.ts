import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { at, card, energy, startedBy } from "../support/ocpp201";
import { boot, connect, eventually, freshTag, landed, type TestCharger } from "./support/charger";
import { row } from "./support/d1";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";

/**
 * Suspect sessions (docs/rules/monitoring.md "Suspect sessions"): transactions without a stop that
 * look stuck, listed as soon as they qualify (computed when read), and closed by an operator with
 * a meter reading, billed once, the charger then asked for its status.
 */

const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

async function online(operatorCode = "0PL002") {
  const made = await makeCharger(operatorCode);
  const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
  await boot(charger);
  for (const connectorId of [1, 2]) await charger.call("StatusNotification", { connectorId, status: "Available", errorCode: "NoError", timestamp: at() });
  return { ...made, charger };
}

async function start(charger: TestCharger, pointId: number, connectorId: number, timestamp: string, meterStart = 1000): Promise<number> {
  const idTag = await freshTag(pointId);
  await charger.call("StatusNotification", { connectorId, status: "Charging", errorCode: "NoError", timestamp: at() });
  return (await charger.call("StartTransaction", { connectorId, idTag, meterStart, timestamp })).transactionId;
}

type Suspect = { transactionId: number; pointId: number; serialNumber: string; connectorId: number; startedAt: string; reason: string };

async function suspectsOf(token: string, serialNumber: string, extra = "") {
  const answer = await call<{ records: Suspect[]; total: number }>("GET", `/station-service/charge/suspect?size=100&serialNumber=${serialNumber}${extra}`, { token });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe("the suspect list", () => {
  it("lists a session with no stop past the operator's threshold, counted from the start the charger reported", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger, pointId, serialNumber } = await online();
    const oldAt = ago(25);
    const old = await start(charger, pointId, 1, oldAt);
    await start(charger, pointId, 2, ago(1));
    const { records, total } = await suspectsOf(admin, serialNumber);
    expect(total).toBe(1);
    expect(records).toEqual([{ transactionId: old, pointId, serialNumber, connectorId: 1, startedAt: oldAt, reason: "NO_STOP", pointName: serialNumber, stationName: expect.any(String), online: true, idTag: expect.any(String), meterStartWh: 1000, status: "ACTIVE" }]);

    // The operator's threshold decides: at 48 h, neither is listed; at 1 h both are, as soon as read.
    const current = (await call("GET", "/system-service/parameter-settings", { token: admin })).body.data;
    const put = (stuckSessionHours: number) => call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...current, resilience: { ...current.resilience, stuckSessionHours } } });
    expect((await put(48)).status).toBe(200);
    expect((await suspectsOf(admin, serialNumber)).total).toBe(0);
    expect((await put(0)).status).toBe(400);
    expect((await put(1)).status).toBe(200);
    expect((await suspectsOf(admin, serialNumber)).records.map((r) => r.reason)).toEqual(["NO_STOP", "NO_STOP"]);
    expect((await put(24)).status).toBe(200);
    charger.close();
  });

  it("lists a session whose connector the charger reports Available, or that another transaction took", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger, pointId, serialNumber } = await online();
    const freed = await start(charger, pointId, 1, at());
    const replaced = await start(charger, pointId, 2, at(-60));
    await charger.call("StatusNotification", { connectorId: 1, status: "Available", errorCode: "NoError", timestamp: at() });
    const newer = await start(charger, pointId, 2, at());
    await landed();
    const { records } = await suspectsOf(admin, serialNumber);
    expect(records.map((r) => [r.transactionId, r.reason]).sort()).toEqual(
      [
        [freed, "CONNECTOR_FREE"],
        [replaced, "CONNECTOR_FREE"],
      ].sort(),
    );
    expect(records.some((r) => r.transactionId === newer)).toBe(false);
    expect((await suspectsOf(admin, serialNumber, "&reason=NO_STOP")).total).toBe(0);
    expect((await suspectsOf(admin, serialNumber, "&reason=CONNECTOR_FREE")).total).toBe(2);
    expect((await call("GET", "/station-service/charge/suspect?reason=LOST", { token: admin })).status).toBe(400);
    charger.close();
  });

  it("lists a session whose meter runs backwards or jumps beyond the connector's power", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger, pointId, serialNumber } = await online();
    const calm = await start(charger, pointId, 1, at(-600));
    const jumping = await start(charger, pointId, 2, at(-600));
    const reading = (transactionId: number, connectorId: number, value: number, offsetS: number) =>
      charger.call("MeterValues", { connectorId, transactionId, meterValue: [{ timestamp: at(offsetS), sampledValue: [{ value: String(value) }] }] });
    // 11 kW over 60 s is at most about 183 Wh.
    await reading(calm, 1, 1100, -120);
    await reading(calm, 1, 1250, -60);
    await reading(jumping, 2, 1100, -120);
    await reading(jumping, 2, 60_000, -60);
    const flagged = await eventually(
      () => suspectsOf(admin, serialNumber),
      (page) => page.total === 1,
    );
    expect(flagged.records.map((r) => [r.transactionId, r.reason])).toEqual([[jumping, "METER"]]);
    // It jumps again: the transaction is already under review, so no second row.
    await reading(jumping, 2, 200_000, -30);
    await reading(jumping, 2, 400_000, 0);
    await reading(calm, 1, 900, 0);
    const both = await eventually(
      () => suspectsOf(admin, serialNumber, "&reason=METER"),
      (page) => page.total === 2,
    );
    expect(both.records.map((r) => r.transactionId).sort()).toEqual([calm, jumping].sort());
    // Counted once the later review (the calm one's) has landed, so a second jump row would have too.
    const reviews = await env.DB.prepare("SELECT COUNT(*) AS n FROM ocpp_reviews WHERE kind = 'METER_JUMP' AND transaction_id = ?").bind(jumping).first<{ n: number }>();
    expect(reviews?.n).toBe(1);
    charger.close();
  });

  it("pages on the server: 100 a page with more than 100 suspects", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { pointId, serialNumber } = await makeCharger("0PL002");
    const statements = Array.from({ length: 105 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at, status, created_at) SELECT operator_id, id, 1, ?, 'Accepted', 0, ?, 'ACTIVE', ? FROM points WHERE id = ?",
      ).bind(`BULK${i}`, Date.now() - (30 + i) * 3_600_000, Date.now(), pointId),
    );
    await env.DB.batch(statements);
    const first = await suspectsOf(admin, serialNumber);
    expect(first.total).toBe(105);
    expect(first.records).toHaveLength(100);
    // Oldest first.
    expect(Date.parse(first.records[0].startedAt)).toBeLessThan(Date.parse(first.records[99].startedAt));
    const second = (await call("GET", `/station-service/charge/suspect?size=100&current=2&serialNumber=${serialNumber}`, { token: admin })).body.data;
    expect(second.records).toHaveLength(5);
    expect(new Set([...first.records, ...second.records].map((r: Suspect) => r.transactionId)).size).toBe(105);
    expect((await call("GET", "/station-service/charge/suspect?size=101", { token: admin })).status).toBe(400);
  });
});

describe("closing a suspect session", () => {
  it("bills it once with the operator's reading, asks the charger for its status, and lets neither a second close nor a late stop change it", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger, pointId, serialNumber } = await online();
    const transactionId = await start(charger, pointId, 1, ago(30), 1000);
    await charger.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: at(-5), sampledValue: [{ value: "4200" }] }] });
    expect((await suspectsOf(admin, serialNumber)).records.map((r) => r.transactionId)).toEqual([transactionId]);

    // The close dialog offers the charger's last reading.
    const offered = await call("GET", `/station-service/charge/suspect/${transactionId}`, { token: admin });
    expect(offered.body.data).toEqual({ transactionId, meterStartWh: 1000, lastMeterWh: 4200, stopped: false });

    const asked = charger.nextCall();
    const closed = await call("POST", `/station-service/charge/suspect/${transactionId}/close`, { token: admin, body: { meterStop: 4200 } });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ transactionId, meterStartWh: 1000, meterStopWh: 4200 });
    const trigger = await asked;
    expect(trigger[2]).toBe("TriggerMessage");
    expect(trigger[3]).toEqual({ requestedMessage: "StatusNotification", connectorId: 1 });
    charger.ws.send(JSON.stringify([3, trigger[1], { status: "Accepted" }]));

    const billed = await eventually(
      () => row<{ billed_at: number | null; energy_wh: number | null; status: string; meter_stop_wh: number }>("SELECT billed_at, energy_wh, status, meter_stop_wh FROM transactions WHERE id = ?", transactionId),
      (r) => r?.billed_at !== null,
    );
    expect(billed).toMatchObject({ status: "COMPLETED", meter_stop_wh: 4200, energy_wh: 3200 });
    expect((await suspectsOf(admin, serialNumber)).total).toBe(0);
    const record = await row("SELECT status, total_cost FROM charge_records WHERE transaction_id = ?", transactionId);

    // A second close is refused and changes nothing; so does the charger's late stop.
    const again = await call("POST", `/station-service/charge/suspect/${transactionId}/close`, { token: admin, body: { meterStop: 9000 } });
    expect(again.status).toBe(409);
    expect(await charger.call("StopTransaction", { transactionId, meterStop: 5000, timestamp: at() })).toBeDefined();
    await new Promise((r) => setTimeout(r, 500));
    expect(await row("SELECT billed_at, energy_wh, status, meter_stop_wh FROM transactions WHERE id = ?", transactionId)).toEqual(billed);
    expect(await row("SELECT status, total_cost FROM charge_records WHERE transaction_id = ?", transactionId)).toEqual(record);
    expect(await row("SELECT count(*) AS n FROM operation_logs WHERE table_name = 'transactions' AND new_data LIKE ?", `%"id":${transactionId},%closedAsSuspect%`)).toEqual({ n: 1 });
    charger.close();
  });

  it("closes a 2.0.1 session the same way: asked for its status with TriggerMessage in 2.0.1, and its late Ended changes nothing", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key, protocols: "ocpp2.0.1" })).charger!;
    await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Plugdesk", model: "Test" } });
    const idTag = await freshTag(made.pointId);
    const chargerTransactionId = crypto.randomUUID();
    await charger.call("TransactionEvent", startedBy(card(idTag), chargerTransactionId, { evseId: 2, timestamp: ago(26), meterWh: 1000 }));
    const tx = await row<{ id: number }>("SELECT id FROM transactions WHERE charger_transaction_id = ?", chargerTransactionId);
    const { records } = await suspectsOf(admin, made.serialNumber);
    expect(records.map((r) => [r.transactionId, r.connectorId, r.reason])).toEqual([[tx!.id, 2, "NO_STOP"]]);

    const asked = charger.nextCall();
    expect((await call("POST", `/station-service/charge/suspect/${tx!.id}/close`, { token: admin, body: { meterStop: 3000 } })).status).toBe(200);
    const trigger = await asked;
    expect(trigger[2]).toBe("TriggerMessage");
    expect(trigger[3]).toMatchObject({ requestedMessage: "StatusNotification", evse: { id: 2 } });
    charger.ws.send(JSON.stringify([3, trigger[1], { status: "Accepted" }]));
    const billed = await eventually(
      () => row<{ billed_at: number | null; energy_wh: number | null; meter_stop_wh: number }>("SELECT billed_at, energy_wh, meter_stop_wh FROM transactions WHERE id = ?", tx!.id),
      (r) => r?.billed_at !== null,
    );
    expect(billed).toMatchObject({ energy_wh: 2000, meter_stop_wh: 3000 });
    const ended = {
      eventType: "Ended",
      timestamp: at(),
      triggerReason: "EVCommunicationLost",
      seqNo: 1,
      transactionInfo: { transactionId: chargerTransactionId, chargingState: "Idle", stoppedReason: "EVDisconnected" },
      meterValue: energy(9000, "Transaction.End"),
    };
    expect(await charger.call("TransactionEvent", ended)).toEqual({});
    await new Promise((r) => setTimeout(r, 500));
    expect(await row("SELECT billed_at, energy_wh, meter_stop_wh FROM transactions WHERE id = ?", tx!.id)).toEqual(billed);
    charger.close();
  });

  it("honours an Idempotency-Key: a key taken by another request is 409, a repeat answers the first close again", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger, pointId } = await online();
    charger.answer("TriggerMessage", () => ({ status: "Accepted" }));
    const transactionId = await start(charger, pointId, 1, ago(30), 1000);
    const path = `/station-service/charge/suspect/${transactionId}/close`;
    const ids = (await row<{ operatorId: number; accountId: number }>(
      "SELECT a.operator_id AS operatorId, a.id AS accountId FROM accounts a JOIN operators o ON o.id = a.operator_id WHERE o.code = '0PL002' AND a.username = 'demoadmin'",
    ))!;
    const taken = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO idempotency_keys (operator_id, account_id, key, fingerprint) VALUES (?, ?, ?, 'in flight')").bind(ids.operatorId, ids.accountId, taken).run();
    expect((await call("POST", path, { token: admin, body: { meterStop: 2000 }, headers: { "Idempotency-Key": taken } })).status).toBe(409);
    expect(await row("SELECT stop_at FROM transactions WHERE id = ?", transactionId)).toEqual({ stop_at: null });

    const key = crypto.randomUUID();
    const first = await call("POST", path, { token: admin, body: { meterStop: 2000 }, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(200);
    const again = await call("POST", path, { token: admin, body: { meterStop: 2000 }, headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    const openapi = (await call("GET", "/openapi.json")).body as unknown as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
    expect(openapi.paths["/station-service/charge/suspect/{transactionId}/close"].post.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key")).toBe(true);
    charger.close();
  });

  it("refuses bad bodies with 400, a reading below the start, another operator's session with 404, and a watcher with 403", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger, pointId } = await online();
    const transactionId = await start(charger, pointId, 1, ago(30), 1000);
    const path = `/station-service/charge/suspect/${transactionId}/close`;
    for (const body of [{}, { meterStop: -1 }, { meterStop: 1.5 }, { meterStop: "lots" }, { meterStop: 2000, extra: true }, [], null]) {
      const refused = await call("POST", path, { token: admin, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const below = await call("POST", path, { token: admin, body: { meterStop: 999 } });
    expect(below.status).toBe(400);
    expect(below.body.msg).toBeTruthy();
    expect((await call("POST", "/station-service/charge/suspect/abc/close", { token: admin, body: { meterStop: 2000 } })).status).toBe(400);

    const other = await tokenFor("0DE001", "deadmin1");
    expect((await call("POST", path, { token: other, body: { meterStop: 2000 } })).status).toBe(404);
    expect((await call("GET", `/station-service/charge/suspect/${transactionId}`, { token: other })).status).toBe(404);
    expect((await call<{ records: Suspect[] }>("GET", "/station-service/charge/suspect?size=100", { token: other })).body.data.records.some((r) => r.transactionId === transactionId)).toBe(false);

    const watcher = await tokenWithMenus(admin, ["home", "monitoring.charging"]);
    expect((await call("GET", "/station-service/charge/suspect", { token: watcher })).status).toBe(200);
    expect((await call("POST", path, { token: watcher, body: { meterStop: 2000 } })).status).toBe(403);
    expect(await row("SELECT stop_at FROM transactions WHERE id = ?", transactionId)).toEqual({ stop_at: null });
    charger.close();
  });
});
