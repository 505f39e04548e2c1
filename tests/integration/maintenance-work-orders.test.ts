import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { accounts, maintainers, workOrders } from "../../db/schema";
import en from "../../domain/i18n/locales/en/maintenance.json";
import { insertAll } from "./support/bulk";
import { boot, connect, landed, now } from "./support/charger";
import { operatorIdOf } from "./support/driver-rows";
import { makeAccount, makeCharger, makeRole, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { userCtx } from "./support/ocpi-partner";
import { maintainerChoices } from "../../workers/services/maintenance/maintainers";
import { row } from "./support/d1";

/** Work orders and maintainers (docs/rules/maintenance.md). */
const v = en.maintenance.validation;
const e = en.maintenance.errors;
let admin: string;
let deAdmin: string;
let maintainerRole: number;


beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  deAdmin = await tokenFor("0DE001", "deadmin1");
  maintainerRole = (await makeRole(admin, { type: "MAINTAINER", menuCodes: ["operation.maintain"] })).id;
});

/** A charger of 0PL002 on its own new station, with the station's id. */
async function charger() {
  const made = await makeCharger("0PL002");
  const station = await row<{ station_id: number }>("SELECT station_id FROM points WHERE id = ?", made.pointId);
  return { ...made, stationId: station!.station_id };
}

/** A maintainer made through the API, with the account's login. */
async function maintainer(body: Record<string, unknown>) {
  const account = await makeAccount("0PL002", admin, maintainerRole);
  const res = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id, ...body } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { ...(res.body.data as { id: number }), account, token: () => tokenFor("0PL002", account.username, account.password) };
}

/** An undisposed alarm of a point, straight into the table as a charger's status would leave it. */
async function alarm(pointId: number, type = "GroundFailure") {
  const r = await row<{ id: number }>(
    "INSERT INTO alarms (operator_id, point_id, connector_no, level, type, status, occurred_at) SELECT operator_id, id, 1, 'ERROR', ?, 'Undisposed', ? FROM points WHERE id = ? RETURNING id",
    type,
    Date.parse("2026-05-01T08:00:00Z"),
    pointId,
  );
  return r!.id;
}

describe("maintainers", () => {
  it("makes a maintainer of an account of a MAINTAINER role only, with known fault codes and the operator's own devices", async () => {
    const { pointId, stationId } = await charger();
    const normal = await makeAccount("0PL002", admin, (await makeRole(admin)).id);
    const notMaintainer = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: normal.id } });
    expect(notMaintainer.status).toBe(400);
    expect(notMaintainer.body.data.fields.accountId).toBe(v.notMaintainerAccount);

    const account = await makeAccount("0PL002", admin, maintainerRole);
    const unknownCode = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id, faultCodes: ["NoSuchCode"] } });
    expect(unknownCode.status).toBe(400);
    expect(unknownCode.body.data.fields.faultCodes).toBe(v.unknownFaultCode.replace("{{codes}}", "NoSuchCode"));
    const deStation = await row<{ id: number }>("SELECT s.id FROM stations s JOIN operators o ON o.id = s.operator_id WHERE o.code = '0DE001' LIMIT 1");
    expect((await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id, stationIds: [deStation!.id] } })).status).toBe(404);
    expect((await call("POST", "/maintain-service/maintainer", { token: deAdmin, body: { accountId: account.id } })).status).toBe(404);

    const made = await call("POST", "/maintain-service/maintainer", {
      token: admin,
      body: { accountId: account.id, manufacturer: "Plugdesk", wardenAccount: "warden1", faultCodes: ["GroundFailure"], stationIds: [stationId], pointIds: [pointId] },
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({
      accountId: account.id,
      username: account.username,
      manufacturer: "Plugdesk",
      wardenAccount: "warden1",
      faultCodes: ["GroundFailure"],
      stations: [expect.objectContaining({ id: stationId })],
      points: [expect.objectContaining({ id: pointId })],
      openOrders: 0,
    });
    const again = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(e.alreadyMaintainer);

    const id = made.body.data.id;
    const edited = await call("PUT", `/maintain-service/maintainer/${id}`, { token: admin, body: { accountId: account.id, faultCodes: ["HighTemperature"], pointIds: [pointId] } });
    expect(edited.body.data).toMatchObject({ faultCodes: ["HighTemperature"], stations: [], points: [expect.objectContaining({ id: pointId })] });
    expect((await call("GET", `/maintain-service/maintainer/${id}`, { token: deAdmin })).status).toBe(404);
    expect((await call("DELETE", `/maintain-service/maintainer/${id}`, { token: deAdmin })).status).toBe(404);

    await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(pointId, "HighTemperature") } });
    const busy = await call("DELETE", `/maintain-service/maintainer/${id}`, { token: admin });
    expect(busy.status).toBe(409);
    expect(busy.body.msg).toBe(e.maintainerHasOrders);
    const log = await call("GET", "/system-service/operation-log?tableName=maintainers&size=1", { token: admin });
    expect(log.body.data.records[0]).toMatchObject({ tableName: "maintainers", operationType: "UPDATE", account: "demoadmin" });
  });
});

