import { beforeAll, describe, expect, it } from "vitest";
import { availableCharger, freshTag, landed, now, type TestCharger } from "./support/charger";
import { row } from "./support/d1";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { operatorIdOf } from "./support/driver-rows";
import { call, demoAdmins, tokenFor } from "./support/http";
import { listenLive } from "./support/live";

/**
 * Sub-operators see the devices their parent assigned to them (/SubOperator/operatorDevice), and
 * nothing else: stations, points, sessions, connectors, alarms and the live view
 * (docs/rules/tenancy.md "Sub-operators").
 */

let admin: string;
let sub: string;
let deAdmin: string;
let subOperatorId: number;

beforeAll(async () => {
  ({ admin, sub, deAdmin } = await demoAdmins());
  subOperatorId = await operatorIdOf("0PL002A");
});

const online = () => availableCharger("0PL002");

async function charge(charger: TestCharger, pointId: number, connectorId = 1) {
  const idTag = await freshTag(pointId);
  const { transactionId } = await charger.call("StartTransaction", { connectorId, idTag, meterStart: 0, timestamp: now() });
  return transactionId as number;
}

const assign = (body: unknown, token = admin) => call("PUT", `/user-service/sub-operator/${subOperatorId}/devices`, { token, body });

const ids = (res: { body: { data: { records: { id?: number; pointId?: number; transactionId?: number }[] } } }, key: "id" | "pointId" | "transactionId" = "id") =>
  res.body.data.records.map((r) => r[key]);

