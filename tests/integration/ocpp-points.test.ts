import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeCharger } from "./support/factories";
import { boot, connect } from "./support/charger";
import { call, tokenFor } from "./support/http";
import { row } from "./support/d1";


async function waitFor(check: () => Promise<boolean>, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

describe("points through the API", () => {
  it("creates a point with its connectors, unique serial number, disabled until enabled", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const stations = await call("GET", "/station-service/station", { token });
    const stationId = stations.body.data.records[0].id;
    const serialNumber = `API-${Date.now().toString(36)}`;
    const created = await call("POST", "/station-service/point", {
      token,
      body: { stationId, name: "Api charger", serialNumber, pointNo: "07", type: "DC", ratedPower: 120.5, connectorCount: 2 },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ serialNumber, status: "INVALID", ratedPower: 120.5, connectors: [{ connectorId: 1, standard: "IEC1" }, { connectorId: 2 }] });
    const again = await call("POST", "/station-service/point", {
      token,
      body: { stationId, name: "Twin", serialNumber, pointNo: "08", type: "AC", ratedPower: 22, connectorCount: 1 },
    });
    expect(again.status).toBe(400);
    expect(again.body.data.fields.serialNumber).toBe("This serial number is already registered");
    const enabled = await call("PUT", `/station-service/point/${created.body.data.id}/valid`, { token, body: { status: "VALID" } });
    expect(enabled.body.data).toMatchObject({ status: "VALID", availability: "offline" });
  });

  it("refuses bad point input with each field's message", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", "/station-service/point?lang=pl", {
      token,
      body: { stationId: 1, name: "X", serialNumber: "has space", pointNo: "1", type: "PLASMA", ratedPower: 7.123, connectorCount: 100 },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.fields).sort()).toEqual(["connectorCount", "ratedPower", "serialNumber", "type"]);
    expect(res.body.data.fields.type).toBe("Nieznany typ punktu ładowania");
  });

  it("does not enable a point whose station is disabled", async () => {
    const { pointId } = await makeCharger("0PL002", { enabled: false });
    await env.DB.prepare("UPDATE stations SET status = 'INVALID' WHERE id = (SELECT station_id FROM points WHERE id = ?)").bind(pointId).run();
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/point/${pointId}/valid`, { token, body: { status: "VALID" } });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("A point cannot be enabled until its location is enabled");
  });

  it("tells a connected charger ChangeAvailability Inoperative when its point is disabled, then refuses remote starts", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    let asked: unknown;
    charger.answer("ChangeAvailability", (payload) => {
      asked = payload;
      return { status: "Accepted" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", `/station-service/point/${made.pointId}/valid`, { token, body: { status: "INVALID" } });
    expect(res.body.data).toMatchObject({ status: "INVALID", availability: "Accepted" });
    expect(asked).toEqual({ connectorId: 0, type: "Inoperative" });
    expect((await call("PUT", `/station-service/remoteControl/remoteStart/${made.pointId}`, { token, body: { connectorId: 1 } })).status).toBe(409);
    expect(await boot(charger)).toMatchObject({ status: "Pending" });
  });

  it("pushes a new key with ChangeConfiguration AuthorizationKey, and changes nothing when refused", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    let pushed: any;
    charger.answer("ChangeConfiguration", (payload) => {
      pushed = payload;
      return { status: "Rejected" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const refused = await call("POST", `/station-service/point/${made.pointId}/key`, { token, body: { push: true } });
    expect(refused.status).toBe(409);
    expect(pushed.key).toBe("AuthorizationKey");
    expect(pushed.value).toMatch(/^[0-9a-f]{40}$/);
    const stillOld = await connect(made.serialNumber, { key: made.key });
    expect(stillOld.status).toBe(101);
    stillOld.charger!.close();
  });
});

describe("charger presence and calls", () => {
  it("marks the point offline when its socket closes", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    await waitFor(async () => (await row<{ online: number }>("SELECT online FROM points WHERE id = ?", made.pointId))?.online === 1);
    expect(await row("SELECT online FROM points WHERE id = ?", made.pointId)).toEqual({ online: 1 });
    charger.close();
    await waitFor(async () => (await row<{ online: number }>("SELECT online FROM points WHERE id = ?", made.pointId))?.online === 0);
    expect(await row("SELECT online FROM points WHERE id = ?", made.pointId)).toEqual({ online: 0 });
  });

  it("keeps at most one call unanswered per charger, the others queued in order", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const token = await tokenFor("0PL002", "demoadmin");
    const first = call("PUT", `/station-service/monitoring/reset/point/${made.serialNumber}`, { token, body: { type: "Soft" } });
    const second = call("PUT", `/station-service/monitoring/point/triggerMessage/${made.serialNumber}`, { token, body: { requestedMessage: "Heartbeat" } });
    const a = await charger.nextCall();
    let secondArrived = false;
    const b = charger.nextCall().then((frame) => {
      secondArrived = true;
      return frame;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(secondArrived).toBe(false);
    charger.ws.send(JSON.stringify([3, a[1], { status: "Accepted" }]));
    const frameB = await b;
    charger.ws.send(JSON.stringify([3, frameB[1], { status: "Accepted" }]));
    expect([a[2], frameB[2]].sort()).toEqual(["Reset", "TriggerMessage"]);
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });

  it("fails a call whose answer is broken, without answering the broken answer", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const token = await tokenFor("0PL002", "demoadmin");
    const pending = call("GET", `/station-service/monitoring/getLocalListVersion/${made.serialNumber}`, { token });
    const frame = await charger.nextCall();
    charger.ws.send(JSON.stringify([3, frame[1], { listVersion: "seven" }]));
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body.data.code).toBe("TypeConstraintViolation");
    // The next frame the charger sees answers its own Heartbeat, not the broken reply.
    expect(await charger.raw('[2,"hb","Heartbeat",{}]')).toEqual([3, "hb", expect.any(Object)]);
  });
});

/**
 * What hibernation leaves of a charger that has been silent: its socket's attachment only, without
 * the time kept in memory, and as old as the offline alarm would find it.
 */
async function hibernateSilent(stub: DurableObjectStub) {
  const { runInDurableObject } = await import("cloudflare:test");
  await runInDurableObject(stub, (instance, state) => {
    const seen = (instance as unknown as { seen: WeakMap<WebSocket, unknown> }).seen;
    for (const ws of state.getWebSockets()) {
      ws.serializeAttachment({ ...(ws.deserializeAttachment() as object), lastSeen: 0 });
      seen.delete(ws);
    }
  });
}

/** A booted charger of 0PL002, with the stub of its Durable Object. */
async function bootedWithObject() {
  const { chargePointName } = await import("../../workers/ocpp/identity");
  const made = await makeCharger("0PL002");
  const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
  await boot(charger);
  return { made, charger, stub: env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber)) };
}

describe("offline detection", () => {
  it("marks a silent charger offline when its alarm finds no message within the interval plus grace", async () => {
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    const { made, charger, stub } = await bootedWithObject();
    await hibernateSilent(stub);
    const closed = new Promise<void>((resolve) => charger.ws.addEventListener("close", () => resolve()));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await closed;
    await waitFor(async () => (await row<{ online: number }>("SELECT online FROM points WHERE id = ?", made.pointId))?.online === 0);
    expect(await row("SELECT online FROM points WHERE id = ?", made.pointId)).toEqual({ online: 0 });
  });

  it("keeps when a woken charger last spoke in its socket's attachment, whether its message's frames were parked there or written", async () => {
    const { runInDurableObject } = await import("cloudflare:test");
    const { made, charger, stub } = await bootedWithObject();
    const attached = () => runInDurableObject(stub, (_, state) => state.getWebSockets().map((ws) => ws.deserializeAttachment() as { lastSeen: number; identity?: unknown; log?: unknown[] }));
    const before = Date.now();

    await hibernateSilent(stub);
    await charger.call("Heartbeat", {});
    const [parked] = await attached();
    expect(parked.lastSeen).toBeGreaterThanOrEqual(before);
    expect(parked.log?.length).toBeGreaterThan(0);
    expect(parked.identity).toMatchObject({ serialNumber: made.serialNumber });

    await hibernateSilent(stub);
    await charger.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available" });
    const [written] = await attached();
    expect(written.lastSeen).toBeGreaterThanOrEqual(before);
    expect(written.log ?? []).toEqual([]);
    expect(written.identity).toMatchObject({ serialNumber: made.serialNumber });
  });

  it("keeps a charger that spoke recently online when the alarm runs", async () => {
    const { runDurableObjectAlarm } = await import("cloudflare:test");
    const { made, charger, stub } = await bootedWithObject();
    await runDurableObjectAlarm(stub);
    expect(await row("SELECT online FROM points WHERE id = ?", made.pointId)).toEqual({ online: 1 });
    expect(await charger.call("Heartbeat", {})).toHaveProperty("currentTime");
  });
});
