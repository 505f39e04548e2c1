import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Registration } from "../../workers/ocpp/registration";
import { chargePointName } from "../../workers/ocpp/identity";
import { boot, connect } from "./support/charger";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";

/**
 * A point's OCPP version through the API (docs/rules/equipment.md "Points"): `ocppVersion` is the
 * setting (AUTO, OCPP16, OCPP201), `connectedVersion` the version of its charger's connection
 * while it is online, else null.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${++counter}`;

async function enabledStation(token: string) {
  const res = await call<{ id: number; status: string }[]>("GET", "/station-service/point/stations", { token });
  return res.body.data.find((s) => s.status === "VALID")!;
}

const pointBody = (stationId: number, overrides: Record<string, unknown> = {}) => ({
  stationId,
  name: "Version charger",
  serialNumber: unique("OV-"),
  pointNo: "01",
  type: "AC",
  ratedPower: 22,
  connectorCount: 2,
  ...overrides,
});

async function created(token: string, body: Record<string, unknown>) {
  const res = await call("POST", "/station-service/point", { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; serialNumber: string; ocppVersion: string; connectedVersion: string | null } & Record<string, unknown>;
}

/** The body of an edit: the point as it is, with these changes. */
async function editBody(token: string, id: number, changes: Record<string, unknown>) {
  const p = (await call("GET", `/station-service/point/detail/${id}`, { token })).body.data;
  return {
    stationId: p.stationId,
    name: p.name,
    serialNumber: p.serialNumber,
    pointNo: p.pointNo,
    type: p.type,
    ratedPower: p.ratedPower,
    connectorCount: p.connectorCount,
    privateType: p.privateType,
    ...changes,
  };
}

/** What the charger's Durable Object keeps of the point's registration (nothing once told to forget it). */
const keptRegistration = (operatorId: number, serialNumber: string) =>
  runInDurableObject(env.CHARGE_POINT.getByName(chargePointName(operatorId, serialNumber)), (instance) =>
    (instance as unknown as { registration: { get(): Registration | undefined } }).registration.get(),
  );

