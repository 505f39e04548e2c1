import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { availableCharger, freshTag, landed, now, type TestCharger } from "./support/charger";
import { row } from "./support/d1";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";

/**
 * Real-time monitoring, alarms, the home dashboard and the remote-control panel
 * (docs/rules/monitoring.md).
 */

let admin: string;
let deAdmin: string;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  deAdmin = await tokenFor("0DE001", "deadmin1");
});


/** An enabled charger of 0PL002 on its own new station, connected, booted and Available. */
const online = availableCharger;


async function charge(charger: TestCharger, pointId: number, connectorId = 1, meterStart = 10_000) {
  const idTag = await freshTag(pointId);
  const { transactionId } = await charger.call("StartTransaction", { connectorId, idTag, meterStart, timestamp: now() });
  await charger.call("StatusNotification", { connectorId, errorCode: "NoError", status: "Charging", timestamp: now() });
  await landed();
  return { transactionId: transactionId as number, idTag };
}

const meter = (charger: TestCharger, connectorId: number, transactionId: number, registerWh: number, powerW: number, at = now()) =>
  charger.call("MeterValues", {
    connectorId,
    transactionId,
    meterValue: [
      {
        timestamp: at,
        sampledValue: [
          { value: String(registerWh), measurand: "Energy.Active.Import.Register", unit: "Wh" },
          { value: String(powerW / 1000), measurand: "Power.Active.Import", unit: "kW" },
          { value: "16", measurand: "Current.Import", unit: "A" },
          { value: "230", measurand: "Voltage", unit: "V" },
        ],
      },
    ],
  });

/** An account of 0PL002 whose role holds only these menu codes. */
const accountWith = (menuCodes: string[]) => tokenWithMenus(admin, menuCodes);

describe("charging sessions", () => {
  it("lists ongoing transactions of the operator, paged and filtered, and leaves ended ones out", async () => {
    const { charger, pointId, serialNumber, stationId } = await online();
    const first = await charge(charger, pointId, 1);
    const second = await charge(charger, pointId, 2, 50_000);
    const res = await call("GET", `/station-service/monitoring/charging?stationId=${stationId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.records.map((r: any) => r.transactionId)).toEqual(expect.arrayContaining([first.transactionId, second.transactionId]));
    expect(res.body.data.records[0]).toMatchObject({ pointId, serialNumber, stationId, status: "ACTIVE", online: true });
    expect(res.body.data.records.find((r: any) => r.transactionId === second.transactionId)).toMatchObject({ connectorId: 2, meterStartWh: 50_000, idTag: second.idTag });

    const paged = await call("GET", `/station-service/monitoring/charging?stationId=${stationId}&size=1&current=2`, { token: admin });
    expect(paged.body.data).toMatchObject({ total: 2, current: 2, size: 1 });
    expect(paged.body.data.records).toHaveLength(1);

    const byTag = await call("GET", `/station-service/monitoring/charging?idTag=${first.idTag}`, { token: admin });
    expect(byTag.body.data.records.map((r: any) => r.transactionId)).toEqual([first.transactionId]);

    await charger.call("StopTransaction", { transactionId: first.transactionId, meterStop: 12_000, timestamp: now() });
    const after = await call("GET", `/station-service/monitoring/charging?stationId=${stationId}`, { token: admin });
    expect(after.body.data.records.map((r: any) => r.transactionId)).toEqual([second.transactionId]);

    const foreign = await call("GET", `/station-service/monitoring/charging?stationId=${stationId}`, { token: deAdmin });
    expect(foreign.body.data.total).toBe(0);
  });

  it("answers a session with its meter curve from the charger's samples", async () => {
    const { charger, pointId } = await online();
    const { transactionId } = await charge(charger, pointId, 1, 100_000);
    const t0 = Date.now();
    await meter(charger, 1, transactionId, 100_500, 7_000, new Date(t0 + 1000).toISOString());
    await meter(charger, 1, transactionId, 101_200, 11_000, new Date(t0 + 2000).toISOString());
    const res = await call("GET", `/station-service/monitoring/charging/${transactionId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ transactionId, pointId, connectorId: 1, status: "ACTIVE", meterStartWh: 100_000, energyWh: 1200 });
    expect(res.body.data.curve).toEqual([
      { at: new Date(t0 + 1000).toISOString(), energyWh: 500, powerW: 7000, currentA: 16, voltageV: 230 },
      { at: new Date(t0 + 2000).toISOString(), energyWh: 1200, powerW: 11_000, currentA: 16, voltageV: 230 },
    ]);
  });

  it("answers another operator's session with 404 and a bad number with a message in the language asked for", async () => {
    const { charger, pointId } = await online();
    const { transactionId } = await charge(charger, pointId);
    const foreign = await call("GET", `/station-service/monitoring/charging/${transactionId}`, { token: deAdmin });
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe("No such charging session");
    const en = await call("GET", "/station-service/monitoring/charging/abc", { token: admin });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe("A transaction number is a positive whole number");
    const pl = await call("GET", "/station-service/monitoring/charging/-4?lang=pl", { token: admin });
    expect(pl.status).toBe(400);
    expect(pl.body.msg).toBe("Numer transakcji to dodatnia liczba całkowita");
    const size = await call("GET", "/station-service/monitoring/charging?size=500", { token: admin });
    expect(size.status).toBe(400);
  });
});

