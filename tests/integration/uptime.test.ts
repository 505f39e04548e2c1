import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { connectors, points, statusIntervals } from "../../db/schema";
import { zonedToUtc } from "../../domain/time";
import { systemCtx } from "../../workers/services/context";
import { applyChargersChanges } from "../../workers/services/ocpp/charger-changes";
import { insertAll } from "./support/bulk";
import { boot, connect, eventually, landed, type TestCharger } from "./support/charger";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { plansOf } from "./support/query-plans";

/** Uptime as 23 CFR 680.116 counts it, from the status intervals the chargers write (docs/rules/monitoring.md "Uptime"). */

let admin: string;
let deAdmin: string;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  deAdmin = await tokenFor("0DE001", "deadmin1");
});

interface IntervalRow {
  id: number;
  connector_no: number;
  status: string | null;
  online: number;
  started_at: number;
  ended_at: number | null;
}

const intervalsOf = async (pointId: number) =>
  (
    await env.DB.prepare("SELECT id, connector_no, status, online, started_at, ended_at FROM status_intervals WHERE point_id = ? ORDER BY connector_no, started_at")
      .bind(pointId)
      .all<IntervalRow>()
  ).results;

const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
const stamp = () => new Date().toISOString();

async function status(charger: TestCharger, connectorId: number, value: string, errorCode = "NoError") {
  await pause();
  await charger.call("StatusNotification", { connectorId, errorCode, status: value, timestamp: stamp() });
  await landed();
}

/**
 * A charger of 0PL002 on its own station driven through Available, a fault on connector 1 and a
 * lost connection: the history it leaves.
 */
async function drivenCharger() {
  const made = await makeCharger("0PL002");
  const first = (await connect(made.serialNumber, { key: made.key })).charger!;
  await boot(first);
  await landed();
  await status(first, 1, "Available");
  await status(first, 2, "Available");
  await status(first, 1, "Faulted", "GroundFailure");
  await status(first, 1, "Available");
  await pause();
  first.close();
  await eventually(
    () => env.DB.prepare("SELECT online FROM points WHERE id = ?").bind(made.pointId).first<{ online: number }>(),
    (r) => r?.online === 0,
  );
  await pause();
  const again = (await connect(made.serialNumber, { key: made.key })).charger!;
  await boot(again);
  await landed();
  const station = await env.DB.prepare("SELECT station_id FROM points WHERE id = ?").bind(made.pointId).first<{ station_id: number }>();
  return { ...made, charger: again, stationId: station!.station_id };
}

/**
 * Moves a point's history onto a known local day, each instant it holds an hour after the one
 * before, so the API's minutes can be stated exactly.
 */
async function ontoDay(pointId: number, day: string) {
  const { time_zone } = (await env.DB.prepare("SELECT time_zone FROM parameter_settings WHERE operator_id = (SELECT operator_id FROM points WHERE id = ?)").bind(pointId).first<{ time_zone: string }>())!;
  const rows = await intervalsOf(pointId);
  const instants = [...new Set(rows.flatMap((r) => [r.started_at, ...(r.ended_at === null ? [] : [r.ended_at])]))].sort((a, b) => a - b);
  const base = zonedToUtc(`${day}T00:00`, time_zone)!;
  const hour = (at: number) => base + instants.indexOf(at) * 3_600_000;
  await env.DB.batch(
    rows.map((r) => env.DB.prepare("UPDATE status_intervals SET started_at = ?, ended_at = ? WHERE id = ?").bind(hour(r.started_at), r.ended_at === null ? null : hour(r.ended_at), r.id)),
  );
  return instants.map(hour);
}

