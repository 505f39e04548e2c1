import { describe, expect, it } from "vitest";
import { makeCharger } from "./support/factories";
import { basic, boot, connect, DEMO_KEY, eventually } from "./support/charger";
import { SELF } from "cloudflare:test";

describe("OCPP connection", () => {
  it("answers an unknown charger with 404 before looking at any key", async () => {
    expect((await connect("NO-SUCH-CHARGER", { key: "" })).status).toBe(404);
    expect((await connect("NO-SUCH-CHARGER")).status).toBe(404);
  });

  it("refuses a missing or wrong key with 401", async () => {
    const { serialNumber } = await makeCharger("0PL002");
    expect((await connect(serialNumber, { key: "" })).status).toBe(401);
    expect((await connect(serialNumber, { key: DEMO_KEY })).status).toBe(401);
    const res = await connect(serialNumber, { key: DEMO_KEY, user: "someone-else" });
    expect(res.status).toBe(401);
    expect(res.response.headers.get("WWW-Authenticate")).toContain("Basic");
  });

  it("accepts the key as 40 hex characters or as the 20 raw bytes, and echoes the subprotocol it chose", async () => {
    const { serialNumber, key } = await makeCharger("0PL002");
    const hex = await connect(serialNumber, { key, protocols: "ocpp1.5, ocpp1.6" });
    expect(hex.status).toBe(101);
    expect(hex.response.headers.get("Sec-WebSocket-Protocol")).toBe("ocpp1.6");
    hex.charger!.close();
    const raw = String.fromCharCode(...key.match(/../g)!.map((b) => parseInt(b, 16)));
    const res = await SELF.fetch(`http://localhost/ocpp/${serialNumber}`, {
      headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": "ocpp1.6", Authorization: `Basic ${btoa(`${serialNumber}:${raw}`)}` },
    });
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    res.webSocket!.close();
  });

  it("refuses a client that offers only other subprotocols", async () => {
    const { serialNumber, key } = await makeCharger("0PL002");
    expect((await connect(serialNumber, { key, protocols: "ocpp1.5, ocpp2.1" })).status).toBe(400);
    expect((await connect(serialNumber, { key, protocols: "" })).status).toBe(400);
  });

  it("takes /ocpp/<operatorCode>/<chargeBoxId> only with the charger's own operator code", async () => {
    const { serialNumber, key } = await makeCharger("0PL002");
    expect((await connect(serialNumber, { key, path: `/ocpp/0DE001/${serialNumber}` })).status).toBe(404);
    const ok = await connect(serialNumber, { key, path: `/ocpp/0PL002/${serialNumber}` });
    expect(ok.status).toBe(101);
    ok.charger!.close();
  });

  it("serves the demo chargers with the demo key", async () => {
    const res = await connect("PL002-CP02", { key: DEMO_KEY });
    expect(res.status).toBe(101);
    expect(await boot(res.charger!)).toMatchObject({ status: "Accepted", interval: 300 });
    res.charger!.close();
  });

  it("replaces an older connection of the same charger and closes it at once", async () => {
    const { serialNumber, key } = await makeCharger("0PL002");
    const first = (await connect(serialNumber, { key })).charger!;
    await boot(first);
    // What the first socket sees, in order, next to the second connection's answers (never timing).
    const seen: string[] = [];
    first.ws.addEventListener("message", (e) => seen.push(`first: ${String(e.data)}`));
    const closed = new Promise<number>((resolve) =>
      first.ws.addEventListener("close", (e) => {
        seen.push("first: closed");
        resolve(e.code);
      }),
    );
    const second = (await connect(serialNumber, { key })).charger!;
    // Right after the second connection is accepted, the first is no longer served: it is closed
    // already, or a Heartbeat sent on it gets no answer.
    if (first.ws.readyState === WebSocket.OPEN) first.ws.send(JSON.stringify([2, "late-heartbeat", "Heartbeat", {}]));
    expect(await boot(second)).toMatchObject({ status: "Accepted" });
    seen.push("second: boot answered");
    expect(await closed).toBe(1000);
    expect(seen.filter((e) => e.includes("late-heartbeat"))).toEqual([]);
    expect(seen.indexOf("first: closed")).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf("first: closed")).toBeLessThan(seen.indexOf("second: boot answered"));
    expect(await second.call("Heartbeat", {})).toHaveProperty("currentTime");
    second.close();
  });

  it("closes the connection with 1003 on any binary frame, however readable, and the point goes offline", async () => {
    const { serialNumber, key, pointId } = await makeCharger("0PL002");
    for (const frame of [new TextEncoder().encode('[2,"b1","Heartbeat",{}]'), new Uint8Array([0xff, 0x00, 0x12])]) {
      const charger = (await connect(serialNumber, { key })).charger!;
      await boot(charger);
      const closed = new Promise<number>((resolve) => charger.ws.addEventListener("close", (e) => resolve(e.code)));
      charger.ws.send(frame);
      expect(await closed).toBe(1003);
    }
    const { env } = await import("cloudflare:test");
    // The flag reaches D1 with the charger's next batch (docs/rules/ocpp.md "Hot path").
    const online = () => env.DB.prepare("SELECT online FROM points WHERE id = ?").bind(pointId).first();
    expect(await eventually(online, (row) => row?.online === 0)).toEqual({ online: 0 });
  });

  it("lets a charger's object rest once the charger is gone: its offline alarm goes once D1 has the offline flag", async () => {
    const { env, runInDurableObject } = await import("cloudflare:test");
    const { chargePointName } = await import("../../workers/ocpp/identity");
    const { serialNumber, key, pointId, operatorId } = await makeCharger("0PL002");
    const stub = env.CHARGE_POINT.getByName(chargePointName(operatorId, serialNumber));
    const alarm = () => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    const charger = (await connect(serialNumber, { key })).charger!;
    await boot(charger);
    const online = () => env.DB.prepare("SELECT online FROM points WHERE id = ?").bind(pointId).first();
    await eventually(online, (row) => row?.online === 1);
    // Connected, with its changes landed: the alarm stays, to find a charger that went silent.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await alarm()).not.toBeNull();
    charger.close();
    await eventually(online, (row) => row?.online === 0);
    expect(await eventually(alarm, (at) => at === null)).toBeNull();
  });

  it("answers a text frame of up to 1 MiB and closes the connection with 1009 on a larger one", async () => {
    const { serialNumber, key } = await makeCharger("0PL002");
    const charger = (await connect(serialNumber, { key })).charger!;
    await boot(charger);
    const dataTransfer = (id: string, size: number) => JSON.stringify([2, id, "DataTransfer", { vendorId: "com.example", data: "x".repeat(size) }]);
    expect(await charger.raw(dataTransfer("d1", 1024 * 1024 - 100))).toEqual([3, "d1", { status: "UnknownVendorId" }]);
    const closed = new Promise<number>((resolve) => charger.ws.addEventListener("close", (e) => resolve(e.code)));
    charger.ws.send(dataTransfer("d2", 1024 * 1024));
    expect(await closed).toBe(1009);
  });

  it("answers text in any script but closes the connection with 1007 on a text frame that was not UTF-8, and the point goes offline", async () => {
    const { serialNumber, key, pointId } = await makeCharger("0PL002");
    const charger = (await connect(serialNumber, { key })).charger!;
    await boot(charger);
    const dataTransfer = (id: string, data: string) => JSON.stringify([2, id, "DataTransfer", { vendorId: "com.example", data }]);
    expect(await charger.raw(dataTransfer("t1", "Zażółć gęślą jaźń, 充电桩 ⚡"))).toEqual([3, "t1", { status: "UnknownVendorId" }]);
    const closed = new Promise<number>((resolve) => charger.ws.addEventListener("close", (e) => resolve(e.code)));
    // workerd hands the object a text frame's invalid bytes as U+FFFD (a raw 0xFF sent over the wire arrives so).
    charger.ws.send(dataTransfer("t2", "a\uFFFDb"));
    expect(await closed).toBe(1007);
    const { env } = await import("cloudflare:test");
    const online = () => env.DB.prepare("SELECT online FROM points WHERE id = ?").bind(pointId).first();
    expect(await eventually(online, (row) => row?.online === 0)).toEqual({ online: 0 });
  });

  it("uses Basic auth as sent by chargers (username = chargeBoxId)", () => {
    expect(basic("CP1", "secret")).toBe(`Basic ${btoa("CP1:secret")}`);
  });
});