describe("charging points and connectors (device and connector states)", () => {
  it("counts points online, offline and in fault, and filters by state", async () => {
    const healthy = await online();
    const broken = await online();
    await broken.charger.call("StatusNotification", { connectorId: 2, errorCode: "GroundFailure", status: "Faulted", timestamp: now() });
    await landed();
    const gone = await makeCharger("0PL002");

    const res = await call("GET", "/station-service/monitoring/chargingPile?size=100", { token: admin });
    expect(res.status).toBe(200);
    const { summary, records } = res.body.data;
    expect(summary.total).toBe(summary.online + summary.offline + summary.fault);
    expect(summary.fault).toBeGreaterThanOrEqual(1);
    const state = (id: number) => records.find((r: any) => r.id === id)?.state;
    expect(state(healthy.pointId)).toBe("online");
    expect(state(broken.pointId)).toBe("fault");
    expect(state(gone.pointId)).toBe("offline");

    const faults = await call("GET", "/station-service/monitoring/chargingPile?state=fault&size=100", { token: admin });
    expect(faults.body.data.records.map((r: any) => r.id)).toContain(broken.pointId);
    expect(faults.body.data.records.every((r: any) => r.state === "fault")).toBe(true);
    const station = await call("GET", `/station-service/monitoring/chargingPile?stationId=${healthy.stationId}`, { token: admin });
    expect(station.body.data).toMatchObject({ total: 1, summary: { total: 1, online: 1, offline: 0, fault: 0 } });
    expect(station.body.data.records[0].connectors).toEqual([
      { connectorId: 1, status: "Available", errorCode: "NoError", power: 11 },
      { connectorId: 2, status: "Available", errorCode: "NoError", power: 11 },
    ]);

    const bad = await call("GET", "/station-service/monitoring/chargingPile?state=sleeping&lang=de", { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Der Zustand muss online, offline oder Störung sein");
  });

  it("shows connectors with their display class, and an offline point's connectors as offline", async () => {
    const live = await online();
    await live.charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "SuspendedEV", timestamp: now() });
    await landed();
    const res = await call("GET", `/station-service/monitoring/connector?stationId=${live.stationId}`, { token: admin });
    expect(res.body.data.records.map((r: any) => [r.connectorId, r.status, r.displayClass])).toEqual([
      [1, "Available", "success"],
      [2, "SuspendedEV", "danger"],
    ]);
    expect(res.body.data.summary).toEqual({ Available: 1, SuspendedEV: 1 });

    live.charger.close();
    await waitFor(async () => (await row<{ online: number }>("SELECT online FROM points WHERE id = ?", live.pointId))!.online === 0);
    const offline = await call("GET", `/station-service/monitoring/connector?stationId=${live.stationId}&status=offline`, { token: admin });
    expect(offline.body.data.records.map((r: any) => [r.connectorId, r.status, r.displayClass])).toEqual([
      [1, null, "info"],
      [2, null, "info"],
    ]);
    const bad = await call("GET", "/station-service/monitoring/connector?status=Sleeping", { token: admin });
    expect(bad.body.msg).toBe("Unknown connector status");
  });

  it("names the running transaction of a charging connector", async () => {
    const { charger, pointId, stationId } = await online();
    const { transactionId } = await charge(charger, pointId, 2);
    const res = await call("GET", `/station-service/monitoring/connector?stationId=${stationId}&status=Charging`, { token: admin });
    expect(res.body.data.records).toEqual([expect.objectContaining({ connectorId: 2, status: "Charging", displayClass: "success", transactionId })]);
  });
});