describe("status history", () => {
  it("keeps each connector's statuses and the point's connection as intervals, the offline ones down", async () => {
    const { pointId } = await drivenCharger();
    const rows = await intervalsOf(pointId);
    const shape = (connectorNo: number) => rows.filter((r) => r.connector_no === connectorNo).map((r) => [r.status, r.online, r.ended_at === null ? "open" : "closed"]);
    expect(shape(1)).toEqual([
      [null, 1, "closed"],
      ["Available", 1, "closed"],
      ["Faulted", 1, "closed"],
      ["Available", 1, "closed"],
      ["Available", 0, "closed"],
      ["Available", 1, "open"],
    ]);
    expect(shape(2)).toEqual([
      [null, 1, "closed"],
      ["Available", 1, "closed"],
      ["Available", 0, "closed"],
      ["Available", 1, "open"],
    ]);
    // Each interval ends where the next begins.
    for (const connectorNo of [1, 2]) {
      const own = rows.filter((r) => r.connector_no === connectorNo);
      own.slice(1).forEach((r, i) => expect(own[i].ended_at).toBe(r.started_at));
    }
  });

  it("writes nothing more when the change writer applies the same batch twice", async () => {
    const made = await makeCharger("0PL002");
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test");
    const at = Date.now() - 60_000;
    const changes = [
      { kind: "online" as const, online: true, at },
      { kind: "status" as const, status: { connectorId: 1, status: "Faulted", errorCode: "GroundFailure", at: at + 1000 } },
      { kind: "status" as const, status: { connectorId: 1, status: "Available", errorCode: "NoError", at: at + 2000 } },
      { kind: "online" as const, online: false, at: at + 3000 },
    ];
    await applyChargersChanges(ctx, [{ ctx, pointId: made.pointId, changes }]);
    const once = await intervalsOf(made.pointId);
    await applyChargersChanges(ctx, [{ ctx, pointId: made.pointId, changes }]);
    expect(await intervalsOf(made.pointId)).toEqual(once);
    expect(once.filter((r) => r.connector_no === 1).map((r) => [r.status, r.online])).toEqual([
      [null, 1],
      ["Faulted", 1],
      ["Available", 1],
      ["Available", 0],
    ]);
  });

  it("keeps the history when the charger's object is evicted, since D1 holds it", async () => {
    const { pointId, charger } = await drivenCharger();
    const before = await intervalsOf(pointId);
    const { abortAllDurableObjects } = await import("cloudflare:test");
    await abortAllDurableObjects();
    expect(await intervalsOf(pointId)).toEqual(before);
    charger.close();
  });
});