describe("work orders", () => {
  it("goes ALREADY → PASS → ALREADY (audit no pass) → PASS → CLOSE, each step once, with history and log rows", async () => {
    const { serialNumber } = await charger();
    const unknownPoint = await call("POST", "/maintain-service/work-order", { token: admin, body: { faultCode: "GroundFailure", serialNumber: "NOPE-1", abnormalTime: now() } });
    expect(unknownPoint.status).toBe(400);
    expect(unknownPoint.body.data.fields.serialNumber).toBe(v.unknownPoint);
    const unknownCode = await call("POST", "/maintain-service/work-order", { token: admin, body: { faultCode: "Smoke", serialNumber, abnormalTime: now() } });
    expect(unknownCode.body.data.fields.faultCode).toBe(v.unknownFaultCode.replace("{{codes}}", "Smoke"));
    const missing = await call("POST", "/maintain-service/work-order", { token: admin, body: {} });
    expect(missing.status).toBe(400);

    const made = await call("POST", "/maintain-service/work-order", {
      token: admin,
      body: { faultCode: "GroundFailure", serialNumber, abnormalTime: "2026-05-02T10:00:00Z", cause: "Leak current", remarks: "Rain" },
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ status: "ALREADY", source: "MANUAL", faultCode: "GroundFailure", serialNumber, cause: "Leak current", remarks: "Rain", maintainerId: null });
    const id = made.body.data.id;
    const path = `/maintain-service/work-order/${id}`;

    expect((await call("PUT", path, { token: admin, body: { remarks: "Rain, twice" } })).body.data.remarks).toBe("Rain, twice");
    expect((await call("PUT", `${path}/audit`, { token: admin, body: { result: "PASS", opinion: "ok" } })).body.msg).toBe(e.notProcessed);
    const blank = await call("PUT", `${path}/process`, { token: admin, body: { handlingProcess: " ", opinion: "x" } });
    expect(blank.body.data.fields.handlingProcess).toBe(v.handlingProcessRequired);

    const processed = await call("PUT", `${path}/process`, { token: admin, body: { handlingProcess: "Replaced RCD", opinion: "Fixed" } });
    expect(processed.body.data).toMatchObject({ status: "PASS", handlingProcess: "Replaced RCD", opinion: "Fixed", processedBy: "demoadmin" });
    expect(processed.body.data.processedAt).not.toBeNull();
    const locked = await call("PUT", path, { token: admin, body: { remarks: "late" } });
    expect(locked.status).toBe(409);
    expect(locked.body.msg).toBe(e.notPending);
    expect((await call("PUT", `${path}/process`, { token: admin, body: { handlingProcess: "again", opinion: "again" } })).status).toBe(409);
    expect((await call("PUT", `${path}/audit`, { token: admin, body: { result: "MAYBE", opinion: "x" } })).body.data.fields.result).toBe(v.auditResult);

    const refused = await call("PUT", `${path}/audit`, { token: admin, body: { result: "NO_PASS", opinion: "Still tripping" } });
    expect(refused.body.data).toMatchObject({ status: "ALREADY", auditResult: "NO_PASS", auditOpinion: "Still tripping", auditedBy: "demoadmin" });
    await call("PUT", `${path}/process`, { token: admin, body: { handlingProcess: "Replaced cable", opinion: "Fixed now" } });
    const closed = await call("PUT", `${path}/audit`, { token: admin, body: { result: "PASS", opinion: "Verified" } });
    expect(closed.body.data).toMatchObject({ status: "CLOSE", auditResult: "PASS", auditOpinion: "Verified" });
    expect((await call("PUT", `${path}/audit`, { token: admin, body: { result: "PASS", opinion: "again" } })).status).toBe(409);
    expect(closed.body.data.history.map((h: { action: string; toStatus: string }) => `${h.action}:${h.toStatus}`)).toEqual([
      "CREATE:ALREADY",
      "UPDATE:ALREADY",
      "PROCESS:PASS",
      "AUDIT_NO_PASS:ALREADY",
      "PROCESS:PASS",
      "AUDIT_PASS:CLOSE",
    ]);
    const logged = await row<{ n: number }>("SELECT count(*) AS n FROM operation_logs WHERE table_name = 'work_orders' AND new_data LIKE ?", `%"id":${id},%`);
    expect(logged!.n).toBe(5);
  });

  it("opens an order from an alarm once, with the alarm's fault code, point and time", async () => {
    const { pointId, serialNumber } = await charger();
    const alarmId = await alarm(pointId, "OverVoltage");
    const made = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId } });
    expect(made.body.data).toMatchObject({ alarmId, source: "ALARM", faultCode: "OverVoltage", serialNumber, pointId, abnormalTime: "2026-05-01T08:00:00.000Z" });
    const again = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(e.alarmHasOrder);
    expect((await call("POST", "/maintain-service/work-order", { token: deAdmin, body: { alarmId } })).status).toBe(404);
  });

  it("assigns by the rule: the point's own maintainer before its station's, then the fewest open orders; nobody when no one is bound", async () => {
    const a = await charger();
    const station = await maintainer({ faultCodes: ["ReaderFailure"], stationIds: [a.stationId] });
    const own = await maintainer({ faultCodes: ["ReaderFailure"], pointIds: [a.pointId] });
    const first = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(a.pointId, "ReaderFailure") } });
    expect(first.body.data.maintainerId).toBe(own.id);
    expect(first.body.data.handlerAccount).toBe(own.account.username);

    const b = await charger();
    const busy = await maintainer({ faultCodes: ["WeakSignal"], stationIds: [b.stationId] });
    const idle = await maintainer({ faultCodes: ["WeakSignal"], stationIds: [b.stationId] });
    const one = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(b.pointId, "WeakSignal") } });
    expect(one.body.data.maintainerId).toBe(busy.id);
    const two = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(b.pointId, "WeakSignal") } });
    expect(two.body.data.maintainerId).toBe(idle.id);

    const nobody = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(a.pointId, "UnderVoltage") } });
    expect(nobody.body.data.maintainerId).toBeNull();
    const chosen = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(a.pointId, "UnderVoltage"), maintainerId: station.id } });
    expect(chosen.body.data.maintainerId).toBe(station.id);
    const assigned = await call("PUT", `/maintain-service/work-order/${nobody.body.data.id}`, { token: admin, body: { maintainerId: idle.id } });
    expect(assigned.body.data.maintainerId).toBe(idle.id);
  });

  it("lets an alarm open an order by itself only when the operator turned it on, assigned to the bound maintainer", async () => {
    const made = await charger();
    const bound = await maintainer({ faultCodes: ["PowerMeterFailure"], pointIds: [made.pointId] });
    const live = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(live);
    await landed();
    expect((await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: "yes" } })).status).toBe(400);
    try {
      await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: false } });
      await live.call("StatusNotification", { connectorId: 1, errorCode: "PowerMeterFailure", status: "Faulted", timestamp: now() });
      await landed();
      expect((await call("GET", `/maintain-service/work-order?serialNumber=${made.serialNumber}`, { token: admin })).body.data.total).toBe(0);

      expect((await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: true } })).body.data).toEqual({ autoOpen: true });
      await live.call("StatusNotification", { connectorId: 2, errorCode: "PowerMeterFailure", status: "Faulted", timestamp: now() });
      await landed();
      const list = await call("GET", `/maintain-service/work-order?serialNumber=${made.serialNumber}`, { token: admin });
      expect(list.body.data.records).toEqual([expect.objectContaining({ source: "AUTO", faultCode: "PowerMeterFailure", maintainerId: bound.id, status: "ALREADY", createdBy: `system: charger ${made.serialNumber}` })]);
    } finally {
      await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: false } });
      live.close();
    }
  });

  it("shows a maintainer only their own orders; they process but never audit or reassign", async () => {
    const { pointId, serialNumber } = await charger();
    const mine = await maintainer({ faultCodes: ["InternalError"], pointIds: [pointId] });
    const other = await maintainer({ faultCodes: [] });
    const token = await mine.token();
    const assigned = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(pointId, "InternalError") } });
    const foreign = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: await alarm(pointId, "OtherError"), maintainerId: other.id } });
    const list = await call("GET", "/maintain-service/work-order?size=100", { token });
    expect(list.body.data.records.map((r: { id: number }) => r.id)).toEqual([assigned.body.data.id]);
    expect((await call("GET", `/maintain-service/work-order/${foreign.body.data.id}`, { token })).status).toBe(404);
    expect((await call("PUT", `/maintain-service/work-order/${foreign.body.data.id}/process`, { token, body: { handlingProcess: "x", opinion: "y" } })).status).toBe(404);
    const reassign = await call("PUT", `/maintain-service/work-order/${assigned.body.data.id}`, { token, body: { maintainerId: other.id } });
    expect(reassign.status).toBe(403);
    const own = await call("POST", "/maintain-service/work-order", { token, body: { faultCode: "InternalError", serialNumber, abnormalTime: now() } });
    expect(own.body.data.maintainerId).toBe(mine.id);
    const done = await call("PUT", `/maintain-service/work-order/${assigned.body.data.id}/process`, { token, body: { handlingProcess: "Rebooted", opinion: "OK" } });
    expect(done.body.data).toMatchObject({ status: "PASS", processedBy: mine.account.username });
    const audit = await call("PUT", `/maintain-service/work-order/${assigned.body.data.id}/audit`, { token, body: { result: "PASS", opinion: "self" } });
    expect(audit.status).toBe(403);
    expect(audit.body.msg).toBe(e.maintainerCannotAudit);
  });

  it("answers another operator's order with 404 on every verb, refuses an account without the menu (403), and one that only watches", async () => {
    const { serialNumber } = await charger();
    const made = await call("POST", "/maintain-service/work-order", { token: admin, body: { faultCode: "GroundFailure", serialNumber, abnormalTime: now() } });
    const path = `/maintain-service/work-order/${made.body.data.id}`;
    expect((await call("GET", path, { token: deAdmin })).status).toBe(404);
    expect((await call("PUT", path, { token: deAdmin, body: { remarks: "x" } })).status).toBe(404);
    expect((await call("PUT", `${path}/process`, { token: deAdmin, body: { handlingProcess: "x", opinion: "y" } })).status).toBe(404);
    expect((await call("PUT", `${path}/audit`, { token: deAdmin, body: { result: "PASS", opinion: "y" } })).status).toBe(404);
    expect((await call("POST", "/maintain-service/work-order", { token: deAdmin, body: { faultCode: "GroundFailure", serialNumber, abnormalTime: now() } })).status).toBe(400);
    for (const menus of [["home"], ["carrier.operationLog", "monitoring.loadMonitoring"]]) {
      const without = await tokenWithMenus(admin, menus);
      expect((await call("GET", "/maintain-service/work-order", { token: without })).status).toBe(403);
      expect((await call("PUT", `${path}/process`, { token: without, body: { handlingProcess: "x", opinion: "y" } })).status).toBe(403);
      expect((await call("POST", "/maintain-service/maintainer", { token: without, body: { accountId: 1 } })).status).toBe(403);
    }
    expect((await call("GET", path, { token: admin })).body.data.status).toBe("ALREADY");
  });

  it("lists orders and maintainers at page size 100 with more than 100 rows", async () => {
    const { pointId, serialNumber } = await charger();
    const operatorId = await operatorIdOf("0PL002");
    const base = Date.parse("2026-03-01T00:00:00Z");
    await insertAll(
      workOrders,
      Array.from({ length: 150 }, (_, i) => ({ operatorId, pointId, source: "MANUAL" as const, faultCode: "GroundFailure", serialNumber, abnormalTime: new Date(base + i), createdBy: "bulk", createdAt: new Date(base + i * 1000) })),
    );
    const first = await call("GET", `/maintain-service/work-order?serialNumber=${serialNumber}&size=100&current=1`, { token: admin });
    expect(first.body.data.total).toBe(150);
    expect(first.body.data.records).toHaveLength(100);
    expect(first.body.data.records[0].createdAt).toBe(new Date(base + 149_000).toISOString());
    expect((await call("GET", `/maintain-service/work-order?serialNumber=${serialNumber}&size=100&current=2`, { token: admin })).body.data.records).toHaveLength(50);
    expect((await call("GET", "/maintain-service/work-order?status=OPEN", { token: admin })).body.data.fields.status).toBe(v.status);

    const tag = `mtbulk${Date.now().toString(36)}`;
    await insertAll(
      accounts,
      Array.from({ length: 150 }, (_, i) => ({ operatorId, username: `${tag}${i}`, name: `Bulk ${tag} ${i}`, passwordHash: "x", roleId: maintainerRole })),
    );
    const made = await env.DB.prepare("SELECT id FROM accounts WHERE username LIKE ?").bind(`${tag}%`).all<{ id: number }>();
    await insertAll(
      maintainers,
      made.results.map((a) => ({ operatorId, accountId: a.id, faultCodes: ["GroundFailure"] })),
    );
    const page = await call("GET", `/maintain-service/maintainer?keyword=${tag}&size=100&current=1`, { token: admin });
    expect(page.body.data.total).toBe(150);
    expect(page.body.data.records).toHaveLength(100);
    expect((await call("GET", `/maintain-service/maintainer?keyword=${tag}&size=100&current=2`, { token: admin })).body.data.records).toHaveLength(50);
  });
});

