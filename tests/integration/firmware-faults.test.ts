import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { boot, connect, landed } from "./support/charger";
import { makeAccount, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { eventually, makeSite } from "./support/operations";

const FIRMWARE = "/maintain-service/firmware";
const FAULTS = "/maintain-service/fault-code";

let versions = 0;
const firmware = (overrides: Record<string, unknown> = {}) => ({
  version: `2.${Date.now() % 100000}.${++versions}`,
  location: "ftp://firmware.example.com/plugdesk/fw.bin",
  retries: 2,
  retryIntervalS: 60,
  retrieveDate: "2025-01-01T00:00:00Z",
  description: "Fixes the meter",
  ...overrides,
});

/** Rollouts go through the firmware queue, whose batches wait up to a second each. */
const QUEUE_ROUNDS_MS = 30_000;

describe("firmware versions", { timeout: QUEUE_ROUNDS_MS }, () => {
  it("creates, edits and lists a version; the location must be an ftp:// or ftps:// address", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const created = await call("POST", FIRMWARE, { token, body: firmware() });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ retries: 2, retryIntervalS: 60, issued: false, retrieveDate: "2025-01-01T00:00:00.000Z" });
    const ftps = await call("PUT", `${FIRMWARE}/${created.body.data.id}`, { token, body: firmware({ version: created.body.data.version, location: "ftps://secure.example.com/fw.bin" }) });
    expect(ftps.body.data.location).toBe("ftps://secure.example.com/fw.bin");
    for (const location of ["https://firmware.example.com/fw.bin", "sftp://x.example/fw", "ftp://", "firmware.bin"]) {
      const res = await call("POST", FIRMWARE, { token, body: firmware({ location }) });
      expect(res.status, location).toBe(400);
      expect(res.body.data.fields.location).toBe("FTP address requested (ftp:// or ftps://)");
    }
    const pl = await call("POST", `${FIRMWARE}?lang=pl`, { token, body: firmware({ retries: 11 }) });
    expect(pl.body.data.fields.retries).toBe("Liczba ponowień to liczba całkowita od 0 do 10");
    const list = await call("GET", `${FIRMWARE}?version=${created.body.data.version}`, { token });
    expect(list.body.data).toMatchObject({ total: 1, records: [{ id: created.body.data.id, pointCount: 0 }] });
    const dup = await call("POST", FIRMWARE, { token, body: firmware({ version: created.body.data.version }) });
    expect(dup.status).toBe(409);
  });

  it("deletes a version never issued, and refuses to delete an issued one ('version issued cannot be deleted')", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const loose = await call("POST", FIRMWARE, { token, body: firmware() });
    expect((await call("DELETE", `${FIRMWARE}/${loose.body.data.id}`, { token })).status).toBe(200);
    const site = await makeSite("0PL002", { count: 1 });
    const issued = await call("POST", FIRMWARE, { token, body: firmware() });
    await call("POST", `${FIRMWARE}/${issued.body.data.id}/issue`, { token, body: { pointIds: [site.chargers[0].pointId] } });
    const refused = await call("DELETE", `${FIRMWARE}/${issued.body.data.id}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("Version issued cannot be deleted");
    expect((await call("GET", `${FIRMWARE}/${issued.body.data.id}`, { token })).body.data.issued).toBe(true);
  });

  it("rolls a version out in waves through the firmware queue, each point Issued until its charger reports, then its status", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 3 });
    const [a, b, c] = site.chargers;
    const asked: Record<string, unknown>[] = [];
    const chargers = [];
    for (const point of [a, b]) {
      const charger = (await connect(point.serialNumber, { key: point.key })).charger!;
      await boot(charger);
      charger.answer("UpdateFirmware", (payload) => {
        asked.push({ serialNumber: point.serialNumber, ...payload });
        return {};
      });
      chargers.push(charger);
    }
    const created = await call("POST", FIRMWARE, { token, body: firmware() });
    const id = created.body.data.id;
    const issued = await call("POST", `${FIRMWARE}/${id}/issue`, { token, body: { pointIds: [a.pointId, b.pointId, c.pointId], waveSize: 2 } });
    expect(issued.status).toBe(200);
    expect(issued.body.data.rollout.map((r: { pointId: number; status: string; wave: number }) => [r.pointId, r.status, r.wave])).toEqual([
      [a.pointId, "Issued", 0],
      [b.pointId, "Issued", 0],
      [c.pointId, "Issued", 1],
    ]);
    const delivered = await eventually(
      () => call("GET", `${FIRMWARE}/${id}`, { token }),
      (res) => res.body.data.rollout.every((r: { delivery: string }) => r.delivery !== "Queued"),
    );
    const delivery = Object.fromEntries(delivered.body.data.rollout.map((r: { pointId: number; delivery: string; status: string }) => [r.pointId, [r.delivery, r.status]]));
    expect(delivery).toEqual({ [a.pointId]: ["Sent", "Issued"], [b.pointId]: ["Sent", "Issued"], [c.pointId]: ["Offline", "Issued"] });
    // The retrieve date in the past means at once: the charger is told now, never before.
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ location: "ftp://firmware.example.com/plugdesk/fw.bin", retries: 2, retryInterval: 60 });
    expect(Date.parse(asked[0].retrieveDate as string)).toBeGreaterThan(Date.parse("2025-01-02T00:00:00Z"));

    await chargers[0].call("FirmwareStatusNotification", { status: "Downloading" });
    await chargers[0].call("FirmwareStatusNotification", { status: "Installed" });
    await chargers[0].call("FirmwareStatusNotification", { status: "Idle" });
    await chargers[1].call("FirmwareStatusNotification", { status: "DownloadFailed" });
    await chargers[0].call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "TestCharger", firmwareVersion: created.body.data.version });
    // The boot reaches D1 with the charger's next batch of changes.
    await landed();
    const detail = await call("GET", `${FIRMWARE}/${id}`, { token });
    const rollout = Object.fromEntries(detail.body.data.rollout.map((r: Record<string, unknown>) => [r.pointId, r]));
    expect(rollout[a.pointId]).toMatchObject({ serialNumber: a.serialNumber, status: "Installed", firmwareVersion: created.body.data.version, bootedSinceIssue: true });
    expect(rollout[b.pointId]).toMatchObject({ status: "DownloadFailed", bootedSinceIssue: false });
    expect(rollout[c.pointId]).toMatchObject({ status: "Issued" });
    expect(typeof rollout[a.pointId].updatedAt).toBe("string");
    const list = await call("GET", `${FIRMWARE}?version=${created.body.data.version}`, { token });
    expect(list.body.data.records[0]).toMatchObject({ issued: true, pointCount: 3, installedCount: 1 });
    for (const charger of chargers) charger.close();
  });

  it("moves only the newest delivered rollout of a point, and a notification without one changes no rollout", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const point = site.chargers[0];
    const charger = (await connect(point.serialNumber, { key: point.key })).charger!;
    await boot(charger);
    await charger.call("FirmwareStatusNotification", { status: "Downloading" });
    charger.answer("UpdateFirmware", () => ({}));
    const older = await call("POST", FIRMWARE, { token, body: firmware() });
    const newer = await call("POST", FIRMWARE, { token, body: firmware() });
    await call("POST", `${FIRMWARE}/${older.body.data.id}/issue`, { token, body: { pointIds: [point.pointId] } });
    await eventually(() => call("GET", `${FIRMWARE}/${older.body.data.id}`, { token }), (res) => res.body.data.rollout[0].delivery === "Sent");
    await call("POST", `${FIRMWARE}/${newer.body.data.id}/issue`, { token, body: { pointIds: [point.pointId] } });
    await eventually(() => call("GET", `${FIRMWARE}/${newer.body.data.id}`, { token }), (res) => res.body.data.rollout[0].delivery === "Sent");
    await charger.call("FirmwareStatusNotification", { status: "Installing" });
    expect((await call("GET", `${FIRMWARE}/${older.body.data.id}`, { token })).body.data.rollout[0].status).toBe("Issued");
    expect((await call("GET", `${FIRMWARE}/${newer.body.data.id}`, { token })).body.data.rollout[0].status).toBe("Installing");
    const point_ = await env.DB.prepare("SELECT firmware_status AS s FROM points WHERE id = ?").bind(point.pointId).first<{ s: string }>();
    expect(point_!.s).toBe("Installing");
    charger.close();
  });

  it("answers another operator's version and points with 404, and an account without the firmware menu with 403", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const other = await tokenFor("0DE001", "deadmin1");
    const mine = await call("POST", FIRMWARE, { token, body: firmware() });
    const id = mine.body.data.id;
    for (const res of await Promise.all([
      call("GET", `${FIRMWARE}/${id}`, { token: other }),
      call("PUT", `${FIRMWARE}/${id}`, { token: other, body: firmware() }),
      call("DELETE", `${FIRMWARE}/${id}`, { token: other }),
      call("POST", `${FIRMWARE}/${id}/issue`, { token: other, body: { pointIds: [1] } }),
    ])) {
      expect(res.status).toBe(404);
    }
    const foreign = await makeSite("0DE001", { count: 1 });
    expect((await call("POST", `${FIRMWARE}/${id}/issue`, { token, body: { pointIds: [foreign.chargers[0].pointId] } })).status).toBe(404);
    const role = await makeRole(token, { menuCodes: ["operation.historicalAlarmInfo"] });
    const account = await makeAccount("0PL002", token, role.id);
    const watcher = await tokenFor("0PL002", account.username, account.password);
    expect((await call("GET", FIRMWARE, { token: watcher })).status).toBe(403);
    expect((await call("POST", `${FIRMWARE}/${id}/issue`, { token: watcher, body: { pointIds: [1] } })).status).toBe(403);
  });
});

describe("fault codes", () => {
  it("lists the 14 OCPP codes first with their defaults, then the operator's vendor codes", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const code = `VX${Date.now() % 100000}`;
    const created = await call("POST", FAULTS, { token, body: { code, name: "Cooling fan stalled", level: "ERROR", count: "5" } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ code, source: "VENDOR", count: 5 });
    const ocpp = await call("GET", `${FAULTS}?source=OCPP&size=20`, { token });
    expect(ocpp.body.data.total).toBe(14);
    expect(ocpp.body.data.records[0]).toMatchObject({ code: "ConnectorLockFailure", source: "OCPP", level: "ERROR", count: 3, customised: false });
    expect(ocpp.body.data.records.find((r: { code: string }) => r.code === "WeakSignal")).toMatchObject({ level: "WARN" });
    const found = await call("GET", `${FAULTS}?keyword=${code}`, { token });
    expect(found.body.data.records).toEqual([expect.objectContaining({ code, name: "Cooling fan stalled" })]);
    const page2 = await call("GET", `${FAULTS}?size=10&current=2`, { token });
    expect(page2.body.data.records.slice(0, 4).map((r: { code: string }) => r.code)).toEqual(["ResetFailure", "UnderVoltage", "WeakSignal", "OtherError"]);
  });

  it("takes counts as positive whole numbers only, and never a second code of the same name or an OCPP name", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    for (const count of [0, -1, 1.5, "3a", "三", "", true]) {
      const res = await call("POST", FAULTS, { token, body: { code: `BAD${Date.now() % 10000}`, name: "x", level: "WARN", count } });
      expect(res.status, String(count)).toBe(400);
      expect(res.body.data.fields.count).toBe("The count must be a positive whole number");
    }
    expect((await call("POST", FAULTS, { token, body: { code: "HighTemperature", name: "Hot", level: "ERROR", count: 2 } })).status).toBe(409);
    const code = `DUP${Date.now() % 100000}`;
    await call("POST", FAULTS, { token, body: { code, name: "One", level: "WARN", count: 1 } });
    const again = await call("POST", FAULTS, { token, body: { code, name: "Two", level: "WARN", count: 1 } });
    expect(again.status).toBe(409);
    expect((await call("POST", FAULTS, { token, body: { code: "has space", name: "x", level: "WARN", count: 1 } })).status).toBe(400);
  });

  it("overrides an OCPP code's settings, brings them back with delete, and deletes vendor codes", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const edited = await call("PUT", `${FAULTS}/GroundFailure`, { token, body: { name: "Fehlerstrom", level: "WARN", count: 1 } });
    expect(edited.body.data).toMatchObject({ code: "GroundFailure", source: "OCPP", name: "Fehlerstrom", level: "WARN", count: 1, customised: true });
    expect((await call("GET", `${FAULTS}/GroundFailure`, { token })).body.data.name).toBe("Fehlerstrom");
    // Another operator keeps OCPP's defaults.
    const pl = await tokenFor("0PL002", "demoadmin");
    expect((await call("GET", `${FAULTS}/GroundFailure`, { token: pl })).body.data).toMatchObject({ name: "GroundFailure", customised: false });
    const reset = await call("DELETE", `${FAULTS}/GroundFailure`, { token });
    expect(reset.body.data).toMatchObject({ name: "GroundFailure", count: 3, customised: false });
    await call("POST", FAULTS, { token, body: { code: "DE-77", name: "Tür offen", level: "WARN", count: 2 } });
    expect((await call("GET", `${FAULTS}/DE-77`, { token: pl })).status).toBe(404);
    expect((await call("PUT", `${FAULTS}/DE-77`, { token: pl, body: { name: "x", level: "WARN", count: 1 } })).status).toBe(404);
    expect((await call("DELETE", `${FAULTS}/DE-77`, { token: pl })).status).toBe(404);
    expect((await call("DELETE", `${FAULTS}/DE-77`, { token })).status).toBe(200);
    expect((await call("GET", `${FAULTS}/DE-77`, { token })).status).toBe(404);
  });

  it("refuses an account without the fault-code menu to change codes (403)", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["operation.operationFailure"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    expect((await call("GET", FAULTS, { token })).status).toBe(200);
    expect((await call("POST", FAULTS, { token, body: { code: "NOPE1", name: "x", level: "WARN", count: 1 } })).status).toBe(403);
    expect((await call("PUT", `${FAULTS}/GroundFailure`, { token, body: { name: "x", level: "WARN", count: 1 } })).status).toBe(403);
  });
});

describe("operation failures", () => {
  async function alarmsAt(pointId: number, operatorId: number, type: string, times: string[], status = "AutoRecovery") {
    for (const at of times) {
      await env.DB.prepare("INSERT INTO alarms (operator_id, point_id, connector_no, level, type, status, occurred_at) VALUES (?, ?, 1, 'WARN', ?, ?, ?)")
        .bind(operatorId, pointId, type, status, Date.parse(at))
        .run();
    }
  }

  it("groups a period's alarms by point and fault code, counts them, and marks those at the code's count as repeated", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 2 });
    const [a, b] = site.chargers;
    const code = `FAN${Date.now() % 100000}`;
    await call("POST", "/maintain-service/fault-code", { token, body: { code, name: "Fan", level: "ERROR", count: 2 } });
    await alarmsAt(a.pointId, a.operatorId, "WeakSignal", ["2025-03-01T10:00:00Z", "2025-03-02T10:00:00Z", "2025-03-03T10:00:00Z"]);
    await alarmsAt(a.pointId, a.operatorId, code, ["2025-03-04T10:00:00Z", "2025-03-05T10:00:00Z"], "Undisposed");
    await alarmsAt(b.pointId, b.operatorId, "WeakSignal", ["2025-03-06T10:00:00Z", "2025-04-06T10:00:00Z"]);
    const range = `from=2025-03-01T00:00:00Z&to=2025-04-01T00:00:00Z&stationId=${site.stationId}`;
    const res = await call("GET", `/maintain-service/operation-failure?${range}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.records).toEqual([
      expect.objectContaining({ pointId: b.pointId, faultCode: "WeakSignal", occurrences: 1, threshold: 3, repeated: false, open: 0 }),
      expect.objectContaining({ pointId: a.pointId, faultCode: code, faultName: "Fan", level: "ERROR", occurrences: 2, threshold: 2, repeated: true, open: 2, firstAt: "2025-03-04T10:00:00.000Z", lastAt: "2025-03-05T10:00:00.000Z" }),
      expect.objectContaining({ pointId: a.pointId, faultCode: "WeakSignal", occurrences: 3, threshold: 3, repeated: true }),
    ]);
    const repeated = await call("GET", `/maintain-service/operation-failure?${range}&repeated=true`, { token });
    expect(repeated.body.data.total).toBe(2);
    const byCode = await call("GET", `/maintain-service/operation-failure?${range}&faultCode=WeakSignal&serialNumber=${b.serialNumber}`, { token });
    expect(byCode.body.data.records).toEqual([expect.objectContaining({ pointId: b.pointId })]);
    const reversed = await call("GET", "/maintain-service/operation-failure?from=2025-04-01T00:00:00Z&to=2025-03-01T00:00:00Z", { token });
    expect(reversed.status).toBe(400);
    const other = await tokenFor("0DE001", "deadmin1");
    expect((await call("GET", `/maintain-service/operation-failure?from=2025-03-01T00:00:00Z&to=2025-04-01T00:00:00Z&serialNumber=${a.serialNumber}`, { token: other })).body.data.total).toBe(0);
  });
});