describe("GET /station-service/uptime", () => {
  it("counts a fault and a lost connection as outage minutes, per port, on the operator's day", async () => {
    const { pointId, stationId, serialNumber } = await drivenCharger();
    await ontoDay(pointId, "2026-01-10");
    const { result: res, plans } = await plansOf(() => call("GET", `/station-service/uptime?from=2026-01-10&to=2026-01-11&stationId=${stationId}`, { token: admin }));
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    // The ports' history through their points' index, not every interval of the operator before the period's end (decision 0110).
    const history = plans.filter(({ step }) => step.includes(" status_intervals "));
    expect(history.map(({ step }) => step)).toEqual([expect.stringContaining("USING INDEX status_intervals_point_connector_start_uq (point_id=?")]);
    expect(res.body.data.records.map((r: Record<string, unknown>) => ({ ...r, stationId: undefined, stationName: undefined, pointName: undefined }))).toEqual([
      // Faulted for an hour, offline for an hour.
      { pointId, serialNumber, connectorId: 1, minutes: 1440, outageMinutes: 120, excludedMinutes: 0, uptimePercent: 91.66 },
      { pointId, serialNumber, connectorId: 2, minutes: 1440, outageMinutes: 60, excludedMinutes: 0, uptimePercent: 95.83 },
    ]);
    const summary = await call("GET", `/station-service/uptime/summary?from=2026-01-10&to=2026-01-11&stationId=${stationId}`, { token: admin });
    expect(summary.body.data).toMatchObject({ belowCount: 2, below: [{ connectorId: 1, uptimePercent: 91.66 }, { connectorId: 2, uptimePercent: 95.83 }] });
    const monthly = await call("GET", `/station-service/uptime?from=2026-01-01&to=2026-02-01&stationId=${stationId}&by=month`, { token: admin });
    expect(monthly.body.data.records[0].periods).toEqual([{ period: "2026-01", minutes: 31 * 1440, outageMinutes: 120, excludedMinutes: 0, uptimePercent: 99.73 }]);
  });

  it("lists the outages with their causes, and an excluded outage stops counting for every port it took down", async () => {
    const { pointId, stationId } = await drivenCharger();
    await ontoDay(pointId, "2026-01-12");
    const period = `from=2026-01-12&to=2026-01-13&stationId=${stationId}`;
    const outages = await call("GET", `/station-service/uptime/outages?${period}`, { token: admin });
    expect(outages.status).toBe(200);
    const records = outages.body.data.records as { id: number; connectorId: number; cause: string; minutes: number }[];
    expect(records.map((o) => [o.connectorId, o.cause, o.minutes])).toEqual([
      [1, "Offline", 60],
      [2, "Offline", 60],
      [1, "Faulted", 60],
    ]);
    const grid = await call("PUT", `/station-service/uptime/outages/${records[0].id}/exclusion`, { token: admin, body: { reason: "GRID", note: "Utility cut" } });
    expect(grid.status).toBe(200);
    const after = await call("GET", `/station-service/uptime?${period}`, { token: admin });
    expect(after.body.data.records.map((r: { excludedMinutes: number; uptimePercent: number }) => [r.excludedMinutes, r.uptimePercent])).toEqual([
      [60, 95.83],
      [60, 100],
    ]);
    // Counting it again takes the exclusion back.
    await call("PUT", `/station-service/uptime/outages/${records[0].id}/exclusion`, { token: admin, body: { reason: null } });
    const again = await call("GET", `/station-service/uptime?${period}`, { token: admin });
    expect(again.body.data.records.map((r: { excludedMinutes: number }) => r.excludedMinutes)).toEqual([0, 0]);
  });

  it("takes scheduled maintenance only when a work order announced it before the outage", async () => {
    const { pointId, stationId } = await drivenCharger();
    await ontoDay(pointId, "2026-01-14");
    const outages = await call("GET", `/station-service/uptime/outages?from=2026-01-14&to=2026-01-15&stationId=${stationId}`, { token: admin });
    const faulted = (outages.body.data.records as { id: number; cause: string; startedAt: string }[]).find((o) => o.cause === "Faulted")!;
    const refused = await call("PUT", `/station-service/uptime/outages/${faulted.id}/exclusion`, { token: admin, body: { reason: "SCHEDULED_MAINTENANCE" } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/work order/);
    const opened = Date.parse(faulted.startedAt) - 86_400_000;
    await env.DB.prepare(
      "INSERT INTO work_orders (operator_id, point_id, source, fault_code, serial_number, abnormal_time, created_by, created_at, updated_at) SELECT operator_id, id, 'MANUAL', 'Maintenance', serial_number, ?, 'demoadmin', ?, ? FROM points WHERE id = ?",
    )
      .bind(opened, opened, opened, pointId)
      .run();
    const taken = await call("PUT", `/station-service/uptime/outages/${faulted.id}/exclusion`, { token: admin, body: { reason: "SCHEDULED_MAINTENANCE", note: "Announced" } });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({ excludedReason: "SCHEDULED_MAINTENANCE", excludedNote: "Announced" });
  });

  it("refuses a malformed or backwards period, and an unknown reason, in the user's language", async () => {
    const bad = await call("GET", "/station-service/uptime?from=10.01.2026&to=2026-01-11", { token: admin });
    expect(bad.status).toBe(400);
    const backwards = await call("GET", "/station-service/uptime?from=2026-01-11&to=2026-01-10", { token: admin });
    expect(backwards.status).toBe(400);
    expect(backwards.body.msg).toBe("The end of the period must come after its start");
    const missing = await call("GET", "/station-service/uptime", { token: admin });
    expect(missing.status).toBe(400);
    const tooLong = await call("GET", "/station-service/uptime?from=2024-01-01&to=2026-01-01", { token: admin });
    expect(tooLong.status).toBe(400);
    const reason = await call("PUT", "/station-service/uptime/outages/1/exclusion", { token: admin, body: { reason: "WEATHER" } });
    expect(reason.status).toBe(400);
    const extra = await call("PUT", "/station-service/uptime/outages/1/exclusion", { token: admin, body: { reason: null, surprise: 1 } });
    expect(extra.status).toBe(400);
  });

  it("answers another operator's station and outage 404, and refuses an account without the screen", async () => {
    const { pointId, stationId } = await drivenCharger();
    const other = await call("GET", `/station-service/uptime?from=2026-01-10&to=2026-01-11&stationId=${stationId}`, { token: deAdmin });
    expect(other.status).toBe(404);
    const outage = await env.DB.prepare("SELECT id FROM status_intervals WHERE point_id = ? AND online = 0 LIMIT 1").bind(pointId).first<{ id: number }>();
    const foreign = await call("PUT", `/station-service/uptime/outages/${outage!.id}/exclusion`, { token: deAdmin, body: { reason: "GRID" } });
    expect(foreign.status).toBe(404);
    const watcher = await tokenWithMenus(admin, ["monitoring.charging"]);
    expect((await call("GET", "/station-service/uptime?from=2026-01-10&to=2026-01-11", { token: watcher })).status).toBe(403);
    const reader = await tokenWithMenus(admin, ["monitoring.reliability"]);
    expect((await call("GET", `/station-service/uptime?from=2026-01-10&to=2026-01-11&stationId=${stationId}`, { token: reader })).status).toBe(200);
  });

  it("pages 102 ports and 101 outages of a station at 100 a page", async () => {
    const made = await makeCharger("0PL002");
    const { stationId } = (await env.DB.prepare("SELECT station_id AS stationId FROM points WHERE id = ?").bind(made.pointId).first<{ stationId: number }>())!;
    const extra = Array.from({ length: 50 }, (_, i) => ({
      operatorId: made.operatorId,
      stationId,
      serialNumber: `${made.serialNumber}-${i}`,
      pointNo: String(i),
      name: `Bulk ${i}`,
      type: "AC" as const,
      ratedPowerW: 22_000,
      connectorCount: 2,
    }));
    await insertAll(points, extra);
    const ids = (await env.DB.prepare("SELECT id FROM points WHERE station_id = ? AND id != ?").bind(stationId, made.pointId).all<{ id: number }>()).results.map((r) => r.id);
    await insertAll(
      connectors,
      ids.flatMap((pointId) => [1, 2].map((connectorNo) => ({ operatorId: made.operatorId, pointId, connectorNo, standard: "IEC2" as const, powerW: 11_000, chargeSpeed: "SLOW" as const }))),
    );
    const day = zonedToUtc("2026-01-20T00:00", "Europe/Warsaw")!;
    await insertAll(
      statusIntervals,
      Array.from({ length: 101 }, (_, i) => ({
        operatorId: made.operatorId,
        pointId: made.pointId,
        connectorNo: 1,
        status: i % 2 === 0 ? "Faulted" : "Available",
        online: true,
        startedAt: new Date(day + i * 60_000),
        endedAt: new Date(day + (i + 1) * 60_000),
      })),
    );
    const period = `from=2026-01-19&to=2026-01-22&stationId=${stationId}`;
    const first = await call("GET", `/station-service/uptime?${period}&size=100`, { token: admin });
    expect(first.body.data).toMatchObject({ total: 102, current: 1, size: 100 });
    expect(first.body.data.records).toHaveLength(100);
    const second = await call("GET", `/station-service/uptime?${period}&size=100&current=2`, { token: admin });
    expect(second.body.data.records).toHaveLength(2);
    const faulted = await call("GET", `/station-service/uptime/outages?${period}&size=100`, { token: admin });
    expect(faulted.body.data).toMatchObject({ total: 51 });
    await env.DB.prepare("UPDATE status_intervals SET status = 'Faulted' WHERE point_id = ?").bind(made.pointId).run();
    const all = await call("GET", `/station-service/uptime/outages?${period}&size=100&current=2`, { token: admin });
    expect(all.body.data).toMatchObject({ total: 101 });
    expect(all.body.data.records).toHaveLength(1);
  });
});

describe("the demo's month", () => {
  it("gives the reliability screen outages to show: a port below 97 % and a grid outage excluded, written once", async () => {
    const { seedDemoHistory } = await import("../../workers/services/demo/history");
    const now = Date.now();
    await seedDemoHistory(env, now);
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM status_intervals WHERE operator_id = (SELECT id FROM operators WHERE code = '0PL002')").first<{ n: number }>())!.n;
    const written = await count();
    expect(written).toBeGreaterThan(6);
    await seedDemoHistory(env, now + 86_400_000);
    expect(await count()).toBe(written);
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    const period = `from=${day(now - 31 * 86_400_000)}&to=${day(now + 2 * 86_400_000)}`;
    const summary = await call("GET", `/station-service/uptime/summary?${period}`, { token: admin });
    expect(summary.body.data.below).toContainEqual(expect.objectContaining({ serialNumber: "PL002-CP01", connectorId: 1 }));
    const outages = await call("GET", `/station-service/uptime/outages?${period}&size=100`, { token: admin });
    const records = outages.body.data.records as { serialNumber: string; cause: string; excludedReason: string | null }[];
    expect(records.filter((o) => o.serialNumber === "PL002-CP03" && o.cause === "Offline").every((o) => o.excludedReason === "GRID")).toBe(true);
    expect(records.some((o) => o.serialNumber === "PL002-CP03" && o.cause === "Offline")).toBe(true);
    expect(records.some((o) => o.cause === "Faulted")).toBe(true);
  });
});
