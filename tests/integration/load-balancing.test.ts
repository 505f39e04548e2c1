import { describe, expect, it } from "vitest";
import { online16, recording } from "./support/charger";
import { makeAccount, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { dailyMaximumProfile16, eventually, makeSite } from "./support/operations";

const PATH = "/station-service/load-balancing";

const body = (stationId: number, pointIds: number[], overrides: Record<string, unknown> = {}) => ({
  name: `LB ${Math.random().toString(36).slice(2, 8)}`,
  stationId,
  pointIds,
  powerLimit: 60,
  stackLevel: 1,
  repeat: "Daily",
  slots: [{ start: "18:00", end: "22:00", limitKw: 30 }],
  ...overrides,
});

describe("load balancing: configurations", () => {
  it("creates a configuration within the location's load power and lists it, newest first", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002");
    const ids = site.chargers.map((c) => c.pointId);
    const created = await call("POST", PATH, { token, body: body(site.stationId, ids, { validFrom: "2025-06-01T00:00:00Z", validTo: "2030-01-01T00:00:00Z" }) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({
      stationId: site.stationId,
      powerLimit: 60,
      purpose: "ChargePointMaxProfile",
      stackLevel: 1,
      repeat: "Daily",
      slots: [{ start: "18:00", end: "22:00", limitKw: 30 }],
      validFrom: "2025-06-01T00:00:00.000Z",
      validTo: "2030-01-01T00:00:00.000Z",
      status: "VALID",
      stationPowerLimit: 100,
      timeZone: "Europe/Warsaw",
    });
    expect(created.body.data.points.map((p: { pointId: number; delivery: string }) => [p.pointId, p.delivery]).sort()).toEqual(ids.map((id) => [id, "NotSent"]).sort());
    const list = await call("GET", `${PATH}?stationId=${site.stationId}`, { token });
    expect(list.body.data).toMatchObject({ total: 1, records: [{ id: created.body.data.id, pointCount: 2 }] });
  });

  it("refuses a power limit above the location's load power, or a location without one, in two languages", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { loadKw: 50 });
    const ids = site.chargers.map((c) => c.pointId);
    const above = await call("POST", PATH, { token, body: body(site.stationId, ids, { powerLimit: 50.01, slots: [] }) });
    expect(above.status).toBe(400);
    expect(above.body.msg).toBe("The power may not exceed the location's load power (50 kW)");
    expect(above.body.data.fields).toEqual({ powerLimit: "The power may not exceed the location's load power (50 kW)" });
    const exactly = await call("POST", PATH, { token, body: body(site.stationId, ids, { powerLimit: 50, slots: [] }) });
    expect(exactly.status).toBe(200);
    const bare = await makeSite("0PL002", { count: 1, loadKw: null });
    const none = await call("POST", `${PATH}?lang=de`, { token, body: body(bare.stationId, [bare.chargers[0].pointId]) });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe("Legen Sie zuerst die Anschlussleistung des Standorts fest");
  });

  it("refuses overlapping or reversed slots, a slot above the limit, a reversed validity, unknown enums and more than two decimals", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const ids = [site.chargers[0].pointId];
    const cases: [Record<string, unknown>, string, string][] = [
      [{ slots: [{ start: "08:00", end: "12:00", limitKw: 10 }, { start: "11:00", end: "13:00", limitKw: 10 }] }, "slots", "Time slots may not overlap"],
      [{ slots: [{ start: "12:00", end: "08:00", limitKw: 10 }] }, "slots.0.end", "A time slot must end after it starts"],
      [{ slots: [{ start: "8:00", end: "09:00", limitKw: 10 }] }, "slots.0.start", "Enter a time as HH:mm (00:00 to 24:00)"],
      [{ slots: [{ start: "08:00", end: "09:00", limitKw: 61 }] }, "slots.0.limitKw", "A slot's limit may not exceed the power limit"],
      [{ validFrom: "2026-01-02T00:00:00Z", validTo: "2026-01-01T00:00:00Z" }, "validTo", "Valid to must be after valid from"],
      [{ repeat: "Monthly" }, "repeat", "Choose Absolute, Daily or Weekly"],
      [{ stackLevel: 3 }, "stackLevel", "Choose a priority: low, middle or high"],
      [{ purpose: "TxProfile" }, "purpose", "Choose how the limit applies"],
      [{ powerLimit: 12.345 }, "powerLimit", "Power has at most two decimals"],
      [{ pointIds: [] }, "pointIds", "Choose at least one charging point"],
      [{ pointIds: [ids[0], ids[0]] }, "pointIds", "A charging point is chosen twice"],
    ];
    for (const [change, field, message] of cases) {
      const res = await call("POST", PATH, { token, body: body(site.stationId, ids, change) });
      expect(res.status, field).toBe(400);
      expect(res.body.data.fields[field], field).toBe(message);
    }
  });

  it("takes only points of the chosen location; another operator's location or point is 404", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const elsewhere = await makeSite("0PL002", { count: 1 });
    const foreign = await makeSite("0DE001", { count: 1 });
    const mixed = await call("POST", PATH, { token, body: body(site.stationId, [site.chargers[0].pointId, elsewhere.chargers[0].pointId]) });
    expect(mixed.status).toBe(400);
    expect(mixed.body.data.fields.pointIds).toBe("Every charging point must belong to the chosen location");
    expect((await call("POST", PATH, { token, body: body(foreign.stationId, [site.chargers[0].pointId]) })).status).toBe(404);
    expect((await call("POST", PATH, { token, body: body(site.stationId, [foreign.chargers[0].pointId]) })).status).toBe(404);
  });

  it("refuses a second enabled configuration with the same priority and purpose on a point, but not a disabled one", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const ids = [site.chargers[0].pointId];
    const first = await call("POST", PATH, { token, body: body(site.stationId, ids, { name: "Evening cap" }) });
    const clash = await call("POST", PATH, { token, body: body(site.stationId, ids) });
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toBe('"Evening cap" already limits one of these points with the same priority and purpose');
    const otherLevel = await call("POST", PATH, { token, body: body(site.stationId, ids, { stackLevel: 2 }) });
    expect(otherLevel.status).toBe(200);
    await call("PUT", `${PATH}/${first.body.data.id}/valid`, { token, body: { status: "INVALID" } });
    expect((await call("POST", PATH, { token, body: body(site.stationId, ids) })).status).toBe(200);
    const back = await call("PUT", `${PATH}/${first.body.data.id}/valid`, { token, body: { status: "VALID" } });
    expect(back.status).toBe(409);
  });

  it("answers another operator's configuration with 404 on every verb", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const mine = await call("POST", PATH, { token, body: body(site.stationId, [site.chargers[0].pointId], { stackLevel: 0 }) });
    const other = await tokenFor("0DE001", "deadmin1");
    const id = mine.body.data.id;
    const attempts = [
      call("GET", `${PATH}/${id}`, { token: other }),
      call("PUT", `${PATH}/${id}`, { token: other, body: body(site.stationId, [site.chargers[0].pointId]) }),
      call("DELETE", `${PATH}/${id}`, { token: other }),
      call("PUT", `${PATH}/${id}/valid`, { token: other, body: { status: "INVALID" } }),
      call("POST", `${PATH}/${id}/deliver`, { token: other }),
      call("GET", `${PATH}/${id}/composite-schedule?pointId=${site.chargers[0].pointId}`, { token: other }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    expect((await call("GET", PATH, { token: other })).body.data.records.some((r: { id: number }) => r.id === id)).toBe(false);
    expect((await call("GET", `${PATH}/${id}`, { token })).status).toBe(200);
  });

  it("refuses an account without the load-balancing menu (403), also one that may watch the load monitor", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["monitoring.loadMonitoring"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    const site = await makeSite("0PL002", { count: 1 });
    expect((await call("GET", PATH, { token })).status).toBe(403);
    expect((await call("POST", PATH, { token, body: body(site.stationId, [site.chargers[0].pointId]) })).status).toBe(403);
    expect((await call("POST", `${PATH}/1/deliver`, { token })).status).toBe(403);
  });
});