describe("assigning devices to a sub-operator", () => {
  it("lists the operator's sub-operators with their counts, and replaces their devices", async () => {
    const a = await online();
    const b = await online();
    const res = await assign({ stationIds: [a.stationId], pointIds: [b.pointId] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ subOperator: { id: subOperatorId, code: "0PL002A" }, stationIds: [a.stationId], pointIds: [b.pointId] });
    expect(res.body.data.points[0]).toMatchObject({ id: b.pointId, serialNumber: b.serialNumber });

    const list = await call("GET", "/user-service/sub-operator-devices", { token: admin });
    expect(list.body.data.records).toEqual([expect.objectContaining({ id: subOperatorId, code: "0PL002A", stations: 1, points: 1 })]);

    const candidates = await call("GET", `/user-service/sub-operator/${subOperatorId}/devices/candidates?kind=point&name=${b.serialNumber}`, { token: admin });
    expect(candidates.body.data.records).toEqual([expect.objectContaining({ id: b.pointId, assigned: true })]);
    const stations = await call("GET", `/user-service/sub-operator/${subOperatorId}/devices/candidates?kind=station&assigned=true`, { token: admin });
    expect(ids(stations)).toEqual([a.stationId]);

    const log = await row<{ n: number }>("SELECT COUNT(*) AS n FROM operation_logs WHERE table_name = 'sub_operator_devices'");
    expect(log!.n).toBeGreaterThanOrEqual(1);

    const cleared = await assign({ stationIds: [], pointIds: [] });
    expect(cleared.body.data).toMatchObject({ stationIds: [], pointIds: [] });
  });

  it("refuses another operator's devices (404), bad ids (400) and unknown sub-operators (404)", async () => {
    const de = await makeCharger("0DE001");
    const foreignPoint = await assign({ stationIds: [], pointIds: [de.pointId] });
    expect(foreignPoint.status).toBe(404);
    expect(foreignPoint.body.msg).toBe("No such charging point");
    const deStation = (await row<{ station_id: number }>("SELECT station_id FROM points WHERE id = ?", de.pointId))!.station_id;
    expect((await assign({ stationIds: [deStation], pointIds: [] })).status).toBe(404);

    const bad = await assign({ pointIds: ["x"] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Device numbers are positive whole numbers");
    const badPl = await call("PUT", `/user-service/sub-operator/${subOperatorId}/devices?lang=pl`, { token: admin, body: { stationIds: [-1] } });
    expect(badPl.body.msg).toBe("Numery urządzeń to dodatnie liczby całkowite");
    const kind = await call("GET", `/user-service/sub-operator/${subOperatorId}/devices/candidates?kind=plug`, { token: admin });
    expect(kind.body.msg).toBe("Choose locations or charging points");

    const deOperator = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0DE001'"))!.id;
    const notSub = await call("GET", `/user-service/sub-operator/${deOperator}/devices`, { token: admin });
    expect(notSub.status).toBe(404);
    expect(notSub.body.msg).toBe("No such sub-operator");
    // 0DE001 has no sub-operator menu at all: it is restricted to codes starting with 0PL
    // (docs/rules/access.md "Menus are permissions").
    expect((await call("GET", `/user-service/sub-operator/${subOperatorId}/devices`, { token: deAdmin })).status).toBe(403);
    expect((await call("PUT", `/user-service/sub-operator/${subOperatorId}/devices`, { token: deAdmin, body: {} })).status).toBe(403);
  });

  it("refuses the assignment API to a sub-operator and to an account without the menu (403)", async () => {
    expect((await assign({}, sub)).status).toBe(403);
    expect((await call("GET", "/user-service/sub-operator-devices", { token: sub })).status).toBe(403);
    const role = await makeRole(admin, { menuCodes: ["subOperator.account"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    const res = await call("GET", `/user-service/sub-operator/${subOperatorId}/devices`, { token });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe("Access denied");
  });
});

describe("what a sub-operator sees", () => {
  it("sees the points of an assigned station and an assigned point, and nothing else of its parent", async () => {
    const viaStation = await online();
    const direct = await online();
    const hidden = await online();
    await assign({ stationIds: [viaStation.stationId], pointIds: [direct.pointId] });

    const points = await call("GET", "/station-service/sub-operator/point?size=100", { token: sub });
    expect(points.body.msg).toBe("Operation successful");
    expect(ids(points).sort()).toEqual([viaStation.pointId, direct.pointId].sort());
    expect(points.body.data.records.find((p: any) => p.id === direct.pointId)).toMatchObject({ online: true, state: "online" });

    const stations = await call("GET", "/station-service/sub-operator/station", { token: sub });
    expect(ids(stations).sort()).toEqual([viaStation.stationId, direct.stationId].sort());
    expect(stations.body.data.records.find((s: any) => s.id === viaStation.stationId)).toMatchObject({ points: 1, onlinePoints: 1 });

    expect((await call("GET", `/station-service/sub-operator/point/${direct.pointId}`, { token: sub })).status).toBe(200);
    const hiddenPoint = await call("GET", `/station-service/sub-operator/point/${hidden.pointId}`, { token: sub });
    expect(hiddenPoint.status).toBe(404);
    expect(hiddenPoint.body.msg).toBe("No such charging point");
    expect((await call("GET", `/station-service/sub-operator/station/${hidden.stationId}`, { token: sub })).status).toBe(404);
    const detail = await call("GET", `/station-service/sub-operator/station/${viaStation.stationId}`, { token: sub });
    expect(detail.body.data.station.id).toBe(viaStation.stationId);
    expect(detail.body.data.points.records.map((p: any) => p.id)).toEqual([viaStation.pointId]);

    const piles = await call("GET", "/station-service/monitoring/chargingPile?size=100", { token: sub });
    expect(ids(piles).sort()).toEqual([viaStation.pointId, direct.pointId].sort());
    expect(piles.body.data.summary).toMatchObject({ total: 2 });

    const connectors = await call("GET", "/station-service/monitoring/connector?size=100", { token: sub });
    expect([...new Set(ids(connectors, "pointId"))].sort()).toEqual([viaStation.pointId, direct.pointId].sort());

    const shown = await charge(direct.charger, direct.pointId);
    const unseen = await charge(hidden.charger, hidden.pointId);
    const charging = await call("GET", "/station-service/monitoring/charging?size=100", { token: sub });
    expect(ids(charging, "transactionId")).toContain(shown);
    expect(ids(charging, "transactionId")).not.toContain(unseen);
    expect((await call("GET", `/station-service/monitoring/charging/${shown}`, { token: sub })).status).toBe(200);
    expect((await call("GET", `/station-service/monitoring/charging/${unseen}`, { token: sub })).status).toBe(404);

    await direct.charger.call("StatusNotification", { connectorId: 2, errorCode: "GroundFailure", status: "Faulted", timestamp: now() });
    await landed();
    await hidden.charger.call("StatusNotification", { connectorId: 2, errorCode: "GroundFailure", status: "Faulted", timestamp: now() });
    await landed();
    const alarms = await call("GET", "/station-service/alarm?size=100", { token: sub });
    expect([...new Set(ids(alarms, "pointId"))]).toEqual([direct.pointId]);
    const hiddenAlarm = (await row<{ id: number }>("SELECT id FROM alarms WHERE point_id = ?", hidden.pointId))!.id;
    expect((await call("PUT", `/station-service/alarm/${hiddenAlarm}/dispose`, { token: sub, body: { comment: "not mine" } })).status).toBe(404);
    const ownAlarm = alarms.body.data.records[0].id;
    const disposed = await call("PUT", `/station-service/alarm/${ownAlarm}/dispose`, { token: sub, body: { comment: "Checked on site" } });
    expect(disposed.body.data.status).toBe("ManualDisposed");

    expect((await call("GET", `/station-service/monitoring/load?stationId=${viaStation.stationId}`, { token: sub })).status).toBe(200);
    expect((await call("GET", `/station-service/monitoring/load?stationId=${hidden.stationId}`, { token: sub })).status).toBe(404);
    const options = await call("GET", "/station-service/monitoring/stations", { token: sub });
    expect(options.body.data.map((s: any) => s.id).sort()).toEqual([viaStation.stationId, direct.stationId].sort());

    await assign({ stationIds: [], pointIds: [] });
    expect((await call("GET", "/station-service/sub-operator/point", { token: sub })).body.data.total).toBe(0);
  });

  it("keeps the operator's own screens and the parent's equipment API closed to a sub-operator", async () => {
    expect((await call("GET", "/station-service/dashboard/home", { token: sub })).status).toBe(403);
    expect((await call("GET", "/station-service/monitoring/panel?stationId=1", { token: sub })).status).toBe(403);
    const operator = await call("GET", "/station-service/sub-operator/point", { token: admin });
    expect(operator.status).toBe(403);
  });

  it("hears on /live only the devices assigned to it", async () => {
    const mine = await online();
    const other = await online();
    await assign({ stationIds: [], pointIds: [mine.pointId] });
    const { ws, events: received } = await listenLive(sub);
    const snapshot = received[0];
    expect(snapshot.type).toBe("snapshot");
    expect(snapshot.events.every((e: any) => e.pointId === mine.pointId)).toBe(true);

    await other.charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing", timestamp: now() });
    await landed();
    await mine.charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing", timestamp: now() });
    await landed();
    await waitFor(() => received.some((e) => e.type === "connector" && e.pointId === mine.pointId && e.status === "Preparing"));
    await other.charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Preparing", timestamp: now() });
    await landed();
    await mine.charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Preparing", timestamp: now() });
    await landed();
    await waitFor(() => received.some((e) => e.type === "connector" && e.pointId === mine.pointId && e.connectorId === 2));
    expect(received.some((e) => e.pointId === other.pointId)).toBe(false);
    ws.close();
    await assign({ stationIds: [], pointIds: [] });
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