describe("load monitoring", () => {
  it("answers a station's limit, points and last hour of summed power", async () => {
    const { charger, pointId, stationId } = await online();
    await env.DB.prepare("UPDATE stations SET power_limit_w = 40000 WHERE id = ?").bind(stationId).run();
    const a = await charge(charger, pointId, 1);
    const b = await charge(charger, pointId, 2);
    await meter(charger, 1, a.transactionId, 10_100, 7_000);
    await meter(charger, 2, b.transactionId, 10_100, 11_000);
    const res = await call("GET", `/station-service/monitoring/load?stationId=${stationId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.station).toMatchObject({ id: stationId, powerLimit: 40 });
    expect(res.body.data.ratedPower).toBe(22);
    expect(res.body.data.points.map((p: any) => p.id)).toEqual([pointId]);
    expect(res.body.data.running).toHaveLength(2);
    const history = res.body.data.history as { at: string; powerW: number }[];
    expect(history.length).toBeGreaterThanOrEqual(60);
    expect(history.at(-1)!.powerW).toBe(18_000);
    expect(history[0].powerW).toBe(0);
  });

  it("needs a station, and another operator's station is 404", async () => {
    const missing = await call("GET", "/station-service/monitoring/load", { token: admin });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe("Please choose a location");
    const pl = await call("GET", "/station-service/monitoring/load?lang=pl", { token: admin });
    expect(pl.body.msg).toBe("Wybierz lokalizację");
    const { stationId } = await online();
    expect((await call("GET", `/station-service/monitoring/load?stationId=${stationId}`, { token: deAdmin })).status).toBe(404);
  });
});

describe("alarms (Undisposed → AutoRecovery or ManualDisposed)", () => {
  it("lists an alarm a charger raised, disposes it once with a comment, and refuses a second time", async () => {
    const { charger, pointId, serialNumber } = await online();
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "HighTemperature", status: "Faulted", info: "cabinet 71°C", timestamp: now() });
    await landed();
    const list = await call("GET", `/station-service/alarm?pointId=${pointId}`, { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.records).toEqual([
      expect.objectContaining({ pointId, serialNumber, connectorId: 1, level: "ERROR", type: "HighTemperature", message: "cabinet 71°C", status: "Undisposed", recoveredAt: null }),
    ]);
    const id = list.body.data.records[0].id;

    const empty = await call("PUT", `/station-service/alarm/${id}/dispose`, { token: admin, body: { comment: "   " } });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe("Please enter a comment");
    expect(empty.body.data.fields.comment).toBe("Please enter a comment");
    const emptyZh = await call("PUT", `/station-service/alarm/${id}/dispose?lang=zh`, { token: admin, body: {} });
    expect(emptyZh.body.msg).toBe("请输入处理意见");
    const long = await call("PUT", `/station-service/alarm/${id}/dispose`, { token: admin, body: { comment: "x".repeat(501) } });
    expect(long.body.msg).toBe("A comment has at most 500 characters");

    const foreign = await call("PUT", `/station-service/alarm/${id}/dispose`, { token: deAdmin, body: { comment: "not mine" } });
    expect(foreign.status).toBe(404);

    const done = await call("PUT", `/station-service/alarm/${id}/dispose`, { token: admin, body: { comment: "Fan replaced" } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ id, status: "ManualDisposed", comment: "Fan replaced" });
    expect(Date.parse(done.body.data.recoveredAt)).toBeGreaterThan(Date.now() - 10_000);
    const log = await row<{ n: number }>("SELECT COUNT(*) AS n FROM operation_logs WHERE table_name = 'alarms' AND new_data LIKE ?", `%"id":${id},%`);
    expect(log!.n).toBe(1);

    const again = await call("PUT", `/station-service/alarm/${id}/dispose`, { token: admin, body: { comment: "again" } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe("Only undisposed alarms can be disposed");
  });

  it("shows an alarm that cleared itself as AutoRecovery with its recover time, and filters by status, level and time", async () => {
    const { charger, pointId } = await online();
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "WeakSignal", status: "Available", timestamp: now() });
    await landed();
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Available", timestamp: now() });
    await landed();
    const list = await call("GET", `/station-service/alarm?pointId=${pointId}`, { token: admin });
    expect(list.body.data.records).toEqual([expect.objectContaining({ type: "WeakSignal", level: "WARN", status: "AutoRecovery", recoveredAt: expect.any(String) })]);
    const open = await call("GET", `/station-service/alarm?pointId=${pointId}&status=Undisposed`, { token: admin });
    expect(open.body.data.total).toBe(0);
    const errors = await call("GET", `/station-service/alarm?pointId=${pointId}&level=ERROR`, { token: admin });
    expect(errors.body.data.total).toBe(0);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const later = await call("GET", `/station-service/alarm?pointId=${pointId}&from=${encodeURIComponent(future)}`, { token: admin });
    expect(later.body.data.total).toBe(0);
    const past = new Date(Date.now() - 3600_000).toISOString();
    const range = await call("GET", `/station-service/alarm?pointId=${pointId}&from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}`, { token: admin });
    expect(range.body.data.total).toBe(1);
  });

  it("refuses a time range that ends before it starts, and unknown statuses and levels", async () => {
    const from = encodeURIComponent("2026-05-02T00:00:00Z");
    const to = encodeURIComponent("2026-05-01T00:00:00Z");
    const en = await call("GET", `/station-service/alarm?from=${from}&to=${to}`, { token: admin });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe("The start time must not be later than the end time");
    const pl = await call("GET", `/station-service/alarm?from=${from}&to=${to}&lang=pl`, { token: admin });
    expect(pl.body.msg).toBe("Czas początku nie może być późniejszy niż czas końca");
    expect((await call("GET", "/station-service/alarm?status=Open", { token: admin })).body.msg).toBe("Unknown alarm status");
    expect((await call("GET", "/station-service/alarm?level=INFO", { token: admin })).body.msg).toBe("Alarm level must be ERROR or WARN");
    expect((await call("GET", "/station-service/alarm?from=yesterday", { token: admin })).body.msg).toBe("Please enter a valid date and time");
  });

  it("never shows one operator's alarms to another", async () => {
    const { charger, pointId } = await online();
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "OverVoltage", status: "Faulted", timestamp: now() });
    await landed();
    const foreign = await call("GET", `/station-service/alarm?pointId=${pointId}`, { token: deAdmin });
    expect(foreign.body.data.total).toBe(0);
  });
});

describe("home dashboard", () => {
  it("answers the map settings' centre for the dashboard's map, none while it is the blank default", async () => {
    const setCentre = (lat: string, lng: string) =>
      env.DB.prepare(
        "UPDATE parameter_settings SET document = json_set(document, '$.map.centre', json_object('lat', ?, 'lng', ?), '$.map.zoom', 9) WHERE operator_id = (SELECT id FROM operators WHERE code = '0DE001')",
      )
        .bind(lat, lng)
        .run();
    const centre = async () => (await call("GET", "/station-service/dashboard/home", { token: deAdmin })).body.data.mapCentre;
    await setCentre("0", "0");
    expect(await centre()).toBeNull();
    await setCentre("52.5200", "13.4050");
    expect(await centre()).toEqual({ lat: 52.52, lng: 13.405, zoom: 9 });
  });

  it("counts points, connectors, and today's sessions and energy in the operator's time zone", async () => {
    // Sessions earlier tests stopped count once billed: let the billing queue settle first.
    await waitFor(async () => (await row<{ n: number }>("SELECT count(*) AS n FROM transactions WHERE status = 'COMPLETED' AND billed_at IS NULL"))!.n === 0);
    const before = (await call("GET", "/station-service/dashboard/home", { token: admin })).body.data;
    const { charger, pointId } = await online();
    const { transactionId } = await charge(charger, pointId, 1, 0);
    await charger.call("StopTransaction", { transactionId, meterStop: 4_321, timestamp: now() });
    // The day's figures are the billing job's daily totals (docs/rules/records.md "Daily totals").
    await waitFor(async () => (await row<{ billed_at: number | null }>("SELECT billed_at FROM transactions WHERE id = ?", transactionId))!.billed_at !== null);
    const res = await call("GET", "/station-service/dashboard/home", { token: admin });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.timeZone).toBe("Europe/Warsaw");
    expect(data.points.total).toBe(before.points.total + 1);
    expect(data.points.online).toBe(before.points.online + 1);
    expect(data.today.sessions).toBe(before.today.sessions + 1);
    expect(data.today.energyWh).toBe(before.today.energyWh + 4_321);
    expect(data.month.energyWh).toBeGreaterThanOrEqual(data.today.energyWh);
    expect(data.revenue).toEqual({ today: before.revenue.today, month: before.revenue.month, currency: "PLN" });
    expect(data.energyByDay).toHaveLength(30);
    expect(data.energyByDay.at(-1).energyWh).toBe(data.today.energyWh);
    expect(data.stations.find((s: any) => s.name === "Warszawa Centrum")).toMatchObject({ lat: 52.2297, lng: 21.0122 });
    expect(data.devices.find((d: any) => d.id === pointId)).toMatchObject({ online: true, fault: false });
    expect(data.connectors.Available).toBeGreaterThanOrEqual(2);

    await charger.call("StatusNotification", { connectorId: 2, errorCode: "PowerSwitchFailure", status: "Faulted", timestamp: now() });
    await landed();
    const faulted = (await call("GET", "/station-service/dashboard/home", { token: admin })).body.data;
    expect(faulted.points.fault).toBe(data.points.fault + 1);
    expect(faulted.points.online).toBe(data.points.online - 1);
    expect(faulted.connectors.Faulted).toBe((data.connectors.Faulted ?? 0) + 1);
    expect(faulted.devices.find((d: any) => d.id === pointId)).toMatchObject({ online: true, fault: true });

    const de = (await call("GET", "/station-service/dashboard/home", { token: deAdmin })).body.data;
    expect(de.timeZone).toBe("Europe/Berlin");
    expect(de.devices.some((d: any) => d.id === pointId)).toBe(false);
  });
});

describe("remote-control panel of a station", () => {
  it("answers the station's points with connectors and the running transaction to stop", async () => {
    const { charger, pointId, stationId, serialNumber } = await online();
    const { transactionId } = await charge(charger, pointId, 2);
    const res = await call("GET", `/station-service/monitoring/panel?stationId=${stationId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ station: { id: stationId }, total: 1 });
    expect(res.body.data.records[0]).toMatchObject({ id: pointId, serialNumber, online: true, ratedPower: 22 });
    expect(res.body.data.records[0].connectors).toEqual([
      expect.objectContaining({ connectorId: 1, status: "Available", transactionId: null }),
      expect.objectContaining({ connectorId: 2, status: "Charging", transactionId }),
    ]);
    expect((await call("GET", `/station-service/monitoring/panel?stationId=${stationId}`, { token: deAdmin })).status).toBe(404);
    const options = await call("GET", "/station-service/monitoring/stations?name=Warszawa", { token: admin });
    expect(options.body.data).toEqual([expect.objectContaining({ name: "Warszawa Centrum", status: "VALID" })]);
  });
});