/** Deliveries go through the push queue, whose batches wait up to a second each: several rounds per test. */
const QUEUE_ROUNDS_MS = 30_000;

describe("load balancing: delivery to the chargers", { timeout: QUEUE_ROUNDS_MS }, () => {
  it("sends SetChargingProfile through the push queue and shows each point accepted, rejected or offline", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 3 });
    const [a, b, c] = site.chargers;
    const accepting = await online16(a);
    const refusing = await online16(b);
    const seenA = recording(accepting, "SetChargingProfile", { status: "Accepted" });
    recording(refusing, "SetChargingProfile", { status: "Rejected" });
    const created = await call("POST", PATH, { token, body: body(site.stationId, [a.pointId, b.pointId, c.pointId], { validFrom: "2025-06-01T10:00:00Z" }) });
    const id = created.body.data.id;
    const queued = await call("POST", `${PATH}/${id}/deliver`, { token });
    expect(queued.status).toBe(200);
    expect(queued.body.data.points.every((p: { delivery: string }) => p.delivery === "Queued")).toBe(true);
    const done = await eventually(
      () => call("GET", `${PATH}/${id}`, { token }),
      (res) => res.body.data.points.every((p: { delivery: string }) => !["Queued", "Sent"].includes(p.delivery)),
    );
    const byPoint = Object.fromEntries(done.body.data.points.map((p: { pointId: number; delivery: string }) => [p.pointId, p.delivery]));
    expect(byPoint).toEqual({ [a.pointId]: "Accepted", [b.pointId]: "Rejected", [c.pointId]: "Offline" });
    // The station's 60 kW shared over its three points, 30 kW from 18:00 to 22:00 Warsaw time, every day.
    expect(seenA).toEqual([
      dailyMaximumProfile16(id, [
        { startPeriod: 0, limit: 20_000 },
        { startPeriod: 64_800, limit: 10_000 },
        { startPeriod: 79_200, limit: 20_000 },
      ]),
    ]);
    accepting.close();
    refusing.close();
  });

  it("gives each point the whole limit as TxDefaultProfile when the limit is per point", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 2 });
    const charger = await online16(site.chargers[0]);
    const seen = recording(charger, "SetChargingProfile", { status: "Accepted" });
    const created = await call("POST", PATH, {
      token,
      body: body(site.stationId, [site.chargers[0].pointId, site.chargers[1].pointId], { purpose: "TxDefaultProfile", repeat: "Absolute", slots: [], powerLimit: 22 }),
    });
    await call("POST", `${PATH}/${created.body.data.id}/deliver`, { token });
    await eventually(async () => seen.length, (n) => n > 0);
    expect(seen[0].csChargingProfiles).toMatchObject({
      chargingProfilePurpose: "TxDefaultProfile",
      chargingProfileKind: "Absolute",
      chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 22_000 }] },
    });
    expect(seen[0].csChargingProfiles.recurrencyKind).toBeUndefined();
    charger.close();
  });

  it("refuses to deliver a disabled configuration", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const created = await call("POST", PATH, { token, body: body(site.stationId, [site.chargers[0].pointId], { stackLevel: 0 }) });
    await call("PUT", `${PATH}/${created.body.data.id}/valid`, { token, body: { status: "INVALID" } });
    const res = await call("POST", `${PATH}/${created.body.data.id}/deliver`, { token });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("Enable the configuration before delivering it");
  });

  it("clears the profile with ClearChargingProfile when disabled, with progress, and when deleted", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const point = site.chargers[0];
    const charger = await online16(point);
    recording(charger, "SetChargingProfile", { status: "Accepted" });
    const clears = recording(charger, "ClearChargingProfile", { status: "Accepted" });
    const created = await call("POST", PATH, { token, body: body(site.stationId, [point.pointId]) });
    const id = created.body.data.id;
    await call("POST", `${PATH}/${id}/deliver`, { token });
    await eventually(() => call("GET", `${PATH}/${id}`, { token }), (res) => res.body.data.points[0].delivery === "Accepted");
    const disabled = await call("PUT", `${PATH}/${id}/valid`, { token, body: { status: "INVALID" } });
    expect(disabled.body.data.points[0]).toMatchObject({ action: "clear", delivery: "Queued" });
    const cleared = await eventually(() => call("GET", `${PATH}/${id}`, { token }), (res) => res.body.data.points[0].delivery === "Accepted");
    expect(cleared.body.data.points[0]).toMatchObject({ action: "clear", delivery: "Accepted" });
    expect(clears).toEqual([{ id }]);
    // Enabled and delivered again, then deleted: the charger is told to clear it once more.
    await call("PUT", `${PATH}/${id}/valid`, { token, body: { status: "VALID" } });
    await call("POST", `${PATH}/${id}/deliver`, { token });
    await eventually(() => call("GET", `${PATH}/${id}`, { token }), (res) => res.body.data.points[0].action === "set" && res.body.data.points[0].delivery === "Accepted");
    const deleted = await call("DELETE", `${PATH}/${id}`, { token });
    expect(deleted.body.data).toEqual({ id, cleared: 1 });
    await eventually(async () => clears.length, (n) => n === 2);
    expect(clears).toEqual([{ id }, { id }]);
    expect((await call("GET", `${PATH}/${id}`, { token })).status).toBe(404);
    charger.close();
  });

  it("deletes a configuration never delivered without telling any charger", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const created = await call("POST", PATH, { token, body: body(site.stationId, [site.chargers[0].pointId], { stackLevel: 0 }) });
    const deleted = await call("DELETE", `${PATH}/${created.body.data.id}`, { token });
    expect(deleted.body.data).toEqual({ id: created.body.data.id, cleared: 0 });
  });

  it("asks a point of the configuration for its composite schedule on demand; another point is 404", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const other = await makeSite("0PL002", { count: 1 });
    const point = site.chargers[0];
    const charger = await online16(point);
    const asked = recording(charger, "GetCompositeSchedule", {
      status: "Accepted",
      connectorId: 0,
      scheduleStart: "2025-06-01T00:00:00Z",
      chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 20000 }] },
    });
    const created = await call("POST", PATH, { token, body: body(site.stationId, [point.pointId]) });
    const id = created.body.data.id;
    const res = await call("GET", `${PATH}/${id}/composite-schedule?pointId=${point.pointId}&duration=3600`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.chargingSchedule.chargingSchedulePeriod).toEqual([{ startPeriod: 0, limit: 20000 }]);
    expect(asked).toEqual([{ connectorId: 0, duration: 3600, chargingRateUnit: "W" }]);
    expect((await call("GET", `${PATH}/${id}/composite-schedule?pointId=${other.chargers[0].pointId}`, { token })).status).toBe(404);
    charger.close();
  });

  it("takes a composite schedule with an empty period list (no limit) as the official schema does", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1 });
    const point = site.chargers[0];
    const charger = await online16(point);
    const reply = { status: "Accepted", connectorId: 0, scheduleStart: "2025-06-01T00:00:00Z", chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [] } };
    recording(charger, "GetCompositeSchedule", reply);
    const created = await call("POST", PATH, { token, body: body(site.stationId, [point.pointId]) });
    const res = await call("GET", `${PATH}/${created.body.data.id}/composite-schedule?pointId=${point.pointId}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual(reply);
    const monitoring = await call("GET", `/station-service/monitoring/getCompositeSchedule/${point.serialNumber}`, { token });
    expect(monitoring.status, JSON.stringify(monitoring.body)).toBe(200);
    expect(monitoring.body.data.chargingSchedule.chargingSchedulePeriod).toEqual([]);
    charger.close();
  });

  it("shows the load monitor the limit in force against the station's live power", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const site = await makeSite("0PL002", { count: 1, loadKw: 80 });
    await call("POST", PATH, { token, body: body(site.stationId, [site.chargers[0].pointId], { powerLimit: 40, slots: [], repeat: "Absolute" }) });
    const load = await call("GET", `/station-service/monitoring/load?stationId=${site.stationId}`, { token });
    expect(load.status).toBe(200);
    expect(load.body.data.station.powerLimit).toBe(80);
    expect(load.body.data.balancing).toEqual([expect.objectContaining({ limitNow: 40, purpose: "ChargePointMaxProfile", stackLevel: 1 })]);
  });
});