describe("diagnostics across points", () => {
  it("lets the diagnostics screen list every point's requests and ask a point for one; without its menu 403", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["operation.diagnosis"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    const site = await makeSite("0PL002", { count: 1 });
    const point = site.chargers[0];
    const charger = (await connect(point.serialNumber, { key: point.key })).charger!;
    await boot(charger);
    charger.answer("GetDiagnostics", () => ({ fileName: "all-points.zip" }));
    const asked = await call("POST", `/station-service/point/${point.pointId}/diagnose`, { token, body: { location: "ftp://logs.example.com/in/" } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    await charger.call("DiagnosticsStatusNotification", { status: "Uploaded" });
    const list = await call("GET", "/station-service/diagnosis?size=100", { token });
    expect(list.body.data.records.find((r: { pointId: number }) => r.pointId === point.pointId)).toMatchObject({ status: 3, fileName: "all-points.zip", serialNumber: point.serialNumber });
    const other = await makeRole(admin, { menuCodes: ["operation.faultCode"] });
    const stranger = await makeAccount("0PL002", admin, other.id);
    const refused = await tokenFor("0PL002", stranger.username, stranger.password);
    expect((await call("GET", "/station-service/diagnosis", { token: refused })).status).toBe(403);
    expect((await call("POST", `/station-service/point/${point.pointId}/diagnose`, { token: refused, body: { location: "ftp://x.example/" } })).status).toBe(403);
    charger.close();
  });
});
