import { afterEach, describe, expect, it } from "vitest";
import { SECURITY_ACTIONS, SERVER_ACTIONS, type OcppRequest, type OcppResponse, type SecurityAction, type ServerAction } from "../../domain/ocpp";
import type { OcppClient } from "../../scripts/sim/rpc";
import { answering, api, bootedClient, closeClients, newCharger } from "./support";
import { exclusively } from "../e2e/support/exclusive";

exclusively("tag DEMO0001");

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const now = () => new Date().toISOString();

/**
 * The actions ocpp-rpc has schemas for: its bundle lacks the security extension, whose messages
 * are checked against their official schemas in tests/integration/ocpp16-security.test.ts.
 */
type CoreServerAction = Exclude<ServerAction, SecurityAction>;
const CORE_SERVER_ACTIONS = SERVER_ACTIONS.filter((action): action is CoreServerAction => !(SECURITY_ACTIONS as readonly string[]).includes(action));

/** For every action the central system sends: a full request and the answer the charger gives. */
const EXCHANGES: { [A in CoreServerAction]: { request: OcppRequest<A>; answer: OcppResponse<A> } } = {
  CancelReservation: { request: { reservationId: 11 }, answer: { status: "Accepted" } },
  ChangeAvailability: { request: { connectorId: 0, type: "Operative" }, answer: { status: "Accepted" } },
  ChangeConfiguration: { request: { key: "HeartbeatInterval", value: "120" }, answer: { status: "Accepted" } },
  ClearCache: { request: {}, answer: { status: "Accepted" } },
  ClearChargingProfile: { request: { connectorId: 1, chargingProfilePurpose: "TxDefaultProfile", stackLevel: 0 }, answer: { status: "Accepted" } },
  DataTransfer: { request: { vendorId: "com.example", messageId: "ping", data: '{"n":1}' }, answer: { status: "Accepted", data: "pong" } },
  GetCompositeSchedule: {
    request: { connectorId: 1, duration: 3600, chargingRateUnit: "A" },
    answer: {
      status: "Accepted",
      connectorId: 1,
      scheduleStart: now(),
      chargingSchedule: { duration: 3600, chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 16.5, numberPhases: 3 }] },
    },
  },
  GetConfiguration: {
    request: { key: ["HeartbeatInterval", "NoSuchKey"] },
    answer: { configurationKey: [{ key: "HeartbeatInterval", readonly: false, value: "300" }], unknownKey: ["NoSuchKey"] },
  },
  GetDiagnostics: {
    request: { location: "ftp://diagnostics.example.com/upload", retries: 2, retryInterval: 30, startTime: now(), stopTime: inAnHour() },
    answer: { fileName: "diagnostics.log" },
  },
  GetLocalListVersion: { request: {}, answer: { listVersion: 3 } },
  RemoteStartTransaction: { request: { connectorId: 2, idTag: "DEMO0001" }, answer: { status: "Accepted" } },
  RemoteStopTransaction: { request: { transactionId: 123 }, answer: { status: "Accepted" } },
  ReserveNow: { request: { connectorId: 1, expiryDate: inAnHour(), idTag: "DEMO0001", parentIdTag: "DEMO0001", reservationId: 11 }, answer: { status: "Accepted" } },
  Reset: { request: { type: "Soft" }, answer: { status: "Accepted" } },
  SendLocalList: {
    request: {
      listVersion: 4,
      updateType: "Full",
      localAuthorizationList: [{ idTag: "DEMO0001", idTagInfo: { status: "Accepted", expiryDate: inAnHour() } }, { idTag: "DEMO0002" }],
    },
    answer: { status: "Accepted" },
  },
  SetChargingProfile: {
    request: {
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: 7,
        stackLevel: 1,
        chargingProfilePurpose: "ChargePointMaxProfile",
        chargingProfileKind: "Recurring",
        recurrencyKind: "Daily",
        validFrom: now(),
        validTo: inAnHour(),
        chargingSchedule: {
          duration: 86_400,
          startSchedule: now(),
          chargingRateUnit: "W",
          chargingSchedulePeriod: [
            { startPeriod: 0, limit: 11_000.5 },
            { startPeriod: 3600, limit: 7_400, numberPhases: 1 },
          ],
          minChargingRate: 1_400.1,
        },
      },
    },
    answer: { status: "Accepted" },
  },
  TriggerMessage: { request: { requestedMessage: "MeterValues", connectorId: 1 }, answer: { status: "Accepted" } },
  UnlockConnector: { request: { connectorId: 2 }, answer: { status: "Unlocked" } },
  UpdateFirmware: { request: { location: "https://firmware.example.com/v2.bin", retrieveDate: inAnHour(), retries: 3, retryInterval: 60 }, answer: {} },
};

