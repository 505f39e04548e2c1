import { abortAllDurableObjects } from "cloudflare:test";
import { allowConsoleError } from "../support/console-guard";
import { describe, expect, it } from "vitest";
import { boot, connect, eventually, landed, type Frame, type TestCharger } from "./support/charger";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { row, rows } from "./support/d1";

/**
 * A charger that misbehaves (docs/rules/ocpp.md "A charger that floods", "A charger that keeps
 * reconnecting"): a flood is refused with CALLERRORs and throttled in its own object, without
 * touching the operator's other chargers; a charger that reconnects too often is quarantined,
 * answered 429 with Retry-After, shown on its point, and an operator lifts it.
 */


/** Sends `count` Heartbeats at once and collects the answer to each, by message id. */
async function burst(charger: TestCharger, count: number, prefix: string): Promise<Frame[]> {
  const answers = new Map<string, Frame>();
  const done = new Promise<void>((resolve) => {
    charger.ws.addEventListener("message", (event) => {
      const frame = JSON.parse(event.data as string) as Frame;
      if (typeof frame[1] === "string" && frame[1].startsWith(prefix) && (frame[0] === 3 || frame[0] === 4)) {
        answers.set(frame[1], frame);
        if (answers.size === count) resolve();
      }
    });
  });
  for (let i = 0; i < count; i++) charger.ws.send(JSON.stringify([2, `${prefix}${i}`, "Heartbeat", {}]));
  await done;
  return [...answers.values()];
}

async function online(protocols = "ocpp1.6") {
  const made = await makeCharger("0PL002");
  const { charger } = await connect(made.serialNumber, { key: made.key, protocols });
  if (protocols === "ocpp1.6") await boot(charger!);
  else await charger!.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Plugdesk", model: "Test" } });
  return { ...made, charger: charger! };
}

describe("a charger that floods", () => {
  it("answers the CALLs over the rate with a GenericError CALLERROR, throttles them, and leaves the operator's other chargers alone", async () => {
    const flooding = await online();
    const neighbour = await online();
    const answers = await burst(flooding.charger, 150, "f");
    const refused = answers.filter((f) => f[0] === 4);
    const taken = answers.filter((f) => f[0] === 3);
    // Default 50 a second: a full bucket takes about 50 at once, the rest are refused.
    expect(taken.length).toBeGreaterThanOrEqual(50);
    expect(taken.length).toBeLessThan(100);
    expect(refused.length).toBeGreaterThan(50);
    expect(refused[0][2]).toBe("GenericError");
    expect(String(refused[0][3])).toContain("throttled");
    // The operator's other charger is answered as usual meanwhile.
    expect(await neighbour.charger.call("Heartbeat", {})).toHaveProperty("currentTime");
    // Once a second's worth has refilled, the flooding charger is served again, at the rate.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await flooding.charger.call("Heartbeat", {})).toHaveProperty("currentTime");

    // One alarm for the episode, however many CALLs were refused; a second burst in it raises none.
    await burst(flooding.charger, 120, "g");
    await landed();
    const alarms = await rows<{ type: string; status: string }>("SELECT type, status FROM alarms WHERE point_id = ? AND type = 'MessageFlood'", flooding.pointId);
    expect(alarms).toEqual([{ type: "MessageFlood", status: "Undisposed" }]);
    expect(await row("SELECT count(*) AS n FROM alarms WHERE point_id = ?", neighbour.pointId)).toEqual({ n: 0 });
    flooding.charger.close();
    neighbour.charger.close();
  });

  it("refuses a 2.0.1 charger's flood with the same code of its dialect", async () => {
    const { charger } = await online("ocpp2.0.1");
    const refused = (await burst(charger, 120, "v")).filter((f) => f[0] === 4);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0][2]).toBe("GenericError");
    charger.close();
  });

  it("takes the rate the operator sets in its parameter settings, for chargers already connected", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { charger } = await online();
    const current = (await call("GET", "/system-service/parameter-settings", { token: admin })).body.data;
    expect(current.resilience).toEqual({ messagesPerSecond: 50, connectionsPerHour: 60, quarantineMinutes: 60, stuckSessionHours: 24 });
    const bad = await call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...current, resilience: { ...current.resilience, messagesPerSecond: 0 } } });
    expect(bad.status).toBe(400);
    const saved = await call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...current, resilience: { ...current.resilience, messagesPerSecond: 5 } } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.resilience.messagesPerSecond).toBe(5);
    const answers = await burst(charger, 20, "r");
    expect(answers.filter((f) => f[0] === 3).length).toBeLessThanOrEqual(6);
    expect(answers.filter((f) => f[0] === 4).length).toBeGreaterThanOrEqual(14);
    charger.close();
  });
});