describe("a point's OCPP version in the API", () => {
  it("creates a point as AUTO by default, or OCPP16 or OCPP201 when asked", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    expect((await created(token, pointBody(station.id))).ocppVersion).toBe("AUTO");
    for (const version of ["AUTO", "OCPP16", "OCPP201"]) {
      const point = await created(token, pointBody(station.id, { ocppVersion: version }));
      expect(point).toMatchObject({ ocppVersion: version, connectedVersion: null });
      const row = await env.DB.prepare("SELECT ocpp_version AS v FROM points WHERE id = ?").bind(point.id).first<{ v: string }>();
      expect(row!.v).toBe(version);
    }
  });

  it("refuses an unknown OCPP version with a message in the caller's language, and creates nothing", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    for (const version of ["2.0.1", "ocpp201", 16]) {
      const body = pointBody(station.id, { ocppVersion: version });
      const en = await call("POST", "/station-service/point", { token, body });
      expect(en.status, String(version)).toBe(400);
      expect(en.body.data.fields.ocppVersion).toBe("OCPP version must be AUTO, OCPP16 or OCPP201");
      const pl = await call("POST", "/station-service/point?lang=pl", { token, body });
      expect(pl.body.data.fields.ocppVersion).toBe("Wersja OCPP musi być AUTO, OCPP16 lub OCPP201");
      expect((await call("GET", `/station-service/point?serialNumber=${body.serialNumber}`, { token })).body.data.total).toBe(0);
    }
    const point = await created(token, pointBody(station.id));
    const edit = await call("PUT", `/station-service/point/${point.id}`, { token, body: await editBody(token, point.id, { ocppVersion: "OCPP20" }) });
    expect(edit.status).toBe(400);
    expect(edit.body.data.fields.ocppVersion).toBe("OCPP version must be AUTO, OCPP16 or OCPP201");
  });

  it("changes the version on edit, keeps it when an edit leaves it out, and logs the change", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await created(token, pointBody(station.id, { ocppVersion: "OCPP16" }));

    const changed = await call("PUT", `/station-service/point/${point.id}`, { token, body: await editBody(token, point.id, { ocppVersion: "OCPP201" }) });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.ocppVersion).toBe("OCPP201");
    const audit = await env.DB.prepare(
      "SELECT old_data AS oldData, new_data AS newData FROM operation_logs WHERE table_name = 'points' AND operation_type = 'UPDATE' AND new_data LIKE ? ORDER BY id DESC LIMIT 1",
    )
      .bind(`%"id":${point.id},%`)
      .first<{ oldData: string; newData: string }>();
    expect(JSON.parse(audit!.oldData)).toMatchObject({ ocppVersion: "OCPP16" });
    expect(JSON.parse(audit!.newData)).toMatchObject({ ocppVersion: "OCPP201" });

    const renamed = await call("PUT", `/station-service/point/${point.id}`, { token, body: await editBody(token, point.id, { name: "Renamed", ocppVersion: undefined }) });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "Renamed", ocppVersion: "OCPP201" });
  });

  it("lets an enabled point change its version: it chooses the wire, not the equipment", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const made = await makeCharger("0PL002");
    const res = await call("PUT", `/station-service/point/${made.pointId}`, { token, body: await editBody(token, made.pointId, { ocppVersion: "OCPP16" }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "VALID", ocppVersion: "OCPP16" });
  });

  it("carries ocppVersion and connectedVersion on the list, the detail and the monitoring lists; connectedVersion is null offline", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await created(token, pointBody(station.id, { ocppVersion: "OCPP201" }));
    const expected = { id: point.id, online: false, ocppVersion: "OCPP201", connectedVersion: null };

    const list = await call("GET", `/station-service/point?serialNumber=${point.serialNumber}`, { token });
    expect(list.body.data.records).toEqual([expect.objectContaining(expected)]);
    expect((await call("GET", `/station-service/point/detail/${point.id}`, { token })).body.data).toMatchObject(expected);
    const monitored = await call("GET", `/station-service/monitoring/point?serialNumber=${point.serialNumber}`, { token });
    expect(monitored.body.data.records).toEqual([expect.objectContaining(expected)]);
    const piles = await call("GET", `/station-service/monitoring/chargingPile?serialNumber=${point.serialNumber}`, { token });
    expect(piles.body.data.records).toEqual([expect.objectContaining(expected)]);

    // A version the charger's object wrote while connected shows only while the point is online.
    await env.DB.prepare("UPDATE points SET connected_version = '2.0.1' WHERE id = ?").bind(point.id).run();
    expect((await call("GET", `/station-service/point/detail/${point.id}`, { token })).body.data.connectedVersion).toBeNull();
    await env.DB.prepare("UPDATE points SET online = 1 WHERE id = ?").bind(point.id).run();
    expect((await call("GET", `/station-service/point/detail/${point.id}`, { token })).body.data).toMatchObject({ online: true, connectedVersion: "2.0.1" });
    const panel = await call("GET", `/station-service/monitoring/panel?stationId=${station.id}&size=100`, { token });
    expect(panel.body.data.records.find((p: { id: number }) => p.id === point.id)).toMatchObject({ ocppVersion: "OCPP201", connectedVersion: "2.0.1" });
    await env.DB.prepare("UPDATE points SET online = 0, connected_version = NULL WHERE id = ?").bind(point.id).run();
  });

  it("makes the charger's object forget its kept registration when the version changes, and only then", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    expect(await keptRegistration(made.operatorId, made.serialNumber)).toMatchObject({ pointId: made.pointId });

    const same = await call("PUT", `/station-service/point/${made.pointId}`, { token, body: await editBody(token, made.pointId, { name: "Same version" }) });
    expect(same.status).toBe(200);
    expect(await keptRegistration(made.operatorId, made.serialNumber)).toMatchObject({ pointId: made.pointId });

    const changed = await call("PUT", `/station-service/point/${made.pointId}`, { token, body: await editBody(token, made.pointId, { ocppVersion: "OCPP201" }) });
    expect(changed.status).toBe(200);
    expect(await keptRegistration(made.operatorId, made.serialNumber)).toBeUndefined();
    charger.close();
  });

  it("answers another operator's point as not found, whatever the version asked", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const station = await enabledStation(pl);
    const point = await created(pl, pointBody(station.id));
    const res = await call("PUT", `/station-service/point/${point.id}`, { token: de, body: await editBody(pl, point.id, { ocppVersion: "OCPP201" }) });
    expect(res.status).toBe(404);
    expect((await call("GET", `/station-service/point/detail/${point.id}`, { token: pl })).body.data.ocppVersion).toBe("AUTO");
  });
});
