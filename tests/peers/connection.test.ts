import { afterEach, describe, expect, it } from "vitest";
import { DEMO_CHARGER_KEY } from "../../db/seed";
import type { PointRecord } from "../../scripts/sim/register";
import { answering, api, baseURL, bootedClient, closeClients, newCharger, ocppEndpoint, strictClient, until } from "./support";
import { loadWs } from "./ws";
import { exclusively } from "../e2e/support/exclusive";

exclusively("charger DE001-CP01");

/**
 * The HTTP status a refused WebSocket upgrade answered. `npm start` serves the build under
 * `wrangler dev`, which passes the worker's status on, so a charger sees 401/404/400 exactly as
 * it would deployed (docs/decisions/0004-local-websocket-proxy.md).
 */
async function refusal(connecting: Promise<unknown>): Promise<number> {
  try {
    await connecting;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "number") return code;
    throw error;
  }
  throw new Error("the upgrade was accepted");
}

/** The worker's answer to the same request without the upgrade (auth and lookup come first). */
async function plainStatus(path: string, identity: string, key: string) {
  const res = await fetch(`${baseURL}${path}`, { headers: { Authorization: `Basic ${Buffer.from(`${identity}:${key}`).toString("base64")}` } });
  return res.status;
}

describe("a charger connecting (ocpp-rpc strict client)", () => {
  afterEach(closeClients);

  it("connects a demo charger with its key and ocpp1.6, boots it and gets its heartbeat and statuses answered", async () => {
    const client = strictClient("DE001-CP01", DEMO_CHARGER_KEY);
    await client.connect();
    expect(client.protocol).toBe("ocpp1.6");

    const boot = await client.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "ocpp-rpc strict", firmwareVersion: "1.2.3" });
    expect(boot).toMatchObject({ status: "Accepted", interval: 300 });
    expect(Math.abs(Date.parse(boot.currentTime) - Date.now())).toBeLessThan(60_000);

    const heartbeat = await client.call("Heartbeat", {});
    expect(Math.abs(Date.parse(heartbeat.currentTime) - Date.now())).toBeLessThan(60_000);
    for (const connectorId of [0, 1, 2]) {
      expect(await client.call("StatusNotification", { connectorId, errorCode: "NoError", status: "Available" })).toEqual({});
    }
    expect(client.validationFailures).toEqual([]);
  });

  it("accepts /ocpp/<operatorCode>/<chargeBoxId> for the charger's own operator only", async () => {
    const own = strictClient("DE001-CP01", DEMO_CHARGER_KEY, { endpoint: `${ocppEndpoint}/0DE001` });
    await own.connect();
    expect((await own.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "path" })).status).toBe("Accepted");
    await own.close();

    const other = strictClient("DE001-CP01", DEMO_CHARGER_KEY, { endpoint: `${ocppEndpoint}/0PL002` });
    expect(await refusal(other.connect())).toBe(404);
    expect(await plainStatus("/ocpp/0PL002/DE001-CP01", "DE001-CP01", DEMO_CHARGER_KEY)).toBe(404);
    expect(await plainStatus("/ocpp/0DE001/DE001-CP01", "DE001-CP01", DEMO_CHARGER_KEY)).toBe(426);
  });

  it("refuses a wrong key with 401 and an unknown charger with 404", async () => {
    const wrongKey = "ffffffffffffffffffffffffffffffffffffffff";
    expect(await refusal(strictClient("DE001-CP01", wrongKey).connect())).toBe(401);
    expect(await refusal(strictClient("NO-SUCH-CHARGER", DEMO_CHARGER_KEY).connect())).toBe(404);
    expect(await plainStatus("/ocpp/DE001-CP01", "DE001-CP01", wrongKey)).toBe(401);
    expect(await plainStatus("/ocpp/DE001-CP01", "DE001-CP02", DEMO_CHARGER_KEY)).toBe(401);
    expect(await plainStatus("/ocpp/NO-SUCH-CHARGER", "NO-SUCH-CHARGER", DEMO_CHARGER_KEY)).toBe(404);
  });

  it("refuses a client that offers neither ocpp1.6 nor ocpp2.0.1", async () => {
    const client = strictClient("DE001-CP01", DEMO_CHARGER_KEY, { protocols: ["ocpp1.5", "ocpp2.1"], strictMode: false });
    expect(await refusal(client.connect())).toBe(400);
    expect(client.isOpen).toBe(false);
  });

  it("answers the boot of a disabled point with Pending", async () => {
    const point = await newCharger({ enabled: false });
    const client = strictClient(point.serialNumber, point.key);
    await client.connect();
    const boot = await client.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "disabled" });
    expect(boot.status).toBe("Pending");
    expect(client.validationFailures).toEqual([]);
  });

  it("replaces the first connection when the same charger connects again, closes it at once, and sends calls to the newer one", async () => {
    const point = await newCharger();
    // The first connection is a bare socket, so that the test sees the close frame arrive, not only the end of TCP.
    const ws = (await loadWs())!;
    const authorization = `Basic ${Buffer.from(`${point.serialNumber}:${point.key}`).toString("base64")}`;
    const first = new ws.WebSocket(`${ocppEndpoint}/${point.serialNumber}`, ["ocpp1.6"], { headers: { Authorization: authorization } });
    const frames: unknown[][] = [];
    first.on("message", (data) => frames.push(JSON.parse(data.toString()) as unknown[]));
    const firstClosed = new Promise<{ code: number; reason: string }>((resolve) => first.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise<void>((resolve, reject) => {
      first.on("open", resolve);
      first.on("error", reject);
    });
    first.send(JSON.stringify([2, "first-boot", "BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "bare socket" }]));
    await until(async () => frames.some((f) => f[1] === "first-boot"), "the first connection's boot answered");

    const second = strictClient(point.serialNumber, point.key);
    await second.connect();
    // Right after the second connection is accepted, the first one is no longer served: a Heartbeat
    // sent on it now gets no answer, and its close frame comes before the second one's boot is answered.
    first.send(JSON.stringify([2, "late-heartbeat", "Heartbeat", {}]));
    const boot = await second.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "ocpp-rpc strict" });
    const firstStateAtBoot = first.readyState;
    expect(boot.status).toBe("Accepted");
    expect(firstStateAtBoot, "the first socket had its close frame (CLOSING or CLOSED)").toBeGreaterThanOrEqual(2);
    expect(await firstClosed).toEqual({ code: 1000, reason: "Replaced by a new connection" });
    expect(frames.filter((f) => f[1] === "late-heartbeat")).toEqual([]);

    const secondAsked = answering(second, "GetLocalListVersion", { listVersion: 7 });
    const a = await api();
    expect(await a.get(`/station-service/monitoring/getLocalListVersion/${point.serialNumber}`)).toEqual({ listVersion: 7 });
    expect(secondAsked.received).toHaveLength(1);
    // The call went to the newer connection only.
    expect(frames.filter((f) => f[0] === 2 && f[2] === "GetLocalListVersion")).toEqual([]);
    expect((await second.call("Heartbeat", {})).currentTime).toBeTruthy();
    // The replaced socket does not take the point offline (the flag reaches D1 in a batch, docs/rules/ocpp.md "Hot path").
    const detail = await until(async () => {
      const p = await a.get<PointRecord>(`/station-service/point/${point.id}`);
      return p.online && p;
    }, "the point online");
    expect(detail.online).toBe(true);
  });

  it("pushes a rotated key to a connected charger, which then connects with the new key only", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const pushed = answering(client, "ChangeConfiguration", { status: "Accepted" });
    const a = await api();
    const { key } = await a.post<{ key: string }>(`/station-service/point/${point.id}/key`, { push: true });
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(pushed.received).toEqual([{ key: "AuthorizationKey", value: key }]);
    await client.close();

    expect(await refusal(strictClient(point.serialNumber, point.key).connect())).toBe(401);
    expect(await plainStatus(`/ocpp/${point.serialNumber}`, point.serialNumber, point.key)).toBe(401);
    const renewed = strictClient(point.serialNumber, key);
    await renewed.connect();
    expect((await renewed.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "new key" })).status).toBe("Accepted");
    await until(async () => (await a.get<PointRecord>(`/station-service/point/${point.id}`)).online, "the point online");
  });
});
