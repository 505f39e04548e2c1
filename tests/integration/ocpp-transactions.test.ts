import { abortAllDurableObjects, env } from "cloudflare:test";
import { allowConsoleError } from "../support/console-guard";
import { describe, expect, it } from "vitest";
import { makeCharger } from "./support/factories";
import { boot, connect, eventually, freshTag, now, pointChanged } from "./support/charger";
import { row } from "./support/d1";

async function ready(operatorCode = "0PL002", options: Parameters<typeof makeCharger>[1] = {}) {
  const made = await makeCharger(operatorCode, options);
  const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
  return { ...made, charger };
}


describe("BootNotification", () => {
  it("accepts an enabled point with the interval and saves what the charger says of itself", async () => {
    const { charger, pointId } = await ready();
    const answer = await charger.call("BootNotification", {
      chargePointVendor: "ABB",
      chargePointModel: "Terra 54",
      chargePointSerialNumber: "SN-1",
      firmwareVersion: "1.7.3",
      iccid: "8948000000000000001",
      imsi: "260000000000001",
      meterSerialNumber: "MTR-9",
      meterType: "DC meter",
    });
    expect(answer).toMatchObject({ status: "Accepted", interval: 300 });
    expect(Date.parse(answer.currentTime)).toBeGreaterThan(0);
    const saved = await eventually(
      () => row<{ vendor: string | null }>("SELECT vendor, model, firmware_version, iccid, imsi, meter_serial_number, online FROM points WHERE id = ?", pointId),
      (r) => r?.vendor === "ABB",
    );
    expect(saved).toEqual({
      vendor: "ABB",
      model: "Terra 54",
      firmware_version: "1.7.3",
      iccid: "8948000000000000001",
      imsi: "260000000000001",
      meter_serial_number: "MTR-9",
      online: 1,
    });
  });

  it("answers a disabled point Pending, as the operator's setting says", async () => {
    const { charger } = await ready("0PL002", { enabled: false });
    expect(await boot(charger)).toMatchObject({ status: "Pending", interval: 300 });
  });
});

describe("Authorize", () => {
  it("answers from the id-tag registry: Accepted, Blocked, Expired, Invalid", async () => {
    const { charger } = await ready();
    await boot(charger);
    const status = async (idTag: string) => (await charger.call("Authorize", { idTag })).idTagInfo.status;
    expect(await status("DEMO0001")).toBe("Accepted");
    expect(await status("DEMO0002")).toBe("Blocked");
    expect(await status("DEMO0003")).toBe("Expired");
    expect(await status("NOBODY")).toBe("Invalid");
    expect(await status("DEDEMO01")).toBe("Invalid");
  });
});

