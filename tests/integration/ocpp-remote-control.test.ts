import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeCharger } from "./support/factories";
import { boot, bootedCharger, connect, eventually, pointChanged } from "./support/charger";
import { call, tokenFor } from "./support/http";
import { listenLive } from "./support/live";
import { METER_PUSH_UNWATCHED_MS } from "../../workers/ocpp/charge-point";

const online = bootedCharger;

describe("remote control API", () => {
  it("resets a charger and answers its reply", async () => {
    const { charger, serialNumber } = await online();
    charger.answer("Reset", (payload) => {
      expect(payload).toEqual({ type: "Hard" });
      return { status: "Accepted" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/monitoring/reset/point/${serialNumber}`, { token, body: { type: "Hard" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: "Accepted" });
  });

  it("answers a refusal with 409, a clear message and the reply in data", async () => {
    const { charger, pointId } = await online();
    charger.answer("UnlockConnector", () => ({ status: "UnlockFailed" }));
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/remoteControl/unlockConnector/${pointId}`, { token, body: { connectorId: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("The charging point refused UnlockConnector: UnlockFailed");
    expect(res.body.data).toEqual({ status: "UnlockFailed" });
  });

  it("fails at once with 409 'point offline' when the charger is not connected", async () => {
    const { pointId } = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const started = Date.now();
    const res = await call("PUT", `/station-service/remoteControl/remoteStart/${pointId}`, { token, body: { connectorId: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("Point offline, unable to operate");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("answers 504 when the charger does not answer in time", async () => {
    const { serialNumber } = await online();
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("GET", `/station-service/monitoring/getLocalListVersion/${serialNumber}`, { token });
    expect(res.status).toBe(504);
    expect(res.body.msg).toBe("The charging point did not answer in time");
  });

  it("starts remotely with the operator's remote tag and a power limit, and stops", async () => {
    const { charger, pointId } = await online();
    let started: any;
    charger.answer("RemoteStartTransaction", (payload) => {
      started = payload;
      return { status: "Accepted" };
    });
    charger.answer("RemoteStopTransaction", () => ({ status: "Accepted" }));
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/remoteControl/remoteStart/${pointId}`, { token, body: { connectorId: 2, power: 7.4 } });
    expect(res.body.data).toEqual({ status: "Accepted" });
    expect(started).toMatchObject({
      connectorId: 2,
      idTag: "PLREMOTE",
      chargingProfile: { chargingProfilePurpose: "TxProfile", chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 7400 }] } },
    });
    const stop = await call("PUT", `/station-service/remoteControl/${pointId}/remoteStop/42`, { token });
    expect(stop.body.data).toEqual({ status: "Accepted" });
  });

  it("starts with the operator's remote tag as it stands, one made from its id when it has none; another operator's point is 404", async () => {
    const { charger, pointId, operatorId } = await online();
    const theirs = await makeCharger("0DE001");
    const remoteTag = (tag: string | null) => env.DB.prepare("UPDATE parameter_settings SET remote_id_tag = ? WHERE operator_id = ?").bind(tag, operatorId).run();
    const tags: string[] = [];
    charger.answer("RemoteStartTransaction", (payload) => {
      tags.push(payload.idTag);
      return { status: "Accepted" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const start = (id: number) => call("PUT", `/station-service/remoteControl/remoteStart/${id}`, { token, body: { connectorId: 1 } });
    try {
      await remoteTag("NEWREMOTE");
      expect((await start(pointId)).status).toBe(200);
      await remoteTag(null);
      expect((await start(pointId)).status).toBe(200);
      expect(tags).toEqual(["NEWREMOTE", `REMOTE${operatorId}`]);
    } finally {
      await remoteTag("PLREMOTE");
    }
    const refused = await start(theirs.pointId);
    expect(refused.status).toBe(404);
    expect(refused.body.msg).toBe("No such charging point");
  });

  it("refuses a remote start on a disabled point", async () => {
    const made = await makeCharger("0PL002", { enabled: false });
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/remoteControl/remoteStart/${made.pointId}`, { token, body: { connectorId: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("This charging point is disabled");
  });

  it("sends any server action through /command, checking the payload first", async () => {
    const { charger, pointId } = await online();
    charger.answer("GetConfiguration", () => ({ configurationKey: [{ key: "HeartbeatInterval", readonly: false, value: "300" }] }));
    const token = await tokenFor("0PL002", "demoadmin");
    const ok = await call("POST", `/station-service/point/${pointId}/command`, { token, body: { action: "GetConfiguration", payload: {} } });
    expect(ok.body.data.configurationKey[0].key).toBe("HeartbeatInterval");
    const bad = await call("POST", `/station-service/point/${pointId}/command`, { token, body: { action: "Reset", payload: { type: "Sideways" } } });
    expect(bad.status).toBe(400);
    const unknown = await call("POST", `/station-service/point/${pointId}/command`, { token, body: { action: "Heartbeat", payload: {} } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fields.action).toBe("Unknown OCPP action");
  });

  it("triggers StatusNotification and BootNotification, validating requestedMessage", async () => {
    const { charger, serialNumber } = await online();
    charger.answer("TriggerMessage", () => ({ status: "Accepted" }));
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/monitoring/point/triggerMessage/${serialNumber}`, { token, body: { requestedMessage: "StatusNotification", connectorId: 1 } });
    expect(res.body.data).toEqual({ status: "Accepted" });
    const bad = await call("PUT", `/station-service/monitoring/point/triggerMessage/${serialNumber}?lang=de`, { token, body: { requestedMessage: "Everything" } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields.requestedMessage).toBe("Unbekannte angeforderte Nachricht");
  });

  it("answers another operator's charger with 404", async () => {
    const { serialNumber, pointId } = await online();
    const de = await tokenFor("0DE001", "deadmin1");
    expect((await call("PUT", `/station-service/monitoring/reset/point/${serialNumber}`, { token: de, body: { type: "Soft" } })).status).toBe(404);
    expect((await call("GET", `/station-service/point/${pointId}`, { token: de })).status).toBe(404);
    expect((await call("GET", `/station-service/point/${serialNumber}/ocpp/operationLog`, { token: de })).status).toBe(404);
  });

  it("checks the origin of cookie-authenticated GETs that command a charger", async () => {
    const { serialNumber } = await online();
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("GET", `/station-service/monitoring/getLocalListVersion/${serialNumber}`, {
      headers: { Cookie: `plugdesk_session=${token}`, Origin: "https://elsewhere.example" },
    });
    expect(res.status).toBe(403);
  });
});

describe("a charger not accepted at boot (OCPP 1.6 §4.2)", () => {
  it("gets no remote stop or start, refused with the 'disabled' message, until a boot is Accepted", async () => {
    const made = await makeCharger("0PL002", { enabled: false });
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    expect(await boot(charger)).toMatchObject({ status: "Pending" });
    const sent: string[] = [];
    charger.answer("RemoteStartTransaction", () => {
      sent.push("RemoteStartTransaction");
      return { status: "Accepted" };
    });
    charger.answer("RemoteStopTransaction", () => {
      sent.push("RemoteStopTransaction");
      return { status: "Accepted" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const stop = await call("PUT", `/station-service/remoteControl/${made.pointId}/remoteStop/42`, { token });
    expect(stop.status).toBe(409);
    expect(stop.body.msg).toBe("This charging point is disabled");

    // Enabled meanwhile, but the charger has not booted again: still not in service.
    await env.DB.prepare("UPDATE points SET status = 'VALID' WHERE id = ?").bind(made.pointId).run();
    await pointChanged(made.operatorId, made.serialNumber);
    const start = await call("PUT", `/station-service/remoteControl/remoteStart/${made.pointId}`, { token, body: { connectorId: 1 } });
    expect(start.status).toBe(409);
    expect(start.body.msg).toBe("This charging point is disabled");
    expect(sent).toEqual([]);

    expect(await boot(charger)).toMatchObject({ status: "Accepted" });
    const accepted = await call("PUT", `/station-service/remoteControl/remoteStart/${made.pointId}`, { token, body: { connectorId: 1 } });
    expect(accepted.body.data).toEqual({ status: "Accepted" });
    expect(sent).toEqual(["RemoteStartTransaction"]);
  });
});

describe("points and the OCPP log", () => {
  it("pages points filtered by serial number, with connectors, and a point's detail", async () => {
    const { serialNumber, pointId } = await online();
    const token = await tokenFor("0PL002", "demoadmin");
    const list = await eventually(
      () => call("GET", `/station-service/point?serialNumber=${serialNumber}`, { token }),
      (res) => res.body.data.records[0]?.online === true,
    );
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0]).toMatchObject({ id: pointId, serialNumber, online: true, connectors: [{ connectorId: 1 }, { connectorId: 2 }] });
    expect((await call("GET", `/station-service/point/detail/${pointId}`, { token })).body.data.serialNumber).toBe(serialNumber);
    const demo = await call("GET", "/station-service/point?serialNumber=PL002-CP", { token });
    expect(demo.body.data.records.map((p: { serialNumber: string }) => p.serialNumber)).toEqual(["PL002-CP01", "PL002-CP02", "PL002-CP03"]);
    const de = await tokenFor("0DE001", "deadmin1");
    expect((await call("GET", "/station-service/point?serialNumber=PL002", { token: de })).body.data.total).toBe(0);
  });

  it("refuses an unknown filter value instead of reading it as a default", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("GET", "/station-service/point?type=HYDROGEN", { token });
    expect(res.status).toBe(400);
    expect(res.body.data.fields.type).toBe("Unknown point type");
  });

  it("pages every frame in and out, newest first", async () => {
    const { charger, serialNumber } = await online();
    await charger.call("Heartbeat", {});
    const token = await tokenFor("0PL002", "demoadmin");
    const log = await call("GET", `/station-service/point/${serialNumber}/ocpp/operationLog?current=1&size=10`, { token });
    expect(log.body.data.total).toBeGreaterThanOrEqual(4);
    const [newest] = log.body.data.records;
    expect(newest).toMatchObject({ action: "Heartbeat", type: "CALLRESULT", sender: "SERVER" });
    expect(JSON.parse(newest.message)[0]).toBe(3);
  });

  it("rotates a charger key: shown once, the old key stops working", async () => {
    const { serialNumber, key, pointId } = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", `/station-service/point/${pointId}/key`, { token, body: {} });
    expect(res.body.data.key).toMatch(/^[0-9a-f]{40}$/);
    expect((await connect(serialNumber, { key })).status).toBe(401);
    const fresh = await connect(serialNumber, { key: res.body.data.key });
    expect(fresh.status).toBe(101);
    fresh.charger!.close();
    const detail = await call("GET", `/station-service/point/${pointId}`, { token });
    expect(detail.body.data.hasKey).toBe(true);
    expect(JSON.stringify(detail.body.data)).not.toContain(res.body.data.key);
  });
});

describe("live view", () => {
  it("sends an operator its own chargers' events and another operator nothing", async () => {
    const pl = await listenLive(await tokenFor("0PL002", "demoadmin"));
    const de = await listenLive(await tokenFor("0DE001", "deadmin1"));
    const { charger, serialNumber } = await online();
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing" });
    const deadline = Date.now() + 3000;
    while (!pl.events.some((e) => e.type === "connector" && e.serialNumber === serialNumber) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(pl.events[0].type).toBe("snapshot");
    expect(pl.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: "connector", serialNumber, status: "Preparing" })]));
    expect(pl.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: "point", serialNumber, online: true })]));
    expect(de.events.filter((e) => e.type !== "snapshot" && e.serialNumber === serialNumber)).toEqual([]);
    pl.ws.close();
    de.ws.close();
  });

  it("shows no power, current, voltage or SoC after the session stops, also to a page opened later", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const watching = await listenLive(token);
    const { charger, serialNumber } = await online();
    const heard = async (match: (e: any) => boolean, events = watching.events) => {
      const deadline = Date.now() + 3000;
      while (!events.some(match) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return events.find(match);
    };
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging" });
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 1000, timestamp: new Date().toISOString() });
    await charger.call("MeterValues", {
      connectorId: 1,
      transactionId,
      meterValue: [
        {
          timestamp: new Date().toISOString(),
          sampledValue: [
            { value: "12.5", unit: "kWh" },
            { value: "59480", measurand: "Power.Active.Import", unit: "W" },
            { value: "148.7", measurand: "Current.Import", unit: "A" },
            { value: "400", measurand: "Voltage", unit: "V" },
            { value: "20", measurand: "SoC", unit: "Percent" },
          ],
        },
      ],
    });
    expect(await heard((e) => e.type === "meter" && e.serialNumber === serialNumber)).toMatchObject({ powerW: 59480, currentA: 148.7, voltageV: 400, soc: 20 });
    // Readings are pushed about once a second: this one still waits when the stop comes, and goes out before it.
    await charger.call("MeterValues", {
      connectorId: 1,
      transactionId,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: "12.6", unit: "kWh" }, { value: "59000", measurand: "Power.Active.Import", unit: "W" }] }],
    });
    await charger.call("StopTransaction", { transactionId, meterStop: 12600, timestamp: new Date().toISOString() });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Finishing" });
    await heard((e) => e.type === "connector" && e.serialNumber === serialNumber && e.status === "Finishing");
    const ours = watching.events.filter((e) => e.serialNumber === serialNumber);
    const lastReading = ours.findIndex((e) => e.type === "meter" && e.energyWh === 12600);
    expect(lastReading).toBeGreaterThan(-1);
    expect(lastReading).toBeLessThan(ours.findIndex((e) => e.type === "transaction" && e.phase === "stop"));

    const later = await listenLive(token);
    const snapshot = await heard((e) => e.type === "snapshot", later.events);
    const meter = snapshot.events.find((e: any) => e.type === "meter" && e.serialNumber === serialNumber && e.connectorId === 1);
    expect(meter).toMatchObject({ energyWh: 12600 });
    for (const reading of ["powerW", "currentA", "voltageV", "soc"]) expect(meter).not.toHaveProperty(reading);
    watching.ws.close();
    later.ws.close();
  });

  it("sends a charger's readings every ten seconds while no page listens, and at once to a page opened meanwhile", async () => {
    const { charger, serialNumber } = await online();
    const reading = (kWh: string) =>
      charger.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: kWh, unit: "kWh" }] }] });
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 0, timestamp: new Date().toISOString() });
    // Nobody listens: the first reading goes at once and the hub's receipt says so.
    await reading("1");
    await new Promise((r) => setTimeout(r, 1500));
    // Past the watched pace of a second, still within the unwatched one: this one is held back.
    await reading("2");
    await new Promise((r) => setTimeout(r, 500));
    const page = await listenLive(await tokenFor("0PL002", "demoadmin"));
    const mine = () => page.events.filter((e) => e.type === "meter" && e.serialNumber === serialNumber);
    const snapshot = page.events[0].events.find((e: any) => e.type === "meter" && e.serialNumber === serialNumber);
    expect(snapshot).toMatchObject({ energyWh: 1000 });
    // The held-back reading arrives when its pace allows (nothing is lost); its receipt tells the
    // charger a page listens, so the next reading comes at the second's pace.
    expect((await eventually(async () => mine(), (events) => events.length > 0, METER_PUSH_UNWATCHED_MS + 3000))[0]).toMatchObject({ energyWh: 2000 });
    await new Promise((r) => setTimeout(r, 1100));
    await reading("3");
    expect((await eventually(async () => mine(), (events) => events.length > 1, METER_PUSH_UNWATCHED_MS / 2))[1]).toMatchObject({ energyWh: 3000 });
    page.ws.close();
  });

  it("lets a reading held back ride with the charger's next event, ahead of it", async () => {
    const { charger, serialNumber } = await online();
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 0, timestamp: new Date().toISOString() });
    const reading = (kWh: string) =>
      charger.call("MeterValues", { connectorId: 1, transactionId, meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: kWh, unit: "kWh" }] }] });
    // Nobody listens: the first reading goes at once, and the hub's receipt says so.
    await reading("1");
    await new Promise((r) => setTimeout(r, 300));
    const page = await listenLive(await tokenFor("0PL002", "demoadmin"));
    // The charger learns of the page only from its next push's receipt: this one waits for the unwatched pace…
    await reading("2");
    // …and a status change, pushed at once, takes it along, ahead of itself.
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging" });
    const mine = () => page.events.filter((e) => (e.type === "meter" || e.type === "connector") && e.serialNumber === serialNumber);
    const events = await eventually(async () => mine(), (events) => events.some((e) => e.type === "connector"), METER_PUSH_UNWATCHED_MS / 2);
    expect(events.map((e) => [e.type, e.energyWh ?? e.status])).toEqual([
      ["meter", 2000],
      ["connector", "Charging"],
    ]);
    page.ws.close();
  });

  it("refuses /live without a session", async () => {
    const res = await SELF.fetch("http://localhost/live", { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(401);
  });
});
