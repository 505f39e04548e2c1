import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SimCharger201 } from "../../scripts/sim/charger201";
import { Ocpp201Client } from "../../scripts/sim/rpc201";
import type { PointRecord } from "../../scripts/sim/register";
import { api, newCharger, ocppEndpoint, until } from "./support";

/**
 * OCPP 2.0.1 against the served product, with ocpp-rpc's strict client validating every frame both
 * ways against the official 2.0.1 schemas (docs/rules/ocpp.md "Two protocols"), and the charger
 * simulator in 2.0.1 (`npm run sim -- --ocpp 2.0.1`).
 */
const clients: Ocpp201Client[] = [];
const sims: SimCharger201[] = [];

function client201(serialNumber: string, key: string) {
  const client = new Ocpp201Client({ endpoint: ocppEndpoint, identity: serialNumber, password: key, strictMode: true, callTimeoutMs: 15_000 });
  clients.push(client);
  return client;
}

interface ChargeRecord {
  transactionId: number;
  status: string;
  transactionStatus: string;
}

const records = async (pointId: number) => (await (await api()).get<{ records: ChargeRecord[] }>(`/station-service/charge/record?pointId=${pointId}`)).records;
const point = async (pointId: number) => (await api()).get<PointRecord & { connectedVersion: string | null; ocppVersion: string }>(`/station-service/point/${pointId}`);

afterEach(async () => {
  await Promise.allSettled(sims.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
});

describe("a strict OCPP 2.0.1 client", () => {
  it("boots, reports its EVSEs, authorises and charges a priced session with every frame valid both ways", async () => {
    const made = await newCharger();
    const client = client201(made.serialNumber, made.key);
    await client.connect();
    expect(client.protocol).toBe("ocpp2.0.1");
    const boot = await client.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "PeerTest", model: "ocpp-rpc strict" } });
    expect(boot.status).toBe("Accepted");
    for (const evseId of [1, 2]) {
      await client.call("StatusNotification", { timestamp: new Date().toISOString(), connectorStatus: "Available", evseId, connectorId: 1 });
    }
    await client.call("Heartbeat", {});
    expect((await client.call("Authorize", { idToken: { idToken: "NO-SUCH-CARD", type: "ISO14443" } })).idTokenInfo.status).toBe("Invalid");
    await until(async () => (await point(made.id)).connectedVersion === "2.0.1", "the point connected in 2.0.1");

    // A remote start from the API, answered as a station does: the Started event names its remoteStartId.
    let remoteStartId: number | undefined;
    client.handle("RequestStartTransaction", (request) => {
      remoteStartId = request.remoteStartId;
      return { status: "Accepted" };
    });
    const a = await api();
    expect(await a.put(`/station-service/remoteControl/remoteStart/${made.id}`, { connectorId: 1 })).toEqual({ status: "Accepted" });
    const transactionId = crypto.randomUUID();
    const energy = (wh: number, context: "Transaction.Begin" | "Sample.Periodic" | "Transaction.End") => [
      { timestamp: new Date().toISOString(), sampledValue: [{ value: wh, context, measurand: "Energy.Active.Import.Register" as const, unitOfMeasure: { unit: "Wh" } }] },
    ];
    await client.call("TransactionEvent", {
      eventType: "Started",
      timestamp: new Date().toISOString(),
      triggerReason: "RemoteStart",
      seqNo: 0,
      transactionInfo: { transactionId, chargingState: "Charging", remoteStartId: remoteStartId! },
      evse: { id: 1, connectorId: 1 },
      meterValue: energy(10_000, "Transaction.Begin"),
    });
    await client.call("TransactionEvent", {
      eventType: "Updated",
      timestamp: new Date().toISOString(),
      triggerReason: "MeterValuePeriodic",
      seqNo: 1,
      transactionInfo: { transactionId, chargingState: "Charging" },
      meterValue: energy(12_000, "Sample.Periodic"),
    });
    const ours = await until(async () => (await records(made.id))[0], "the session's record");

    let stopped: string | undefined;
    client.handle("RequestStopTransaction", (request) => {
      stopped = request.transactionId;
      return { status: "Accepted" };
    });
    expect(await a.put(`/station-service/remoteControl/${made.id}/remoteStop/${ours.transactionId}`, {})).toEqual({ status: "Accepted" });
    expect(stopped).toBe(transactionId);
    await client.call("TransactionEvent", {
      eventType: "Ended",
      timestamp: new Date().toISOString(),
      triggerReason: "RemoteStop",
      seqNo: 2,
      transactionInfo: { transactionId, chargingState: "EVConnected", stoppedReason: "Remote" },
      meterValue: energy(15_000, "Transaction.End"),
    });
    await until(async () => (await records(made.id)).find((r) => r.transactionStatus === "COMPLETED"), "the stop recorded");
    expect(client.validationFailures).toEqual([]);
  });
});