describe("transactions", () => {
  it("starts, meters, stops and bills a session", async () => {
    const { charger, pointId } = await ready();
    await boot(charger);
    const start = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 1000, timestamp: now() });
    expect(start.idTagInfo.status).toBe("Accepted");
    expect(Number.isInteger(start.transactionId)).toBe(true);
    expect(start.transactionId).toBeGreaterThan(0);
    const transactionId = start.transactionId as number;

    await charger.call("MeterValues", {
      connectorId: 1,
      transactionId,
      meterValue: [
        {
          timestamp: now(),
          sampledValue: [
            { value: "2.5", unit: "kWh" },
            { value: "7200", measurand: "Power.Active.Import", unit: "W" },
            { value: "54", measurand: "SoC", unit: "Percent" },
          ],
        },
      ],
    });
    const stop = await charger.call("StopTransaction", { transactionId, idTag: "DEMO0001", meterStop: 6000, timestamp: now(), reason: "EVDisconnected" });
    expect(stop.idTagInfo.status).toBe("Accepted");

    const billed = await eventually(
      () => row<{ energy_wh: number | null; status: string; stop_reason: string }>("SELECT energy_wh, status, stop_reason FROM transactions WHERE id = ?", transactionId),
      (r) => r?.energy_wh !== null,
    );
    expect(billed).toEqual({ energy_wh: 5000, status: "COMPLETED", stop_reason: "EVDisconnected" });
    expect(await row("SELECT point_id FROM transactions WHERE id = ?", transactionId)).toEqual({ point_id: pointId });
  });

  it("gives the same id for a repeated identical start, and accepts offline-queued old timestamps", async () => {
    const { charger } = await ready();
    await boot(charger);
    const old = "2026-01-05T07:30:00+01:00";
    const payload = { connectorId: 2, idTag: "DEMO0001", meterStart: 500, timestamp: old };
    const first = await charger.call("StartTransaction", payload);
    const again = await charger.call("StartTransaction", payload);
    expect(again.transactionId).toBe(first.transactionId);
    expect(await row("SELECT start_at FROM transactions WHERE id = ?", first.transactionId)).toEqual({ start_at: Date.parse(old) });
  });

  it("gives a refused tag a transaction id too, and says ConcurrentTx for a tag already charging", async () => {
    const { charger } = await ready();
    await boot(charger);
    const blocked = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0002", meterStart: 0, timestamp: now() });
    expect(blocked.idTagInfo.status).toBe("Blocked");
    expect(blocked.transactionId).toBeGreaterThan(0);

    const other = await ready();
    const idTag = await freshTag(other.pointId);
    await boot(other.charger);
    const first = await other.charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 0, timestamp: now() });
    expect(first.idTagInfo.status).toBe("Accepted");
    const second = await other.charger.call("StartTransaction", { connectorId: 2, idTag, meterStart: 0, timestamp: now() });
    expect(second.idTagInfo.status).toBe("ConcurrentTx");
    await other.charger.call("StopTransaction", { transactionId: first.transactionId, meterStop: 10, timestamp: now() });
  });

  it("answers a stop for an unknown transaction normally and records it for review", async () => {
    const { charger, pointId } = await ready();
    await boot(charger);
    expect(await charger.call("StopTransaction", { transactionId: 987654321, meterStop: 10, timestamp: now() })).toEqual({});
    expect(await row("SELECT kind, transaction_id FROM ocpp_reviews WHERE point_id = ?", pointId)).toEqual({ kind: "UNKNOWN_STOP", transaction_id: 987654321 });
  });

  it("bills a repeated stop once", async () => {
    const { charger } = await ready();
    await boot(charger);
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: now() });
    const stop = { transactionId, meterStop: 1500, timestamp: now() };
    await charger.call("StopTransaction", stop);
    await charger.call("StopTransaction", stop);
    const billed = await eventually(
      () => row<{ energy_wh: number | null; billed_at: number | null }>("SELECT energy_wh, billed_at FROM transactions WHERE id = ?", transactionId),
      (r) => r?.billed_at !== null,
    );
    expect(billed?.energy_wh).toBe(1500);
  });

  it("carries on after the Durable Object is evicted mid-transaction", async () => {
    const { charger, serialNumber, key, pointId } = await ready();
    const idTag = await freshTag(pointId);
    await boot(charger);
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 100, timestamp: now() });
    await charger.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: now(), sampledValue: [{ value: "900" }] }] });
    // Everything in memory is gone; what the charger needs next must come from storage.
    // The eviction may cut a change batch on its way to D1, which reports it (and sends it again).
    allowConsoleError(/Application called abortAllDurableObjects/);
    await abortAllDurableObjects();
    const again = (await connect(serialNumber, { key })).charger!;
    await again.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: now(), sampledValue: [{ value: "500" }] }] });
    await again.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: now(), sampledValue: [{ value: "1700" }] }] });
    expect(await again.call("Heartbeat", {})).toHaveProperty("currentTime");
    // The register going back from 900 to 500 was remembered across the eviction and flagged.
    expect(await row("SELECT kind FROM ocpp_reviews WHERE transaction_id = ?", transactionId)).toEqual({ kind: "REGISTER_BACKWARDS" });
    await again.call("StopTransaction", { transactionId, meterStop: 2100, timestamp: now() });
    const done = await eventually(
      () => row<{ status: string; energy_wh: number | null }>("SELECT status, energy_wh FROM transactions WHERE id = ?", transactionId),
      (r) => r?.energy_wh !== null,
    );
    expect(done).toEqual({ status: "COMPLETED", energy_wh: 2000 });
  });

  it("marks a transaction ABNORMAL when the charger reboots or shows the connector Available without a stop", async () => {
    const { charger } = await ready();
    await boot(charger);
    const a = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: now() });
    await boot(charger);
    const txOf = (id: number) => () => row<{ status: string }>("SELECT status, abnormal_reason FROM transactions WHERE id = ?", id);
    expect(await eventually(txOf(a.transactionId), (r) => r?.status === "ABNORMAL")).toEqual({ status: "ABNORMAL", abnormal_reason: "rebooted" });

    await charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Charging" });
    const b = await charger.call("StartTransaction", { connectorId: 2, idTag: "DEMO0001", meterStart: 0, timestamp: now() });
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Available" });
    expect(await eventually(txOf(b.transactionId), (r) => r?.status === "ABNORMAL")).toEqual({
      status: "ABNORMAL",
      abnormal_reason: "availableWithoutStop",
    });
  });

  it("leaves an operation-log row, with the charger as the actor, for each transaction it marks ABNORMAL", async () => {
    const { charger, serialNumber } = await ready();
    await boot(charger);
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: now() });
    await boot(charger);
    const logged = await eventually(
      () =>
        env.DB.prepare("SELECT account, module, table_name, new_data FROM operation_logs WHERE account = ? ORDER BY id DESC")
          .bind(`system: charger ${serialNumber}`)
          .all<{ account: string; module: string; table_name: string; new_data: string }>(),
      (r) => r.results.length > 0,
    );
    expect(logged.results).toHaveLength(1);
    expect(logged.results[0]).toMatchObject({ module: "ocpp", table_name: "transactions" });
    expect(JSON.parse(logged.results[0].new_data)).toEqual({ ids: [transactionId], status: "ABNORMAL", reason: "rebooted" });
    const review = await row<{ kind: string; detail: string }>("SELECT kind, detail FROM ocpp_reviews WHERE transaction_id = ?", transactionId);
    expect(review).toMatchObject({ kind: "ABNORMAL" });
    expect(JSON.parse(review!.detail)).toEqual({ reason: "rebooted" });
  });
});

