import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chargePointName } from "../../workers/ocpp/identity";
import type { ChangeWriter } from "../../workers/ocpp/change-writer";
import type { ChargerOutbox } from "../../workers/ocpp/outbox";
import { makeCharger } from "./support/factories";
import { boot, connect, eventually, landed } from "./support/charger";
import { call, tokenFor } from "./support/http";
import { listenLive } from "./support/live";
import { allowConsoleError } from "../support/console-guard";

/**
 * The hot path answers from the charger's own state and hands boot, statuses and the online flag
 * to D1 in batches (docs/rules/ocpp.md "Hot path"); the key hash is kept by the charger's object
 * (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
const pointRow = (id: number) =>
  env.DB.prepare("SELECT online, vendor, model, firmware_version FROM points WHERE id = ?")
    .bind(id)
    .first<{ online: number; vendor: string | null; model: string | null; firmware_version: string | null }>();
const connectorRows = (id: number) =>
  env.DB.prepare("SELECT connector_no, status, error_code FROM connectors WHERE point_id = ? ORDER BY connector_no")
    .bind(id)
    .all<{ connector_no: number; status: string | null; error_code: string | null }>()
    .then((r) => r.results);

describe("changes handed to D1 in batches", () => {
  it("lands the online flag, the boot's facts and the last of a burst of statuses, in order", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await charger.call("BootNotification", { chargePointVendor: "Burst", chargePointModel: "B1", firmwareVersion: "9.9" });
    // A burst: each connector goes through several statuses; only their order decides what D1 keeps.
    const sequence = ["Preparing", "Charging", "SuspendedEV", "Finishing", "Available", "Preparing", "Unavailable"];
    for (const status of sequence) {
      await Promise.all([1, 2].map((connectorId) => charger.call("StatusNotification", { connectorId, errorCode: "NoError", status })));
    }
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "HighTemperature", status: "Faulted" });
    const landed = await eventually(
      () => Promise.all([pointRow(made.pointId), connectorRows(made.pointId)]),
      ([point, connectors]) => point?.vendor === "Burst" && connectors[1]?.status === "Faulted" && connectors[0]?.status === "Unavailable",
    );
    expect(landed[0]).toEqual({ online: 1, vendor: "Burst", model: "B1", firmware_version: "9.9" });
    expect(landed[1]).toEqual([
      { connector_no: 1, status: "Unavailable", error_code: "NoError" },
      { connector_no: 2, status: "Faulted", error_code: "HighTemperature" },
    ]);
    const alarm = await env.DB.prepare("SELECT type, status FROM alarms WHERE point_id = ?").bind(made.pointId).first();
    expect(alarm).toEqual({ type: "HighTemperature", status: "Undisposed" });
  });

  it("never lands a status before the stop that preceded it", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing" });
    const { transactionId } = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: new Date().toISOString() });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging" });
    await charger.call("StopTransaction", { transactionId, meterStop: 100, timestamp: new Date().toISOString() });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available" });
    await eventually(
      () => connectorRows(made.pointId),
      (rows) => rows[0]?.status === "Available",
    );
    // Had Available landed before the stop, the session would have been marked ABNORMAL.
    expect(await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(transactionId).first()).toEqual({ status: "COMPLETED" });
    // The stop queued the session's billing; it lands here, not in the next test, whose eviction of
    // every object (D1's too) would abort it halfway.
    await eventually(
      () => env.DB.prepare("SELECT billed_at FROM transactions WHERE id = ?").bind(transactionId).first<{ billed_at: string | null }>(),
      (row) => row?.billed_at != null,
    );
  });

  it("answers a CALL whose handler writes D1 with an InternalError while D1 refuses the changes queued before it", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    await landed();
    const stub = env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber));
    // A change D1 refuses (a point's online flag may not be null) waits in the outbox.
    await runInDurableObject(stub, (instance) => {
      (instance as unknown as { outbox: ChargerOutbox }).outbox.add({ kind: "online", online: null as unknown as boolean, at: Date.now() });
    });
    allowConsoleError(/ocpp changes to D1 before a handler.*NOT NULL constraint failed: points\.online/);
    // Authorize would write D1 itself: it must not overtake the change, and it is answered.
    await expect(charger.call("Authorize", { idTag: "DEMO0001" })).rejects.toMatchObject({ code: "InternalError" });
    // A Heartbeat is answered from the charger's own state meanwhile.
    expect(await charger.call("Heartbeat", {})).toHaveProperty("currentTime");
    await runInDurableObject(stub, (instance, state) => {
      const { outbox } = instance as unknown as { outbox: ChargerOutbox };
      expect(outbox.pending()).toBe(true);
      expect(state.storage.sql.exec("SELECT change FROM outbox ORDER BY id DESC LIMIT 1").one().change).toContain('"online":null');
      state.storage.sql.exec("DELETE FROM outbox");
    });
  });

  it("loses nothing when the object is evicted with a batch still waiting: the alarm sends it", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await charger.call("BootNotification", { chargePointVendor: "Evicted", chargePointModel: "E1" });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging" });
    await charger.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Preparing" });
    // Memory, timers and sockets are gone before the batch left; what waited was in storage.
    // The eviction may cut a change batch on its way to D1, which reports it (and sends it again).
    allowConsoleError(/Application called abortAllDurableObjects/);
    await abortAllDurableObjects();
    const stub = env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber));
    await runDurableObjectAlarm(stub);
    expect(await pointRow(made.pointId)).toMatchObject({ vendor: "Evicted", model: "E1" });
    expect(await connectorRows(made.pointId)).toEqual([
      { connector_no: 1, status: "Charging", error_code: "NoError" },
      { connector_no: 2, status: "Preparing", error_code: "NoError" },
    ]);
  });
});

describe("the key hash kept by the charger's object", () => {
  it("refuses a rotated key at once, though the object had it in hand", async () => {
    const made = await makeCharger("0PL002");
    const first = await connect(made.serialNumber, { key: made.key });
    expect(first.status).toBe(101);
    first.charger!.close();
    const token = await tokenFor("0PL002", "demoadmin");
    const rotated = await call<{ key: string }>("POST", `/station-service/point/${made.pointId}/key`, { token, body: {} });
    expect(rotated.status).toBe(200);
    expect((await connect(made.serialNumber, { key: made.key })).status).toBe(401);
    const again = await connect(made.serialNumber, { key: rotated.body.data.key });
    expect(again.status).toBe(101);
    again.charger!.close();
  });

  it("answers a boot Pending as soon as the point is disabled through the API", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    charger.answer("ChangeAvailability", () => ({ status: "Accepted" }));
    expect(await boot(charger)).toMatchObject({ status: "Accepted" });
    const token = await tokenFor("0PL002", "demoadmin");
    expect((await call("PUT", `/station-service/point/${made.pointId}/valid`, { token, body: { status: "INVALID" } })).status).toBe(200);
    expect(await boot(charger)).toMatchObject({ status: "Pending" });
  });
});

describe("the changes of many chargers in shared D1 batches", () => {
  const identityOf = (made: Awaited<ReturnType<typeof makeCharger>>) => ({
    pointId: made.pointId,
    operatorId: made.operatorId,
    operatorCode: "0PL002",
    serialNumber: made.serialNumber,
    enabled: true,
  });
  const status = (connectorId: number, value: string, errorCode = "NoError") => ({
    kind: "status" as const,
    status: { connectorId, status: value, errorCode, at: Date.now() },
  });

  it("lands the changes of chargers that arrive together in a few D1 batches, each charger's own alarms answered to it", async () => {
    const { d1Use } = await import("../../db/client");
    const { changeWriterName } = await import("../../workers/ocpp/change-writer");
    const made = await Promise.all(Array.from({ length: 24 }, () => makeCharger("0PL002")));
    const writer = env.CHANGE_WRITER.getByName(changeWriterName(made[0].operatorId));
    const before = d1Use.batches;
    const raised = await Promise.all(
      made.map((m, i) => writer.apply(identityOf(m), [status(1, "Charging"), i % 2 ? status(2, "Faulted", "GroundFailure") : status(2, "Available")])),
    );
    // Alone, each charger's batch is a read and a write batch: 48 D1 batches.
    expect(d1Use.batches - before).toBeLessThan(made.length);
    for (const [i, m] of made.entries()) {
      expect(await connectorRows(m.pointId)).toEqual([
        { connector_no: 1, status: "Charging", error_code: "NoError" },
        { connector_no: 2, status: i % 2 ? "Faulted" : "Available", error_code: i % 2 ? "GroundFailure" : "NoError" },
      ]);
      expect(raised[i].map((a) => a.type)).toEqual(i % 2 ? ["GroundFailure"] : []);
    }
  });

  it("lets a batch that comes right after another wait for the ones behind it, instead of going to D1 alone", async () => {
    const { d1Use } = await import("../../db/client");
    const { changeWriterName } = await import("../../workers/ocpp/change-writer");
    const made = await Promise.all(Array.from({ length: 4 }, () => makeCharger("0PL002")));
    const writer = env.CHANGE_WRITER.getByName(changeWriterName(made[0].operatorId));
    const batches = await runInDurableObject(writer, async (instance: ChangeWriter) => {
      await instance.apply(identityOf(made[0]), [status(1, "Preparing")]);
      // Right after a landing, three arrive one after another: the first no longer goes alone (a
      // read and a write batch of its own) with the other two in a second batch behind it.
      const before = d1Use.batches;
      await Promise.all(made.slice(1).map((m) => instance.apply(identityOf(m), [status(1, "Charging")])));
      return d1Use.batches - before;
    });
    expect(batches).toBe(2);
    for (const m of made.slice(1)) expect((await connectorRows(m.pointId))[0]).toMatchObject({ status: "Charging" });
  });

  it("tells the live view of a status once D1 has it, and of every charger's status in a shared batch", async () => {
    const { changeWriterName } = await import("../../workers/ocpp/change-writer");
    const page = await listenLive(await tokenFor("0PL002", "demoadmin"));
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    // What D1 says at the moment the page hears the status (decision 0111: the writer tells the hub after landing).
    const inD1WhenHeard: Promise<string | null | undefined>[] = [];
    page.ws.addEventListener("message", ({ data }) => {
      const event = typeof data === "string" && data !== "pong" ? JSON.parse(data) : null;
      if (event?.type === "connector" && event.pointId === made.pointId && event.status === "Faulted") {
        inD1WhenHeard.push(connectorRows(made.pointId).then((rows) => rows[0]?.status));
      }
    });
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "GroundFailure", status: "Faulted" });
    await eventually(async () => inD1WhenHeard.length, (heard) => heard > 0);
    expect(await inD1WhenHeard[0]).toBe("Faulted");

    const others = await Promise.all(Array.from({ length: 12 }, () => makeCharger("0PL002")));
    const writer = env.CHANGE_WRITER.getByName(changeWriterName(made.operatorId));
    await Promise.all(others.map((m, i) => writer.apply(identityOf(m), [status(1, "Preparing"), status(1, i % 2 ? "Charging" : "SuspendedEV")])));
    const heard = (m: (typeof others)[number]) => page.events.filter((e) => e.type === "connector" && e.pointId === m.pointId).map((e) => e.status);
    await eventually(async () => others.map(heard), (all) => all.every((statuses) => statuses.length === 2));
    for (const [i, m] of others.entries()) expect(heard(m)).toEqual(["Preparing", i % 2 ? "Charging" : "SuspendedEV"]);
    page.ws.close();
  });

  it("lets one charger's failing change hold up no other charger of the batch", async () => {
    const { changeWriterName } = await import("../../workers/ocpp/change-writer");
    const [first, good, bad] = await Promise.all([makeCharger("0PL002"), makeCharger("0PL002"), makeCharger("0PL002")]);
    const writer = env.CHANGE_WRITER.getByName(changeWriterName(good.operatorId));
    // A point's online flag may not be null: this change fails in D1.
    const broken = { kind: "online" as const, online: null as unknown as boolean, at: Date.now() };
    // In one turn inside the writer: the first goes to D1 alone, the other two wait for it and
    // then share one batch, whatever the machine's speed (three separate requests shared one only
    // when D1 was slow). The batch fails, and is tried again charger by charger.
    allowConsoleError(/ocpp changes to D1, retried per charger.*NOT NULL constraint failed: points\.online/);
    const outcomes = await runInDurableObject(writer, async (instance: ChangeWriter) =>
      (
        await Promise.allSettled([
          instance.apply(identityOf(first), [status(1, "Preparing")]),
          instance.apply(identityOf(good), [status(1, "Charging")]),
          instance.apply(identityOf(bad), [broken]),
        ])
      ).map((o) => o.status),
    );
    expect(outcomes).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect((await connectorRows(good.pointId))[0]).toMatchObject({ status: "Charging" });
  });
});

describe("a Heartbeat writes nothing", () => {
  it("parks a Heartbeat's frames with its socket instead of writing them, and logs them once after a hibernation", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    for (let i = 0; i < 2; i++) await charger.call("Heartbeat", {});
    const stub = env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber));
    await runInDurableObject(stub, (instance, state) => {
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM ocpp_log WHERE action = 'Heartbeat'").one().n).toBe(0);
      const [ws] = state.getWebSockets();
      // The boot's two frames are parked too: a boot writes its state and its change, not the log.
      expect((ws.deserializeAttachment() as { log: { action: string }[] }).log.map((f) => f.action)).toEqual([...Array(2).fill("BootNotification"), ...Array(4).fill("Heartbeat")]);
      // What a hibernation leaves: the attachment, not the memory.
      const awake = instance as unknown as { seen: WeakMap<WebSocket, unknown>; hot: { log: unknown[]; logBytes: number }; parkedOn: Set<WebSocket> };
      awake.seen.delete(ws);
      awake.hot.log = [];
      awake.hot.logBytes = 0;
      awake.parkedOn.clear();
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const heartbeats = async () =>
      (await call("GET", `/station-service/point/${made.serialNumber}/ocpp/operationLog?current=1&size=100&action=Heartbeat`, { token })).body.data.records;
    expect(await heartbeats()).toHaveLength(4);
    // Written once: the socket let go of them, and reading again adds none.
    expect(await heartbeats()).toHaveLength(4);
    await runInDurableObject(stub, (_instance, state) => {
      expect((state.getWebSockets()[0].deserializeAttachment() as { log?: unknown[] }).log).toBeUndefined();
    });
  });
});