describe("the charger simulator in 2.0.1", () => {
  it("charges from a remote start to a remote stop, and the console sees it as a 2.0.1 point", async () => {
    const made = await newCharger();
    const lines: string[] = [];
    const sim = new SimCharger201(
      { serialNumber: made.serialNumber, key: made.key, connectors: 2, connectorPowerW: 11_000, type: "AC" },
      { endpoint: ocppEndpoint, meterIntervalS: 1, log: (line) => lines.push(line), stepMs: 100 },
    );
    sims.push(sim);
    await sim.start();
    const a = await api();
    await until(async () => {
      const p = await point(made.id);
      return p.connectedVersion === "2.0.1" && p.connectors[0].status === "Available";
    }, "the simulator online in 2.0.1");
    await a.put(`/station-service/remoteControl/remoteStart/${made.id}`, { connectorId: 1 });
    const running = await until(async () => (await records(made.id)).find((r) => r.transactionStatus === "ACTIVE"), "the simulated session running");
    await until(async () => (await point(made.id)).connectors[0].status === "Charging", "connector 1 Charging");
    await a.put(`/station-service/remoteControl/${made.id}/remoteStop/${running.transactionId}`, {});
    await until(async () => (await records(made.id)).find((r) => r.transactionId === running.transactionId && r.transactionStatus === "COMPLETED"), "the simulated session stopped");
    expect(sim.validationFailures).toEqual([]);
  });
});