describe("a charger that never sent its stops", () => {
  it("marks more running transactions than one statement may name ABNORMAL at its reboot, each with its review, and its statuses land after them", async () => {
    const { charger, pointId } = await ready();
    await boot(charger);
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: now() });
    // 149 more running transactions of the same point, as a charger that forgets its stops leaves them.
    const columns = (await env.DB.prepare("SELECT name FROM pragma_table_info('transactions') WHERE name <> 'id'").all<{ name: string }>()).results.map((c) => c.name);
    const copied = columns.map((c) => (c === "start_at" ? "start_at - n.i * 1000" : c));
    await env.DB.prepare(
      `INSERT INTO transactions (${columns.join(", ")}) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 149) SELECT ${copied.join(", ")} FROM transactions, n WHERE id = ?`,
    )
      .bind(transactionId)
      .run();
    const counted = (status: string) => row<{ n: number }>("SELECT count(*) AS n FROM transactions WHERE point_id = ? AND status = ?", pointId, status);
    expect(await counted("ACTIVE")).toEqual({ n: 150 });

    await boot(charger);
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Unavailable" });
    expect(
      await eventually(
        () => counted("ABNORMAL"),
        (r) => r?.n === 150,
      ),
    ).toEqual({ n: 150 });
    expect(await counted("ACTIVE")).toEqual({ n: 0 });
    expect(await row("SELECT count(*) AS n FROM ocpp_reviews WHERE point_id = ? AND kind = 'ABNORMAL'", pointId)).toEqual({ n: 150 });
    expect(
      await eventually(
        () => row<{ status: string }>("SELECT status FROM connectors WHERE point_id = ? AND connector_no = 2", pointId),
        (r) => r?.status === "Unavailable",
      ),
    ).toEqual({ status: "Unavailable" });
  });
});

