import { describe, expect, it } from "vitest";
import { boot, connect } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { addSessions as addTransactions } from "./support/sessions";
import { row } from "./support/d1";


async function waitFor(check: () => Promise<boolean>, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

describe("monthly charge report", () => {
  it("sums the month's charges in the operator's time zone: kWh with three decimals, minutes, count", async () => {
    const made = await makeCharger("0PL002");
    await addTransactions(made, [
      // 00:30 on 1 March in Warsaw, still February in UTC.
      { start: "2025-02-28T23:30:00Z", stop: "2025-03-01T00:00:00Z", meterStart: 0, meterStop: 1000 },
      { start: "2025-03-15T10:00:00Z", stop: "2025-03-15T11:30:00Z", meterStart: 1000, meterStop: 13_345 },
      // A refused tag that delivered nothing is no charge.
      { start: "2025-03-20T10:00:00Z", stop: "2025-03-20T10:01:00Z", meterStart: 50, meterStop: 50, auth: "Invalid" },
      // Still running: counted, its energy and time come when it stops.
      { start: "2025-03-10T08:00:00Z" },
      // 00:30 on 1 April in Warsaw (summer time), still March in UTC.
      { start: "2025-03-31T22:30:00Z", stop: "2025-03-31T23:00:00Z", meterStart: 0, meterStop: 500, energyWh: 480 },
    ]);
    const token = await tokenFor("0PL002", "demoadmin");
    const march = await call("GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}&reportMonth=2025-03`, { token });
    expect(march.status).toBe(200);
    expect(march.body.data).toMatchObject({
      reportMonth: "2025-03",
      timeZone: "Europe/Warsaw",
      from: "2025-02-28T23:00:00.000Z",
      to: "2025-03-31T22:00:00.000Z",
      meterValue: 13.345,
      energyWh: 13_345,
      chargingTime: 120,
      deductionCost: 0,
      currency: "PLN",
      priced: false,
      chargeCount: 3,
    });
    const april = await call("GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}&reportMonth=2025-04`, { token });
    expect(april.body.data).toMatchObject({ meterValue: 0.48, chargingTime: 30, chargeCount: 1 });
  });

  it("defaults to this month and refuses a month not written yyyy-MM, in two languages", async () => {
    const made = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const now = await call("GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}`, { token });
    expect(now.body.data.reportMonth).toMatch(/^\d{4}-\d{2}$/);
    expect(now.body.data.chargeCount).toBe(0);
    const en = await call("GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}&reportMonth=2025-13`, { token });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe("Choose a month as yyyy-MM");
    const zh = await call("GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}&reportMonth=March&lang=zh`, { token });
    expect(zh.body.msg).toBe("请选择月份，格式为 yyyy-MM");
  });
});

describe("charge records of a point", () => {
  it("lists the point's transactions newest first, paged, with energy and minutes", async () => {
    const made = await makeCharger("0PL002");
    const other = await makeCharger("0PL002");
    await addTransactions(made, [
      { start: "2025-05-01T10:00:00Z", stop: "2025-05-01T10:45:00Z", meterStart: 100, meterStop: 7_100, idTag: "DEMO0001", bill: true },
      { start: "2025-05-02T10:00:00Z" },
      { start: "2025-05-03T10:00:00Z", stop: "2025-05-03T10:10:00Z", meterStart: 10, meterStop: 5, status: "ABNORMAL" },
    ]);
    await addTransactions(other, [{ start: "2025-05-04T10:00:00Z" }]);
    const token = await tokenFor("0PL002", "demoadmin");
    const page = await call("GET", `/station-service/charge/record?pointId=${made.pointId}&size=2`, { token });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ total: 3, current: 1, size: 2 });
    expect(page.body.data.records.map((r: { startAt: string }) => r.startAt)).toEqual(["2025-05-03T10:00:00.000Z", "2025-05-02T10:00:00.000Z"]);
    expect(page.body.data.records[0]).toMatchObject({ status: "ABNORMAL", transactionStatus: "ABNORMAL", energyWh: 0, chargingTime: 10, serialNumber: made.serialNumber });
    expect(page.body.data.records[1]).toMatchObject({ status: "CHARGING", transactionStatus: "ACTIVE", energyWh: null, chargingTime: null, stopAt: null });
    const second = await call("GET", `/station-service/charge/record?pointId=${made.pointId}&size=2&current=2`, { token });
    expect(second.body.data.records[0]).toMatchObject({ idTag: "DEMO0001", energyWh: 7000, chargingTime: 45, connectorId: 1 });
    const filtered = await call("GET", `/station-service/charge/record?pointId=${made.pointId}&status=CHARGING`, { token });
    expect(filtered.body.data.total).toBe(1);
    const wrong = await call("GET", `/station-service/charge/record?pointId=${made.pointId}&status=DONE&lang=pl`, { token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe("Nieznany stan");
  });
});

describe("remote diagnostics", () => {
  it("sends GetDiagnostics, lists the request waiting, and follows the charger's upload status", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    let asked: Record<string, unknown> | undefined;
    charger.answer("GetDiagnostics", (payload) => {
      asked = payload;
      return { fileName: "diag-1.zip" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", `/station-service/point/${made.pointId}/diagnose`, {
      token,
      body: { location: "ftp://logs.example.com/upload/", startTime: "2025-05-01T00:00:00Z", stopTime: "2025-05-02T00:00:00Z", retries: 2 },
    });
    expect(res.status).toBe(200);
    expect(asked).toEqual({ location: "ftp://logs.example.com/upload/", retries: 2, startTime: "2025-05-01T00:00:00Z", stopTime: "2025-05-02T00:00:00Z" });
    expect(res.body.data).toMatchObject({ status: 1, fileName: "diag-1.zip", type: 1, serialNumber: made.serialNumber });

    const statusOf = async () => (await row<{ status: number }>("SELECT status FROM diagnostics WHERE id = ?", res.body.data.id))?.status;
    await charger.call("DiagnosticsStatusNotification", { status: "Uploading" });
    await waitFor(async () => (await statusOf()) === 2);
    expect(await statusOf()).toBe(2);
    await charger.call("DiagnosticsStatusNotification", { status: "Uploaded" });
    await waitFor(async () => (await statusOf()) === 3);
    expect(await statusOf()).toBe(3);

    const second = await call("POST", `/station-service/point/${made.pointId}/diagnose`, { token, body: { location: "sftp://logs.example.com/" } });
    await charger.call("DiagnosticsStatusNotification", { status: "UploadFailed" });
    const list = await call("GET", `/station-service/diagnosis?pointId=${made.pointId}`, { token });
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.records.map((d: { id: number; status: number }) => [d.id, d.status])).toEqual([
      [second.body.data.id, -1],
      [res.body.data.id, 3],
    ]);
    charger.close();
  });

  it("requires an upload address and a start not after the stop, and records nothing for an offline point", async () => {
    const made = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const file = await call("POST", `/station-service/point/${made.pointId}/diagnose`, { token, body: { location: "file:///var/log/" } });
    expect(file.status).toBe(400);
    expect(file.body.msg).toBe("Upload address requested (ftp, ftps, sftp, http or https)");
    const pl = await call("POST", `/station-service/point/${made.pointId}/diagnose?lang=pl`, { token, body: {} });
    expect(pl.body.data.fields.location).toBe("Wymagany jest adres do przesłania pliku (ftp, ftps, sftp, http lub https)");
    const order = await call("POST", `/station-service/point/${made.pointId}/diagnose?lang=de`, {
      token,
      body: { location: "ftp://x.example.com/", startTime: "2025-05-02T00:00:00Z", stopTime: "2025-05-01T00:00:00Z" },
    });
    expect(order.body.data.fields.stopTime).toBe("Die Startzeit darf nicht nach der Endzeit liegen");
    const offline = await call("POST", `/station-service/point/${made.pointId}/diagnose`, { token, body: { location: "ftp://x.example.com/" } });
    expect(offline.status).toBe(409);
    expect(offline.body.msg).toBe("Point offline, unable to operate");
    expect((await call("GET", `/station-service/diagnosis?pointId=${made.pointId}`, { token })).body.data.total).toBe(0);
  });
});

describe("configuration and local list through the command API", () => {
  it("reads the configuration keys and changes a writable one", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    charger.answer("GetConfiguration", () => ({
      configurationKey: [
        { key: "HeartbeatInterval", readonly: false, value: "300" },
        { key: "NumberOfConnectors", readonly: true, value: "2" },
      ],
    }));
    let changed: unknown;
    charger.answer("ChangeConfiguration", (payload) => {
      changed = payload;
      return { status: "Accepted" };
    });
    charger.answer("GetLocalListVersion", () => ({ listVersion: 7 }));
    const token = await tokenFor("0PL002", "demoadmin");
    const read = await call("POST", `/station-service/point/${made.pointId}/command`, { token, body: { action: "GetConfiguration", payload: {} } });
    expect(read.body.data.configurationKey).toHaveLength(2);
    const write = await call("POST", `/station-service/point/${made.pointId}/command`, {
      token,
      body: { action: "ChangeConfiguration", payload: { key: "HeartbeatInterval", value: "120" } },
    });
    expect(write.status).toBe(200);
    expect(changed).toEqual({ key: "HeartbeatInterval", value: "120" });
    const version = await call("POST", `/station-service/point/${made.pointId}/command`, { token, body: { action: "GetLocalListVersion", payload: {} } });
    expect(version.body.data).toEqual({ listVersion: 7 });
    charger.close();
  });
});

describe("tenancy and permissions of the point pages' data", () => {
  it("answers 404 for another operator's point", async () => {
    const made = await makeCharger("0PL002");
    const de = await tokenFor("0DE001", "deadmin1");
    for (const path of [
      `/station-service/charge/record/reportByPoint?pointId=${made.pointId}&reportMonth=2025-03`,
      `/station-service/charge/record?pointId=${made.pointId}`,
      `/station-service/diagnosis?pointId=${made.pointId}`,
      `/station-service/point/${made.serialNumber}/ocpp/operationLog`,
    ]) {
      expect((await call("GET", path, { token: de })).status, path).toBe(404);
    }
    await addTransactions(made, [{ start: "2025-05-01T10:00:00Z" }]);
    const all = await call("GET", "/station-service/charge/record?size=100", { token: de });
    expect(all.body.data.records.every((r: { pointId: number }) => r.pointId !== made.pointId)).toBe(true);
  });

  it("refuses an account without a points, monitoring or finance menu with 403", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["home"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    const made = await makeCharger("0PL002");
    for (const [method, path] of [
      ["GET", `/station-service/charge/record/reportByPoint?pointId=${made.pointId}`],
      ["GET", `/station-service/charge/record?pointId=${made.pointId}`],
      ["GET", `/station-service/diagnosis?pointId=${made.pointId}`],
    ]) {
      expect((await call(method, path, { token })).status, path).toBe(403);
    }
    const diagnose = await call("POST", `/station-service/point/${made.pointId}/diagnose`, { token, body: { location: "ftp://x.example.com/" } });
    expect(diagnose.status).toBe(403);
  });
});