describe("alarms and their work orders", () => {
  it("answers each alarm's work order (workOrderId) once one is opened from it", async () => {
    const { pointId } = await charger();
    const id = await alarm(pointId);
    const listed = async () => (await call("GET", `/station-service/alarm?pointId=${pointId}`, { token: admin })).body.data.records;
    expect(await listed()).toMatchObject([{ id, workOrderId: null }]);
    const order = await call("POST", "/maintain-service/work-order", { token: admin, body: { alarmId: id } });
    expect(await listed()).toMatchObject([{ id, workOrderId: order.body.data.id }]);
  });
});

describe("a maintainer's devices", () => {
  /** A maintainer whose role also opens the point, location and alarm screens, as maintenance staff's roles do. */
  async function staffMaintainer(body: Record<string, unknown>, menuCodes = ["operation.maintain", "equipment.point", "equipment.station", "monitoring.alarmRecord"]) {
    const role = await makeRole(admin, { type: "MAINTAINER", menuCodes });
    const account = await makeAccount("0PL002", admin, role.id);
    const made = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id, ...body } });
    expect(made.status).toBe(200);
    return { role, account, id: made.body.data.id as number, token: await tokenFor("0PL002", account.username, account.password) };
  }
  const idsOf = (res: { body: { data: { records: { id: number }[] } } }) => res.body.data.records.map((r) => r.id).sort((x, y) => x - y);

  it("lists only the points, stations and alarms assigned to the maintainer, and answers another point or station by id with 404", async () => {
    const [own, ofStation, foreign] = await Promise.all([charger(), charger(), charger()]);
    const { role, token } = await staffMaintainer({ faultCodes: ["GroundFailure"], pointIds: [own.pointId], stationIds: [ofStation.stationId] });
    const alarms = [await alarm(own.pointId), await alarm(ofStation.pointId), await alarm(foreign.pointId)];

    // Points: the one assigned and those of the assigned station, never another.
    expect(idsOf(await call("GET", "/station-service/point?size=100", { token }))).toEqual([own.pointId, ofStation.pointId].sort((x, y) => x - y));
    expect((await call("GET", `/station-service/point?size=100&serialNumber=${foreign.serialNumber}`, { token })).body.data.total).toBe(0);
    expect((await call("GET", `/station-service/point/${own.pointId}`, { token })).status).toBe(200);
    expect((await call("GET", `/station-service/point/${foreign.pointId}`, { token })).status).toBe(404);
    expect((await call("GET", `/station-service/point/detail/${foreign.pointId}`, { token })).status).toBe(404);
    // Stations: the one assigned and the station of the assigned point.
    expect(idsOf(await call("GET", "/station-service/station?size=100", { token }))).toEqual([own.stationId, ofStation.stationId].sort((x, y) => x - y));
    expect((await call("GET", `/station-service/station/${ofStation.stationId}`, { token })).status).toBe(200);
    expect((await call("GET", `/station-service/station/${foreign.stationId}`, { token })).status).toBe(404);
    // Alarms: those of its points only.
    expect(idsOf(await call("GET", "/station-service/alarm?size=100", { token }))).toEqual(alarms.slice(0, 2).sort((x, y) => x - y));
    // The operator's administrator still sees every one.
    expect((await call("GET", `/station-service/point/${foreign.pointId}`, { token: admin })).status).toBe(200);
    expect((await call("GET", `/station-service/alarm?size=100&pointId=${foreign.pointId}`, { token: admin })).body.data.records.map((r: { id: number }) => r.id)).toEqual([alarms[2]]);

    // An account of a MAINTAINER role never made a maintainer answers for no device at all.
    const bare = await makeAccount("0PL002", admin, role.id);
    const bareToken = await tokenFor("0PL002", bare.username, bare.password);
    expect((await call("GET", "/station-service/point?size=100", { token: bareToken })).body.data.total).toBe(0);
    expect((await call("GET", "/station-service/station?size=100", { token: bareToken })).body.data.total).toBe(0);
    expect((await call("GET", `/station-service/point/${own.pointId}`, { token: bareToken })).status).toBe(404);
  });

  it("never lets a maintainer widen its own devices: its own record's points and stations are refused (403), and it hands out only what it holds", async () => {
    const [own, ofStation, foreign] = await Promise.all([charger(), charger(), charger()]);
    const me = await staffMaintainer({ faultCodes: ["GroundFailure"], pointIds: [own.pointId], stationIds: [ofStation.stationId] });
    const mine = { accountId: me.account.id, faultCodes: ["GroundFailure"], pointIds: [own.pointId], stationIds: [ofStation.stationId] };
    const path = `/maintain-service/maintainer/${me.id}`;

    // The probe: its own record with a charger it was never given.
    const widened = await call("PUT", path, { token: me.token, body: { ...mine, pointIds: [own.pointId, foreign.pointId] } });
    expect(widened.status).toBe(403);
    expect(widened.body.msg).toBe(e.ownScope);
    expect((await call("PUT", path, { token: me.token, body: { ...mine, stationIds: [ofStation.stationId, foreign.stationId] } })).status).toBe(403);
    expect((await call("PUT", path, { token: me.token, body: { ...mine, faultCodes: ["GroundFailure", "OverVoltage"] } })).status).toBe(403);
    expect((await call("PUT", `${path}?lang=pl`, { token: me.token, body: { ...mine, pointIds: [] } })).body.msg).not.toBe(e.ownScope);
    const kept = (await call("GET", path, { token: admin })).body.data;
    expect(kept.points.map((p: { id: number }) => p.id)).toEqual([own.pointId]);
    expect(kept.stations.map((st: { id: number }) => st.id)).toEqual([ofStation.stationId]);
    expect((await call("GET", `/station-service/point/${foreign.pointId}`, { token: me.token })).status).toBe(404);
    expect((await call("GET", `/station-service/point?size=100&serialNumber=${foreign.serialNumber}`, { token: me.token })).body.data.total).toBe(0);
    // Its own details it may keep up to date.
    expect((await call("PUT", path, { token: me.token, body: { ...mine, manufacturer: "ACME" } })).body.data.manufacturer).toBe("ACME");

    // Another maintainer gets only what this one holds: its points, those of its stations, its stations.
    const other = await maintainer({ faultCodes: [] });
    const otherPath = `/maintain-service/maintainer/${other.id}`;
    const beyond = await call("PUT", otherPath, { token: me.token, body: { accountId: other.account.id, pointIds: [foreign.pointId] } });
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toBe(e.beyondOwnDevices);
    // The station of its point is one it sees, not one it holds: all its points would follow.
    expect((await call("PUT", otherPath, { token: me.token, body: { accountId: other.account.id, stationIds: [own.stationId] } })).status).toBe(403);
    const handed = await call("PUT", otherPath, { token: me.token, body: { accountId: other.account.id, pointIds: [own.pointId, ofStation.pointId], stationIds: [ofStation.stationId] } });
    expect(handed.status).toBe(200);
    // The form offers it only what it holds; the operator's administrator hands out anything.
    const choices = await maintainerChoices(await userCtx(me.token));
    expect(choices.stations.map((st) => st.id)).toEqual([ofStation.stationId]);
    expect(choices.points.map((p) => p.id).sort((x, y) => x - y)).toEqual([own.pointId, ofStation.pointId].sort((x, y) => x - y));
    expect((await call("PUT", otherPath, { token: admin, body: { accountId: other.account.id, pointIds: [foreign.pointId] } })).status).toBe(200);

    // Nobody makes themselves a maintainer either.
    const bare = await makeAccount("0PL002", admin, me.role.id);
    const bareToken = await tokenFor("0PL002", bare.username, bare.password);
    const self = await call("POST", "/maintain-service/maintainer", { token: bareToken, body: { accountId: bare.id } });
    expect(self.status).toBe(403);
    expect(self.body.msg).toBe(e.ownScope);
    expect(await row("SELECT id FROM maintainers WHERE account_id = ?", bare.id)).toBeNull();
  });

  it("lets maintenance staff add stations and points only when their role holds those screens, and makes what they add theirs", async () => {
    const own = await charger();
    const without = await staffMaintainer({ pointIds: [own.pointId] }, ["operation.maintain", "equipment.point"]);
    const station = { name: `Maint ${Date.now().toString(36)}`, address: "ul. Prosta 1, Warszawa", lat: "52.23", lng: "21.01", rank: 1, businessHours: "00:00-24:00", parkingFee: false, servicePhone: "+48 22 123 45 67", maintainer: "Serwis", description: "Car park" };
    expect((await call("POST", "/station-service/station", { token: without.token, body: station })).status).toBe(403);

    const staff = await staffMaintainer({ pointIds: [own.pointId] });
    const made = await call("POST", "/station-service/station", { token: staff.token, body: station });
    expect(made.status).toBe(200);
    const stationId = made.body.data.id as number;
    expect((await call("GET", `/station-service/station/${stationId}`, { token: staff.token })).status).toBe(200);
    expect((await call("GET", `/maintain-service/maintainer/${staff.id}`, { token: admin })).body.data.stations).toEqual([{ id: stationId, name: station.name }]);
    // A point imported into the station of its own point (which it sees, not holds) is its own point.
    const ownStation = (await call("GET", `/station-service/station/${own.stationId}`, { token: staff.token })).body.data.name as string;
    const rowOf = (stationName: string, line: number) => ({ line, stationName, name: "Imported", serialNumber: `MNT-${Date.now().toString(36)}-${line}`, pointNo: "1", type: "AC", ratedPower: 22, connectorCount: 1 });
    const foreign = await charger();
    const foreignName = (await call("GET", `/station-service/station/${foreign.stationId}`, { token: admin })).body.data.name;
    const refused = await call("POST", "/station-service/point/import", { token: staff.token, body: { rows: [rowOf(foreignName, 2)] } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.data.fields)).toEqual(["2.stationName"]);
    const imported = await call("POST", "/station-service/point/import", { token: staff.token, body: { rows: [rowOf(station.name, 2), rowOf(ownStation, 3)] } });
    expect(imported.status).toBe(200);
    const [intoNew, intoOwn] = imported.body.data.ids as number[];
    for (const id of [intoNew, intoOwn]) expect((await call("GET", `/station-service/point/${id}`, { token: staff.token })).status).toBe(200);
    const scope = (await call("GET", `/maintain-service/maintainer/${staff.id}`, { token: admin })).body.data;
    expect(scope.points.map((p: { id: number }) => p.id).sort((x: number, y: number) => x - y)).toEqual([own.pointId, intoOwn].sort((x, y) => x - y));

    // An account of a MAINTAINER role never made a maintainer adds nothing: it would never see it.
    const bare = await makeAccount("0PL002", admin, staff.role.id);
    const bareToken = await tokenFor("0PL002", bare.username, bare.password);
    const orphan = await call("POST", "/station-service/station", { token: bareToken, body: { ...station, name: `${station.name} 2` } });
    expect(orphan.status).toBe(403);
    expect(orphan.body.msg).toBe(e.notYetMaintainer);
  });
});