describe("a charger not accepted at boot (OCPP 1.6 §4.2)", () => {
  it("answers Invalid to Authorize and to StartTransaction, with an id but no billable record, until a boot is Accepted", async () => {
    const pending = await ready("0PL002", { enabled: false });
    const idTag = await freshTag(pending.pointId);
    expect(await boot(pending.charger)).toMatchObject({ status: "Pending" });
    expect((await pending.charger.call("Authorize", { idTag })).idTagInfo).toEqual({ status: "Invalid" });

    const start = await pending.charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 100, timestamp: now() });
    expect(start.idTagInfo).toEqual({ status: "Invalid" });
    expect(Number.isInteger(start.transactionId)).toBe(true);
    expect(await row("SELECT status, auth_status, abnormal_reason FROM transactions WHERE id = ?", start.transactionId)).toEqual({
      status: "ABNORMAL",
      auth_status: "Invalid",
      abnormal_reason: "notAccepted",
    });
    expect(await row("SELECT kind FROM ocpp_reviews WHERE transaction_id = ?", start.transactionId)).toEqual({ kind: "ABNORMAL" });

    // The tag is not busy: an accepted charger starts with it.
    const other = await ready();
    await boot(other.charger);
    const elsewhere = await other.charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 0, timestamp: now() });
    expect(elsewhere.idTagInfo.status).toBe("Accepted");

    expect(await pending.charger.call("StopTransaction", { transactionId: start.transactionId, idTag, meterStop: 900, timestamp: now() })).toEqual({
      idTagInfo: { status: "Accepted" },
    });
    await other.charger.call("StopTransaction", { transactionId: elsewhere.transactionId, meterStop: 50, timestamp: now() });
    await eventually(
      () => row<{ billed_at: number | null }>("SELECT billed_at FROM transactions WHERE id = ?", elsewhere.transactionId),
      (r) => r?.billed_at !== null,
    );
    expect(await row("SELECT status, meter_stop_wh, billed_at FROM transactions WHERE id = ?", start.transactionId)).toEqual({
      status: "ABNORMAL",
      meter_stop_wh: null,
      billed_at: null,
    });
    const { call, tokenFor } = await import("./support/http");
    const token = await tokenFor("0PL002", "demoadmin");
    const running = await call("GET", `/station-service/charge/record?pointId=${pending.pointId}&status=CHARGING`, { token });
    expect(running.body.data.total).toBe(0);

    await env.DB.prepare("UPDATE points SET status = 'VALID' WHERE id = ?").bind(pending.pointId).run();
    await pointChanged(pending.operatorId, pending.serialNumber);
    expect(await boot(pending.charger)).toMatchObject({ status: "Accepted" });
    expect((await pending.charger.call("Authorize", { idTag })).idTagInfo.status).toBe("Accepted");
  });

  it("does not count a charger that never booted on this connection's Durable Object as accepted", async () => {
    const { charger, pointId } = await ready();
    const idTag = await freshTag(pointId);
    expect((await charger.call("Authorize", { idTag })).idTagInfo).toEqual({ status: "Invalid" });
    await boot(charger);
    expect((await charger.call("Authorize", { idTag })).idTagInfo.status).toBe("Accepted");
  });
});

describe("Authorize and StartTransaction agree", () => {
  it("answers Accepted to Authorize for a tag already in a session and ConcurrentTx to its StartTransaction, but not for the operator's remote tag", async () => {
    const { charger, pointId } = await ready();
    const idTag = await freshTag(pointId);
    await boot(charger);
    expect((await charger.call("Authorize", { idTag })).idTagInfo.status).toBe("Accepted");
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag, meterStart: 0, timestamp: now() });
    // OCPP 1.6 §7.2 keeps ConcurrentTx for StartTransaction: Authorize says Accepted.
    expect((await charger.call("Authorize", { idTag })).idTagInfo.status).toBe("Accepted");
    expect((await charger.call("StartTransaction", { connectorId: 2, idTag, meterStart: 0, timestamp: now() })).idTagInfo.status).toBe("ConcurrentTx");

    const remote = await charger.call("StartTransaction", { connectorId: 2, idTag: "PLREMOTE", meterStart: 5, timestamp: now() });
    expect(remote.idTagInfo.status).toBe("Accepted");
    expect((await charger.call("Authorize", { idTag: "PLREMOTE" })).idTagInfo.status).toBe("Accepted");

    await charger.call("StopTransaction", { transactionId, idTag, meterStop: 10, timestamp: now() });
    expect((await charger.call("Authorize", { idTag })).idTagInfo.status).toBe("Accepted");
  });
});