describe("permissions (menu codes)", () => {
  it("refuses each monitoring API to an account without its menu (403 'Access denied')", async () => {
    const token = await accountWith(["home"]);
    for (const path of [
      "/station-service/monitoring/charging",
      "/station-service/monitoring/charging/1",
      "/station-service/monitoring/chargingPile",
      "/station-service/monitoring/connector",
      "/station-service/monitoring/load?stationId=1",
      "/station-service/monitoring/panel?stationId=1",
      "/station-service/monitoring/stations",
      "/station-service/alarm",
    ]) {
      const res = await call("GET", path, { token });
      expect(res.status, path).toBe(403);
      expect(res.body.msg).toBe("Access denied");
    }
    expect((await call("PUT", "/station-service/alarm/1/dispose", { token, body: { comment: "x" } })).status).toBe(403);
    expect((await call("GET", "/station-service/dashboard/home", { token })).status).toBe(200);
  });

  it("lets a role with one monitoring screen use that screen's API only", async () => {
    const token = await accountWith(["monitoring.charging"]);
    expect((await call("GET", "/station-service/monitoring/charging", { token })).status).toBe(200);
    expect((await call("GET", "/station-service/alarm", { token })).status).toBe(403);
    expect((await call("GET", "/station-service/dashboard/home", { token })).status).toBe(403);
    const history = await accountWith(["operation.historicalAlarmInfo"]);
    expect((await call("GET", "/station-service/alarm", { token: history })).status).toBe(200);
  });
});

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
