import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { LiveEvent } from "../../workers/live/events";
import { tenantHubName } from "../../workers/live/events";
import { systemCtx } from "../../workers/services/context";
import { findCharger } from "../../workers/services/ocpp/charger-lookup";
import { registrationOf } from "../../workers/ocpp/identity";
import { eventually } from "./support/charger";
import { listenLive } from "./support/live";
import { makeCharger } from "./support/factories";
import { tokenFor } from "./support/http";

/**
 * A large operator's live view goes through relay hubs, one per group of stations, that hand
 * the events on to the operator's hub the browsers listen to (docs/performance.md "Live view at
 * scale"): nothing is lost and a point's events keep their order.
 */
describe("live view through a relay hub", () => {
  it("hands a station's events on to the operator's hub in order, a connector's waiting meter readings thinned to the latest", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId, operatorId, serialNumber } = await makeCharger("0PL002");
    const { ws, events: received } = await listenLive(token);
    const at = Date.now();
    const meter = (energyWh: number, connectorId = 1): LiveEvent => ({ type: "meter", pointId, serialNumber, connectorId, transactionId: 7, energyWh, powerW: 7000, at });
    const status: LiveEvent = { type: "connector", pointId, serialNumber, connectorId: 1, status: "Charging", errorCode: "NoError", at };
    const relay = env.TENANT_HUB.getByName(tenantHubName(operatorId, 3));
    await relay.relay(operatorId, [meter(100), meter(200), status, meter(300)]);
    await relay.relay(operatorId, [meter(400, 2)]);

    const mine = () => received.filter((e) => e.pointId === pointId);
    await eventually(async () => mine(), (events) => events.some((e) => e.connectorId === 2));
    // 100 was replaced by 200 while it waited; 300 came after the status, so both stay, in order.
    expect(mine().map((e) => (e.type === "meter" ? `meter ${e.connectorId} ${e.energyWh}` : `${e.type} ${e.status}`))).toEqual([
      "meter 1 200",
      "connector Charging",
      "meter 1 300",
      "meter 2 400",
    ]);
    ws.close();

    // The operator's hub kept them: a page opened now sees the present at once.
    const later = await listenLive(token);
    const snapshot = later.events[0].events.filter((e: LiveEvent) => e.pointId === pointId);
    expect(snapshot).toEqual(expect.arrayContaining([expect.objectContaining({ type: "connector", status: "Charging" }), expect.objectContaining({ type: "meter", connectorId: 1, energyWh: 300 })]));
    later.ws.close();
  });

  it("answers whether a page listens, and a relay passes on what the operator's hub answered it last", async () => {
    const { pointId, operatorId, serialNumber } = await makeCharger("0PL002");
    const meter = (energyWh: number): LiveEvent => ({ type: "meter", pointId, serialNumber, connectorId: 1, transactionId: 7, energyWh, at: Date.now() });
    const hub = env.TENANT_HUB.getByName(tenantHubName(operatorId));
    const relay = env.TENANT_HUB.getByName(tenantHubName(operatorId, 5));
    expect(await hub.publishMany([meter(100)])).toEqual({ watched: false });
    await relay.relay(operatorId, [meter(200)]);
    expect(await eventually(() => relay.relay(operatorId, []), (receipt) => !receipt.watched)).toEqual({ watched: false });

    const page = await listenLive(await tokenFor("0PL002", "demoadmin"));
    expect(await hub.publishMany([meter(300)])).toEqual({ watched: true });
    await relay.relay(operatorId, [meter(400)]);
    expect(await eventually(() => relay.relay(operatorId, []), (receipt) => receipt.watched)).toEqual({ watched: true });
    page.ws.close();
    expect(await eventually(() => hub.publishMany([]), (receipt) => !receipt.watched)).toEqual({ watched: false });
  });

  it("publishes a small operator's chargers straight to its hub: the registration counts the operator's points", async () => {
    const { serialNumber, operatorId } = await makeCharger("0PL002");
    const operator = (await env.DB.prepare("SELECT id, code FROM operators WHERE id = ?").bind(operatorId).first<{ id: number; code: string }>())!;
    const row = (await findCharger(systemCtx(env, operator, "test"), serialNumber))!;
    const { total } = (await env.DB.prepare("SELECT count(*) AS total FROM points WHERE operator_id = ?").bind(operatorId).first<{ total: number }>())!;
    expect(row.operatorPoints).toBe(total);
    expect(registrationOf(row).liveShard).toBe(0);
  });
});
