import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ChargePoint } from "../../workers/ocpp/charge-point";
import { chargePointName } from "../../workers/ocpp/identity";
import { makeCharger } from "./support/factories";
import { boot, connect, type Frame, type TestCharger } from "./support/charger";

/**
 * What a charger's object does when it wakes from hibernation (docs/rules/ocpp.md "Hot path"): a
 * woken object is made afresh, with nothing in memory, beside the socket that outlived it. Here it
 * is made so, on the charger's own storage, and told each time it opens that storage.
 */
async function bootedCharger() {
  const made = await makeCharger("0PL002");
  const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
  await boot(charger);
  const stub = env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber));
  // The boot's changes reach D1 and its timers run out, so that only what follows opens storage.
  await runInDurableObject(stub, (instance: ChargePoint) => instance.changesLanded());
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return { made, charger, stub };
}

/**
 * A ChargePoint made as a wake-up makes it, whose every opening of the charger's SQLite (its store
 * reaches it at first use: workers/ocpp/store.ts `ChargerStore`) is written down in `openings`.
 */
function wokenObject(state: DurableObjectState, openings: string[], name: string) {
  const woken = new ChargePoint(state, env);
  (woken as unknown as { store: { source: () => SqlStorage } }).store.source = () => {
    openings.push(`${name} opened storage`);
    return state.storage.sql;
  };
  return woken;
}

/** The next frame the charger's socket gets (awaited outside the object: it is the test's I/O). */
const nextFrame = (charger: TestCharger) =>
  new Promise<Frame>((resolve) => charger.ws.addEventListener("message", (event) => resolve(JSON.parse(event.data as string) as Frame), { once: true }));

interface Attached {
  call?: { id: string; action: string; deadline: number };
  outboxLanded?: number;
  log?: unknown[];
  accepted?: boolean;
}