/** Answers `action` as EXCHANGES says; answers the payloads received. */
const answerAsListed = <A extends CoreServerAction>(client: OcppClient, action: A) => answering(client, action, EXCHANGES[action].answer).received;

describe("strict mode both ways (ocpp-rpc validates every frame against the OCPP 1.6 schemas)", () => {
  afterEach(closeClients);

  it("every answer the server gives a charger passes strict validation", async () => {
    const point = await newCharger();
    const { client, boot } = await bootedClient(point.serialNumber, point.key);
    expect(boot.status).toBe("Accepted");
    await client.call("BootNotification", {
      chargePointVendor: "PeerTest",
      chargePointModel: "every field",
      chargePointSerialNumber: "CPS-1",
      chargeBoxSerialNumber: "CBS-1",
      firmwareVersion: "2.0.0",
      iccid: "8948000000000000001",
      imsi: "260010000000001",
      meterType: "MID meter",
      meterSerialNumber: "M-1",
    });
    await client.call("Heartbeat", {});
    await client.call("StatusNotification", { connectorId: 2, errorCode: "HighTemperature", status: "Faulted", info: "hot", vendorId: "com.example", vendorErrorCode: "T1", timestamp: now() });
    await client.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Available", timestamp: now() });
    await client.call("Authorize", { idTag: "DEMO0003" });
    const started = await client.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 10, timestamp: now(), reservationId: 99 });
    await client.call("MeterValues", {
      connectorId: 1,
      transactionId: started.transactionId,
      meterValue: [
        {
          timestamp: now(),
          sampledValue: [
            { value: "0.5", context: "Sample.Clock", format: "Raw", measurand: "Energy.Active.Import.Register", location: "Outlet", unit: "kWh" },
            { value: "3.6", measurand: "Power.Active.Import", phase: "L1", unit: "kW" },
            { value: "16", measurand: "Current.Import", phase: "L1-N", unit: "A" },
            { value: "400", measurand: "Voltage", phase: "L1-L2", unit: "V" },
            { value: "31", measurand: "Temperature", unit: "Celcius", location: "Body" },
            { value: "opaque", format: "SignedData" },
          ],
        },
      ],
    });
    await client.call("StopTransaction", {
      transactionId: started.transactionId,
      meterStop: 600,
      timestamp: now(),
      reason: "EVDisconnected",
      transactionData: [{ timestamp: now(), sampledValue: [{ value: "600", context: "Transaction.End" }] }],
    });
    expect(await client.call("DataTransfer", { vendorId: "com.example", messageId: "hello", data: "x" })).toEqual({ status: "UnknownVendorId" });
    await client.call("FirmwareStatusNotification", { status: "Installed" });
    await client.call("DiagnosticsStatusNotification", { status: "Uploaded" });

    expect(client.validationFailures).toEqual([]);
    expect(client.badMessages).toEqual([]);
  });

  it("every CALL the server sends through the API passes strict validation, and each reply comes back as sent", async () => {
    const point = await newCharger();
    const a = await api();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const seen = new Map<string, unknown[]>();
    for (const action of CORE_SERVER_ACTIONS) {
      seen.set(action, answerAsListed(client, action));
    }

    for (const action of CORE_SERVER_ACTIONS) {
      const { request, answer } = EXCHANGES[action];
      const res = await a.request("POST", `/station-service/point/${point.id}/command`, { action, payload: request });
      expect({ action, status: res.status, data: res.body.data }).toEqual({ action, status: 200, data: answer });
    }
    // The dedicated endpoints build their own payloads: a remote start with a power limit
    // (a TxProfile), and the GET forms of composite schedule and diagnostics.
    await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1, power: 3.7 });
    await a.get(`/station-service/monitoring/getCompositeSchedule/${point.serialNumber}?connectorId=1&duration=600&chargingRateUnit=A`);
    await a.get(`/station-service/monitoring/getDiagnostics/${point.serialNumber}?location=${encodeURIComponent("ftp://diag.example.com/x")}&retries=1`);
    await a.put(`/station-service/monitoring/point/triggerMessage/${point.serialNumber}`, { requestedMessage: "StatusNotification", connectorId: 2 });
    await a.put(`/station-service/monitoring/clearChargingProfile/${point.serialNumber}`, {});
    await a.put(`/station-service/monitoring/dataTransfer/${point.serialNumber}`, { vendorId: "com.example" });

    for (const action of CORE_SERVER_ACTIONS) expect({ action, calls: seen.get(action)?.length ?? 0 }).not.toEqual({ action, calls: 0 });
    expect(seen.get("RemoteStartTransaction")?.at(-1)).toMatchObject({ connectorId: 1, chargingProfile: { chargingProfilePurpose: "TxProfile" } });
    expect(client.validationFailures).toEqual([]);
    expect(client.badMessages).toEqual([]);
  });
});