describe("a charger that keeps reconnecting", () => {
  it("is quarantined at the 61st connection within the hour: 429 with Retry-After, shown on its point, and an operator lifts it", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const made = await makeCharger("0PL002");
    for (let i = 0; i < 60; i++) {
      const { status, charger } = await connect(made.serialNumber, { key: made.key });
      expect(status).toBe(101);
      charger!.close();
    }
    const refused = await connect(made.serialNumber, { key: made.key });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.response.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Still refused while it lasts, and a wrong key is still a 401 first.
    expect((await connect(made.serialNumber, { key: made.key })).status).toBe(429);
    expect((await connect(made.serialNumber, { key: "00".repeat(20) })).status).toBe(401);

    await landed();
    const point = (await call("GET", `/station-service/point/${made.pointId}`, { token: admin })).body.data;
    expect(Date.parse(point.quarantinedUntil)).toBeGreaterThan(Date.now() + 3500_000);
    expect(point.quarantineConnections).toBe(61);
    expect(await rows("SELECT type, status FROM alarms WHERE point_id = ?", made.pointId)).toEqual([{ type: "ReconnectQuarantine", status: "Undisposed" }]);

    // Watching is not operating; another operator's point is 404.
    const watcher = await tokenWithMenus(admin, ["home", "monitoring.chargingPile"]);
    expect((await call("DELETE", `/station-service/point/${made.pointId}/quarantine`, { token: watcher })).status).toBe(403);
    const other = await tokenFor("0DE001", "deadmin1");
    expect((await call("DELETE", `/station-service/point/${made.pointId}/quarantine`, { token: other })).status).toBe(404);
    expect((await call("DELETE", `/station-service/point/abc/quarantine`, { token: admin })).status).toBe(400);

    const lifted = await call("DELETE", `/station-service/point/${made.pointId}/quarantine`, { token: admin });
    expect(lifted.status).toBe(200);
    expect(lifted.body.data).toMatchObject({ lifted: true, quarantinedUntil: null });
    expect((await call("GET", `/station-service/point/${made.pointId}`, { token: admin })).body.data.quarantinedUntil).toBeNull();
    expect(await rows("SELECT type, status FROM alarms WHERE point_id = ?", made.pointId)).toEqual([{ type: "ReconnectQuarantine", status: "AutoRecovery" }]);
    expect(await row("SELECT count(*) AS n FROM operation_logs WHERE table_name = 'points' AND new_data LIKE ?", `%"id":${made.pointId},%quarantinedUntil%`)).toEqual({ n: 1 });

    // The count starts afresh: 60 more connections are taken.
    for (let i = 0; i < 60; i++) {
      const { status, charger } = await connect(made.serialNumber, { key: made.key });
      expect(status).toBe(101);
      charger!.close();
    }
    expect((await connect(made.serialNumber, { key: made.key })).status).toBe(429);
  });

  it("counts with the operator's numbers and keeps the count through an eviction of the charger's object", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const current = (await call("GET", "/system-service/parameter-settings", { token: admin })).body.data;
    const saved = await call("PUT", "/system-service/parameter-settings", {
      token: admin,
      body: { ...current, resilience: { ...current.resilience, connectionsPerHour: 3, quarantineMinutes: 5 } },
    });
    expect(saved.status).toBe(200);
    const made = await makeCharger("0PL002");
    for (let i = 0; i < 3; i++) {
      const { status, charger } = await connect(made.serialNumber, { key: made.key });
      expect(status).toBe(101);
      charger!.close();
    }
    // Everything in memory is gone; the count is in the object's storage.
    // The eviction may cut a change batch on its way to D1, which reports it (and sends it again).
    allowConsoleError(/Application called abortAllDurableObjects/);
    await abortAllDurableObjects();
    const refused = await connect(made.serialNumber, { key: made.key });
    expect(refused.status).toBe(429);
    expect(Number(refused.response.headers.get("Retry-After"))).toBeLessThanOrEqual(300);
    await eventually(
      async () => {
        await landed();
        return row<{ quarantine_connections: number | null }>("SELECT quarantine_connections FROM points WHERE id = ?", made.pointId);
      },
      (r) => r?.quarantine_connections === 4,
    );
  });
});