describe("a strict OCPP 2.0.1 client and the console's commands", () => {
  it("takes every command the console sends a 2.0.1 point, and every report it sends back, with every frame valid both ways", async () => {
    const made = await newCharger();
    const client = client201(made.serialNumber, made.key);
    await client.connect();
    await client.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "PeerTest", model: "ocpp-rpc strict" } });
    for (const evseId of [1, 2]) {
      await client.call("StatusNotification", { timestamp: new Date().toISOString(), connectorStatus: "Available", evseId, connectorId: 1 });
    }
    await until(async () => (await point(made.id)).connectedVersion === "2.0.1", "the point connected in 2.0.1");
    const asked: Record<string, unknown[]> = {};
    const answer = (action: string, reply: (request: any) => Record<string, unknown>) =>
      client.handle(action as never, ((request: unknown) => {
        (asked[action] ??= []).push(request);
        return reply(request);
      }) as never);
    answer("Reset", () => ({ status: "Accepted" }));
    answer("TriggerMessage", () => ({ status: "Accepted" }));
    answer("UnlockConnector", () => ({ status: "Unlocked" }));
    answer("ClearChargingProfile", () => ({ status: "Accepted" }));
    answer("GetCompositeSchedule", (r) => ({
      status: "Accepted",
      schedule: { evseId: r.evseId, duration: r.duration, scheduleStart: new Date().toISOString(), chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 22_000 }] },
    }));
    answer("DataTransfer", () => ({ status: "Accepted", data: "pong" }));
    answer("GetLog", () => ({ status: "Accepted", filename: "log.tar.gz" }));
    answer("GetLocalListVersion", () => ({ versionNumber: 0 }));
    answer("ReserveNow", () => ({ status: "Accepted" }));
    answer("CancelReservation", () => ({ status: "Accepted" }));

    const a = await api();
    const serial = made.serialNumber;
    await a.put(`/station-service/monitoring/reset/point/${serial}`, { type: "Hard" });
    await a.put(`/station-service/monitoring/point/triggerMessage/${serial}`, { requestedMessage: "StatusNotification", connectorId: 2 });
    await a.put(`/station-service/remoteControl/unlockConnector/${made.id}`, { connectorId: 1 });
    await a.put(`/station-service/monitoring/clearChargingProfile/${serial}`, { connectorId: 1, chargingProfilePurpose: "TxDefaultProfile" });
    await a.get(`/station-service/monitoring/getCompositeSchedule/${serial}?connectorId=1&duration=3600`);
    await a.put(`/station-service/monitoring/dataTransfer/${serial}`, { vendorId: "com.example", messageId: "ping", data: "ping" });
    await a.get(`/station-service/monitoring/getDiagnostics/${serial}?location=${encodeURIComponent("ftp://logs.example.com/upload")}`);
    await a.get(`/station-service/monitoring/getLocalListVersion/${serial}`);
    // H01: a reservation of EVSE 2 for a demo tag, then its cancellation (H02).
    const reservation = await a.post<{ id: number }>("/station-service/reservation", {
      pointId: made.id,
      connectorId: 2,
      idTag: "PLREMOTE",
      expiryDate: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    await until(async () => asked.ReserveNow?.length, "ReserveNow sent");
    await a.put(`/station-service/reservation/${reservation.id}/cancel`, {});
    await until(async () => asked.CancelReservation?.length, "CancelReservation sent");

    // Each 1.6 word went as its 2.0.1 twin (docs/rules/ocpp.md "Two protocols").
    expect(asked.Reset).toEqual([{ type: "Immediate" }]);
    expect(asked.TriggerMessage).toEqual([{ requestedMessage: "StatusNotification", evse: { id: 2 } }]);
    expect(asked.UnlockConnector).toEqual([{ evseId: 1, connectorId: 1 }]);
    expect(asked.GetCompositeSchedule).toEqual([expect.objectContaining({ evseId: 1, duration: 3600 })]);
    expect(asked.DataTransfer).toEqual([{ vendorId: "com.example", messageId: "ping", data: "ping" }]);
    expect(asked.GetLog).toEqual([expect.objectContaining({ logType: "DiagnosticsLog", log: expect.objectContaining({ remoteLocation: "ftp://logs.example.com/upload" }) })]);
    expect(asked.ReserveNow).toEqual([expect.objectContaining({ evseId: 2, idToken: expect.objectContaining({ idToken: "PLREMOTE" }) })]);
    expect(Object.keys(asked).sort()).toEqual(
      ["CancelReservation", "ClearChargingProfile", "DataTransfer", "GetCompositeSchedule", "GetLocalListVersion", "GetLog", "ReserveNow", "Reset", "TriggerMessage", "UnlockConnector"].sort(),
    );

    // What a station reports back on its own is answered, valid both ways.
    const now = () => new Date().toISOString();
    await client.call("LogStatusNotification", { status: "Uploading", requestId: (asked.GetLog[0] as { requestId: number }).requestId });
    await client.call("FirmwareStatusNotification", { status: "Idle" });
    await client.call("SecurityEventNotification", { type: "SettingSystemTime", timestamp: now() });
    await client.call("NotifyEvent", {
      generatedAt: now(),
      seqNo: 0,
      eventData: [
        { eventId: 1, timestamp: now(), trigger: "Delta", actualValue: "true", eventNotificationType: "HardWiredNotification", component: { name: "Connector", evse: { id: 1, connectorId: 1 } }, variable: { name: "Problem" } },
      ],
    });
    await client.call("MeterValues", { evseId: 1, meterValue: [{ timestamp: now(), sampledValue: [{ value: 1234, measurand: "Energy.Active.Import.Register" }] }] });
    await client.call("DataTransfer", { vendorId: "com.example" });
    expect(client.validationFailures).toEqual([]);
  });
});
