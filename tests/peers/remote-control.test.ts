import { afterEach, describe, expect, it } from "vitest";
import type { PointRecord } from "../../scripts/sim/register";
import { answering, api, bootedClient, closeClients, newCharger, until } from "./support";
import { exclusively } from "../e2e/support/exclusive";

exclusively("tag DEMO0001");

const now = () => new Date().toISOString();

describe("remote control through the API, answered by an ocpp-rpc strict client", () => {
  afterEach(closeClients);

  it("remote start: the charger gets the operator's remote tag and the power limit, runs the session, and remote stop ends it", async () => {
    const point = await newCharger();
    const a = await api();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const starts = answering(client, "RemoteStartTransaction", { status: "Accepted" });
    const stops = answering(client, "RemoteStopTransaction", { status: "Accepted" });

    expect(await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1, power: 7.4 })).toEqual({ status: "Accepted" });
    const request = await starts.next();
    expect(request).toMatchObject({ connectorId: 1, idTag: "PLREMOTE" });
    expect(request.chargingProfile).toMatchObject({
      chargingProfilePurpose: "TxProfile",
      chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 7400 }] },
    });

    // What a charger does next (OCPP 1.6 §5.11): authorise the tag, start, report Charging.
    expect((await client.call("Authorize", { idTag: request.idTag })).idTagInfo.status).toBe("Accepted");
    const started = await client.call("StartTransaction", { connectorId: 1, idTag: request.idTag, meterStart: 500, timestamp: now() });
    expect(started.idTagInfo.status).toBe("Accepted");
    await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging" });

    expect(await a.put(`/station-service/remoteControl/${point.id}/remoteStop/${started.transactionId}`)).toEqual({ status: "Accepted" });
    expect(await stops.next()).toEqual({ transactionId: started.transactionId });
    const stopped = await client.call("StopTransaction", { transactionId: started.transactionId, idTag: request.idTag, meterStop: 900, timestamp: now(), reason: "Remote" });
    expect(stopped.idTagInfo?.status).toBe("Accepted");
    expect(client.validationFailures).toEqual([]);
  });

  it("a refusal: the charger answers Rejected and the API answers 409 with the reply", async () => {
    const point = await newCharger();
    const a = await api();
    const { client } = await bootedClient(point.serialNumber, point.key);
    answering(client, "RemoteStartTransaction", { status: "Rejected" });
    answering(client, "UnlockConnector", { status: "UnlockFailed" });

    const start = await a.request("PUT", `/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 2, idTag: "DEMO0001" });
    expect(start.status).toBe(409);
    expect(start.body).toMatchObject({ code: 409, data: { status: "Rejected" } });

    const unlock = await a.request("PUT", `/station-service/remoteControl/unlockConnector/${point.id}`, { connectorId: 1 });
    expect(unlock.status).toBe(409);
    expect(unlock.body.data).toEqual({ status: "UnlockFailed" });
    expect(client.validationFailures).toEqual([]);
  });

  it("an offline charger: 409 at once, before it ever connected and after it left", async () => {
    const point = await newCharger();
    const a = await api();
    const asked = Date.now();
    const never = await a.request("PUT", `/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 });
    expect(never.status).toBe(409);
    expect(Date.now() - asked).toBeLessThan(5_000);

    const { client } = await bootedClient(point.serialNumber, point.key);
    await until(async () => (await a.get<PointRecord>(`/station-service/point/${point.id}`)).online, "the point online");
    await client.close();
    await until(async () => !(await a.get<PointRecord>(`/station-service/point/${point.id}`)).online, "the point offline");
    const gone = await a.request("PUT", `/station-service/monitoring/reset/point/${point.serialNumber}`, { type: "Soft" });
    expect(gone.status).toBe(409);
    expect(gone.body.code).toBe(409);
  });

  it("Reset: Accepted, the charger closes, reconnects and boots again", async () => {
    const point = await newCharger();
    const a = await api();
    const { client } = await bootedClient(point.serialNumber, point.key);
    // The boot reaches D1 in a batch after its answer (docs/rules/ocpp.md "Hot path").
    const firstBoot = await until(async () => (await a.get<PointRecord & { lastBootAt: string | null }>(`/station-service/point/${point.id}`)).lastBootAt, "the first boot");
    const resets = answering(client, "Reset", { status: "Accepted" });

    expect(await a.put(`/station-service/monitoring/reset/point/${point.serialNumber}`, { type: "Hard" })).toEqual({ status: "Accepted" });
    expect(await resets.next()).toEqual({ type: "Hard" });
    await client.close(1012, "Hard reset");

    const { client: rebooted, boot } = await bootedClient(point.serialNumber, point.key);
    expect(boot.status).toBe("Accepted");
    const detail = await until(async () => {
      const p = await a.get<PointRecord & { lastBootAt: string }>(`/station-service/point/${point.id}`);
      return p.online && p.lastBootAt > firstBoot && p;
    }, "a later boot, online");
    expect(detail.connectors.map((c) => c.status)).toEqual(["Available", "Available"]);
    expect(rebooted.validationFailures).toEqual([]);
  });
});