/** Sends a remote start from a woken object; resolves once its frame has left, with the call its socket keeps. */
async function remoteStartFrom(woken: ChargePoint, ws: WebSocket) {
  const outcome = woken.send("RemoteStartTransaction", { connectorId: 1, idTag: "PLREMOTE" });
  for (let tries = 0; !(ws.deserializeAttachment() as Attached).call && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  return { outcome, call: (ws.deserializeAttachment() as Attached).call! };
}

describe("a woken charger's object", () => {
  it("sends a remote start and reads its answer without opening storage, and writes nothing of it until a write or a read of the log", async () => {
    const { charger, stub } = await bootedCharger();
    const arrived = charger.nextCall();
    const id = await runInDurableObject(stub, async (_instance, state) => {
      const openings: string[] = [];
      const woken = wokenObject(state, openings, "woken");
      const [ws] = state.getWebSockets();
      const { outcome, call } = await remoteStartFrom(woken, ws);
      // The call left first, with what identifies it riding with its socket.
      expect(call).toMatchObject({ action: "RemoteStartTransaction", deadline: expect.any(Number) });
      expect(openings).toEqual([]);
      await woken.webSocketMessage(ws, JSON.stringify([3, call.id, { status: "Accepted" }]));
      expect(await outcome).toEqual({ ok: true, response: { status: "Accepted" } });
      expect(openings).toEqual([]);
      // Its frames are parked with the socket, after the boot's (decision 0112), and no row was ever written for the call.
      const attached = ws.deserializeAttachment() as Attached;
      expect(attached.call).toBeUndefined();
      expect(attached.log?.map((frame) => (frame as { action: string }).action)).toEqual([
        "BootNotification",
        "BootNotification",
        "RemoteStartTransaction",
        "RemoteStartTransaction",
      ]);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM pending_calls").one().n).toBe(0);
      // A read of the log takes them to storage, once.
      const log = await woken.operationLog({ current: 1, size: 10, action: "RemoteStartTransaction" });
      expect(log.records.map((r) => [r.sender, r.type, r.messageId])).toEqual([
        ["CHARGER", "CALLRESULT", call.id],
        ["SERVER", "CALL", call.id],
      ]);
      return call.id;
    });
    expect(await arrived).toEqual([2, id, "RemoteStartTransaction", { connectorId: 1, idTag: "PLREMOTE" }]);
  });

  it("recognises a late answer after an eviction by the call its socket keeps, before it opens storage", async () => {
    const { stub } = await bootedCharger();
    await runInDurableObject(stub, async (_instance, state) => {
      const openings: string[] = [];
      const warned = vi.spyOn(console, "warn").mockImplementation((message: string) => void openings.push(message));
      const [ws] = state.getWebSockets();
      const { outcome, call } = await remoteStartFrom(wokenObject(state, openings, "sender"), ws);
      // Evicted before the call's row was written: the object the answer wakes knows nothing of it.
      const again = wokenObject(state, openings, "again");
      await again.webSocketMessage(ws, JSON.stringify([3, call.id, { status: "Accepted" }]));
      // Recognised first; only then is a row it may have left removed.
      expect(openings.filter((o) => !o.startsWith("sender"))[0]).toBe(`late answer to RemoteStartTransaction (${call.id})`);
      expect((ws.deserializeAttachment() as Attached).call).toBeUndefined();
      // The first object, alive here as it would not be after an eviction, gives up at its deadline.
      expect(await outcome).toEqual({ ok: false, reason: "timeout" });
      warned.mockRestore();
    });
  });

  it("refuses a remote start to a charger whose boot was not accepted from what its socket carries", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    const stub = env.CHARGE_POINT.getByName(chargePointName(made.operatorId, made.serialNumber));
    await runInDurableObject(stub, async (_instance, state) => {
      expect((state.getWebSockets()[0].deserializeAttachment() as Attached).accepted).toBe(false);
      const openings: string[] = [];
      expect(await wokenObject(state, openings, "woken").send("RemoteStartTransaction", { connectorId: 1, idTag: "PLREMOTE" })).toEqual({ ok: false, reason: "notAccepted" });
      expect(openings).toEqual([]);
    });
    await boot(charger);
    await runInDurableObject(stub, (_instance, state) => {
      expect((state.getWebSockets()[0].deserializeAttachment() as Attached).accepted).toBe(true);
    });
  });

  it("knows from its socket what D1 has of its outbox: sends none of it again, and removes it in the write of the next status", async () => {
    const { charger, stub } = await bootedCharger();
    const answer = nextFrame(charger);
    await runInDurableObject(stub, async (_instance, state) => {
      const outboxIds = () => [...state.storage.sql.exec<{ id: number }>("SELECT id FROM outbox ORDER BY id")].map(({ id }) => id);
      const [ws] = state.getWebSockets();
      // The connection's and the boot's changes landed: marked with the socket, still stored.
      const landed = (ws.deserializeAttachment() as Attached).outboxLanded!;
      expect(landed).toBeGreaterThan(0);
      expect(outboxIds().at(-1)).toBe(landed);
      const sent: unknown[] = [];
      const woken = wokenObject(state, [], "woken");
      (woken as unknown as { applyChanges: (changes: unknown[]) => Promise<void> }).applyChanges = async (changes) => void sent.push(changes);
      await woken.webSocketMessage(ws, '[2,"st-woken","StatusNotification",{"connectorId":1,"errorCode":"NoError","status":"Preparing"}]');
      // One row left, the status's, in the commit that wrote it: the landed rows went with it.
      expect(outboxIds()).toEqual([landed + 1]);
      await woken.changesLanded();
      expect(sent).toEqual([[expect.objectContaining({ kind: "status" })]]);
      expect((ws.deserializeAttachment() as Attached).outboxLanded).toBe(landed + 1);
    });
    expect(await answer).toEqual([3, "st-woken", {}]);
  });

  it("answers a Heartbeat without opening storage, the flood guard's rate riding with the socket", async () => {
    const { charger, stub } = await bootedCharger();
    const answer = nextFrame(charger);
    await runInDurableObject(stub, async (_instance, state) => {
      const openings: string[] = [];
      const [ws] = state.getWebSockets();
      await wokenObject(state, openings, "woken").webSocketMessage(ws, '[2,"hb-woken","Heartbeat",{}]');
      expect(openings).toEqual([]);
    });
    expect(await answer).toEqual([3, "hb-woken", { currentTime: expect.any(String) }]);
  });
});