describe("StatusNotification", () => {
  it("saves the connector status and raises and closes alarms", async () => {
    const { charger, pointId } = await ready();
    await boot(charger);
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "GroundFailure", status: "Faulted", info: "RCD tripped" });
    const connector = () => row<{ status: string | null }>("SELECT status, error_code FROM connectors WHERE point_id = ? AND connector_no = 1", pointId);
    expect(await eventually(connector, (r) => r?.status === "Faulted")).toEqual({
      status: "Faulted",
      error_code: "GroundFailure",
    });
    expect(await row("SELECT level, type, status, message FROM alarms WHERE point_id = ?", pointId)).toEqual({
      level: "ERROR",
      type: "GroundFailure",
      status: "Undisposed",
      message: "RCD tripped",
    });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available" });
    const closed = await eventually(
      () => row<{ status: string; recovered_at: number }>("SELECT status, recovered_at FROM alarms WHERE point_id = ?", pointId),
      (r) => r?.status === "AutoRecovery",
    );
    expect(closed?.status).toBe("AutoRecovery");
    expect(closed?.recovered_at).toBeGreaterThan(0);
    await charger.call("StatusNotification", { connectorId: 0, errorCode: "WeakSignal", status: "Available" });
    expect(await eventually(() => row("SELECT level FROM alarms WHERE point_id = ? AND connector_no = 0", pointId), (r) => r !== null)).toEqual({ level: "WARN" });
  });
});

describe("other notifications", () => {
  it("records firmware and diagnostics status and DataTransfer, answering UnknownVendorId", async () => {
    const { charger, pointId } = await ready();
    await boot(charger);
    expect(await charger.call("DataTransfer", { vendorId: "com.example", messageId: "x", data: "1" })).toEqual({ status: "UnknownVendorId" });
    await charger.call("FirmwareStatusNotification", { status: "Downloading" });
    await charger.call("DiagnosticsStatusNotification", { status: "Uploaded" });
    expect(await row("SELECT firmware_status, diagnostics_status FROM points WHERE id = ?", pointId)).toEqual({
      firmware_status: "Downloading",
      diagnostics_status: "Uploaded",
    });
    expect(await row("SELECT COUNT(*) AS n FROM point_events WHERE point_id = ?", pointId)).toEqual({ n: 3 });
  });
});

describe("large messages", () => {
  it("stores a three-phase MeterValues with many samples and logs a burst of frames", async () => {
    const { charger, serialNumber } = await ready();
    await boot(charger);
    const phases = ["L1", "L2", "L3"];
    const sampledValue = ["Current.Import", "Voltage", "Power.Active.Import", "Energy.Active.Import.Register"].flatMap((measurand) =>
      phases.map((phase) => ({ value: "230", measurand, phase, unit: measurand === "Current.Import" ? "A" : measurand === "Voltage" ? "V" : measurand.startsWith("Power") ? "W" : "Wh" })),
    );
    const meterValue = Array.from({ length: 3 }, () => ({ timestamp: now(), sampledValue }));
    expect(await charger.call("MeterValues", { connectorId: 1, meterValue })).toEqual({});
    await Promise.all(Array.from({ length: 40 }, () => charger.call("Heartbeat", {})));
    const { call, tokenFor } = await import("./support/http");
    const log = await call("GET", `/station-service/point/${serialNumber}/ocpp/operationLog?size=100`, { token: await tokenFor("0PL002", "demoadmin") });
    expect(log.body.data.total).toBeGreaterThanOrEqual(84);
  });
});

describe("the operator's remote-start tag", () => {
  it("starts several sessions at once without ConcurrentTx", async () => {
    const a = await ready();
    const b = await ready();
    await boot(a.charger);
    await boot(b.charger);
    const first = await a.charger.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 0, timestamp: now() });
    const second = await b.charger.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 0, timestamp: now() });
    expect([first.idTagInfo.status, second.idTagInfo.status]).toEqual(["Accepted", "Accepted"]);
  });
});
