import type { AddressInfo } from "node:net";
import { RPCServer, type IHandlersOption, type RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimCharger201 } from "../../scripts/sim/charger201";

/**
 * The simulator's OCPP 2.0.1 Charging Station against an independent strict CSMS: ocpp-rpc's
 * RPCServer validates every frame both ways against the official 2.0.1 schemas, as the
 * station's own client does. The test plays the CSMS and checks what a CSMS would see.
 */

interface Received {
  action: string;
  params: Record<string, unknown>;
  at: number;
}

const SERIAL = "SIM201-T1";
const FIRST_KEY = "0123456789abcdef0123456789abcdef01234567";
const NEW_KEY = "fedcba9876543210fedcba9876543210fedcba98";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const token = { idToken: "DEMO0001", type: "ISO14443" };

const received: Received[] = [];
const serverFailures: unknown[] = [];
const passwords: string[] = [];
let bootsAnswered = 0;
let station: RPCClient | undefined;
let server: RPCServer;
let sim: SimCharger201;

const of = (action: string) => received.filter((r) => r.action === action).map((r) => r.params);
/** A CALL from the CSMS to the station connected now; strict mode has checked the answer against its schema. */
async function ask(action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!station) throw new Error("no station connected");
  return (await station.call(action, params)) as Record<string, unknown>;
}

/** Waits until `check` stops throwing, as a CSMS waits for the messages it expects. */
async function until<T>(check: () => T, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The CSMS's answers: the first boot Pending for a second (B02), then Accepted; a running cost on every transaction event. */
function answer(action: string, params: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  switch (action) {
    case "BootNotification":
      return bootsAnswered++ === 0 ? { currentTime: now, interval: 1, status: "Pending" } : { currentTime: now, interval: 300, status: "Accepted" };
    case "Heartbeat":
      return { currentTime: now };
    case "Authorize":
      return { idTokenInfo: { status: "Accepted" } };
    case "TransactionEvent":
      return params.eventType === "Started" ? { totalCost: 0, idTokenInfo: { status: "Accepted" } } : { totalCost: 1.23 };
    default:
      return {};
  }
}

beforeAll(async () => {
  server = new RPCServer({ protocols: ["ocpp2.0.1"], strictMode: true });
  server.auth((accept, _reject, handshake) => {
    passwords.push(handshake.password?.toString("utf8") ?? "");
    accept();
  });
  server.on("client", (client: RPCClient) => {
    station = client;
    client.on("strictValidationFailure", (failure: unknown) => serverFailures.push(failure));
    client.handle(async ({ method = "", params = {} }: IHandlersOption) => {
      received.push({ action: method, params, at: Date.now() });
      return answer(method, params);
    });
  });
  const http = await server.listen(0, "127.0.0.1");
  const { port } = http.address() as AddressInfo;
  sim = new SimCharger201(
    { serialNumber: SERIAL, key: FIRST_KEY, connectors: 2, connectorPowerW: 75_000, type: "DC" },
    { endpoint: `ws://127.0.0.1:${port}/ocpp`, meterIntervalS: 1, stepMs: 100, log: () => {} },
  );
  await sim.start();
});

afterAll(async () => {
  await sim.stop();
  await server.close({ force: true });
});

describe("the simulated OCPP 2.0.1 Charging Station", () => {
  it("boots again after a Pending answer, sends nothing else meanwhile, and reports each EVSE's connector", async () => {
    const statuses = await until(() => {
      const list = of("StatusNotification");
      expect(list).toHaveLength(2);
      return list;
    });
    const boots = received.filter((r) => r.action === "BootNotification");
    expect(boots).toHaveLength(2);
    expect(boots[0].params).toMatchObject({ reason: "PowerUp", chargingStation: { model: "Simulator", vendorName: "Plugdesk", serialNumber: SERIAL, firmwareVersion: "1.0.0" } });
    // B02: nothing but BootNotification before the boot is Accepted, and the retry waits the interval given.
    expect(received.indexOf(boots[1])).toBe(1);
    expect(boots[1].at - boots[0].at).toBeGreaterThanOrEqual(900);
    expect(statuses).toEqual([
      expect.objectContaining({ evseId: 1, connectorId: 1, connectorStatus: "Available" }),
      expect.objectContaining({ evseId: 2, connectorId: 1, connectorStatus: "Available" }),
    ]);
  });

  it("runs a remote start as one transaction: Started, Updated with meter values, Ended, with seqNo from 0 and one transactionId", async () => {
    expect(await ask("RequestStartTransaction", { evseId: 1, remoteStartId: 42, idToken: token })).toEqual({ status: "Accepted" });
    const started = await until(() => {
      const [event] = of("TransactionEvent");
      expect(event).toBeDefined();
      return event;
    });
    const transactionId = (started.transactionInfo as { transactionId: string }).transactionId;
    expect(transactionId).toMatch(UUID);
    expect(started).toMatchObject({
      eventType: "Started",
      triggerReason: "RemoteStart",
      seqNo: 0,
      evse: { id: 1, connectorId: 1 },
      idToken: token,
      transactionInfo: { transactionId, chargingState: "Charging", remoteStartId: 42 },
      meterValue: [{ sampledValue: [{ context: "Transaction.Begin", measurand: "Energy.Active.Import.Register" }] }],
    });
    expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 1, connectorStatus: "Occupied" });

    await until(() => expect(of("TransactionEvent").filter((e) => e.eventType === "Updated").length).toBeGreaterThanOrEqual(1), 4_000);
    expect(await ask("RequestStopTransaction", { transactionId })).toEqual({ status: "Accepted" });
    const events = await until(() => {
      const list = of("TransactionEvent");
      expect(list.at(-1)?.eventType).toBe("Ended");
      return list;
    });

    expect(events.map((e) => e.seqNo)).toEqual(events.map((_, i) => i));
    expect(new Set(events.map((e) => (e.transactionInfo as { transactionId: string }).transactionId))).toEqual(new Set([transactionId]));
    const updated = events.find((e) => e.eventType === "Updated");
    expect(updated).toMatchObject({ triggerReason: "MeterValuePeriodic" });
    const periodic = (updated?.meterValue as { sampledValue: { measurand: string; context: string; value: number }[] }[])[0].sampledValue;
    expect(periodic.map((s) => s.measurand)).toEqual(["Energy.Active.Import.Register", "Power.Active.Import", "SoC"]);
    expect(periodic.every((s) => s.context === "Sample.Periodic")).toBe(true);
    expect(periodic[1].value).toBeGreaterThan(0);
    const ended = events.at(-1);
    expect(ended).toMatchObject({
      triggerReason: "RemoteStop",
      transactionInfo: { stoppedReason: "Remote" },
      meterValue: [{ sampledValue: [{ context: "Transaction.End", measurand: "Energy.Active.Import.Register" }] }],
    });
    // The register only rises: the end reading is above the start by what was delivered.
    const register = (e: Record<string, unknown> | undefined) => (e?.meterValue as { sampledValue: { value: number }[] }[])[0].sampledValue[0].value;
    expect(register(ended)).toBeGreaterThan(register(started));
    // The car leaves a moment later: Available again.
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 1, connectorStatus: "Available" }));
  });

  it("reports its device model in several NotifyReport messages, and reads and sets variables", async () => {
    expect(await ask("GetBaseReport", { requestId: 7, reportBase: "FullInventory" })).toEqual({ status: "Accepted" });
    const parts = await until(() => {
      const list = of("NotifyReport");
      expect(list.at(-1)?.tbc).toBe(false);
      return list;
    });
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((p) => p.seqNo)).toEqual(parts.map((_, i) => i));
    expect(parts.every((p) => p.requestId === 7)).toBe(true);
    type Row = { component: { name: string; evse?: { id: number } }; variable: { name: string }; variableAttribute: { value?: string; mutability: string }[] };
    const rows = parts.flatMap((p) => p.reportData as Row[]);
    const row = (component: string, name: string, evseId?: number) =>
      rows.find((r) => r.component.name === component && r.variable.name === name && r.component.evse?.id === evseId);
    expect(row("OCPPCommCtrlr", "HeartbeatInterval")?.variableAttribute[0]).toMatchObject({ value: "300", mutability: "ReadWrite" });
    expect(row("SecurityCtrlr", "BasicAuthPassword")?.variableAttribute[0]).toEqual(expect.not.objectContaining({ value: expect.anything() }));
    expect(row("EVSE", "AvailabilityState", 2)?.variableAttribute[0]).toMatchObject({ value: "Available", mutability: "ReadOnly" });

    const got = await ask("GetVariables", {
      getVariableData: [
        { component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } },
        { component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" } },
        { component: { name: "NoSuchCtrlr" }, variable: { name: "Enabled" } },
      ],
    });
    expect((got.getVariableResult as { attributeStatus: string; attributeValue?: string }[]).map((r) => [r.attributeStatus, r.attributeValue])).toEqual([
      ["Accepted", "300"],
      ["Rejected", undefined],
      ["UnknownComponent", undefined],
    ]);

    const set = await ask("SetVariables", {
      setVariableData: [
        { component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" }, attributeValue: "short" },
        { component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" }, attributeValue: NEW_KEY },
        { component: { name: "SecurityCtrlr" }, variable: { name: "SecurityProfile" }, attributeValue: "2" },
      ],
    });
    expect((set.setVariableResult as { attributeStatus: string }[]).map((r) => r.attributeStatus)).toEqual(["Rejected", "Accepted", "Rejected"]);
  });

  it("uploads a log when asked: Uploading then Uploaded with the request's id", async () => {
    const asked = await ask("GetLog", { logType: "DiagnosticsLog", requestId: 11, log: { remoteLocation: "https://logs.example/upload" } });
    expect(asked).toMatchObject({ status: "Accepted", filename: expect.stringMatching(/^SIM201-T1-DiagnosticsLog-.*\.log$/) });
    await until(() => expect(of("LogStatusNotification")).toEqual([{ status: "Uploading", requestId: 11 }, { status: "Uploaded", requestId: 11 }]));
  });

  it("holds a reservation until it expires, then reports it Expired and the EVSE Available", async () => {
    const expiryDateTime = new Date(Date.now() + 600).toISOString();
    expect(await ask("ReserveNow", { id: 5, expiryDateTime, idToken: token, evseId: 2 })).toEqual({ status: "Accepted" });
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 2, connectorStatus: "Reserved" }));
    // Another token cannot start on the reserved EVSE.
    expect(await ask("RequestStartTransaction", { evseId: 2, remoteStartId: 43, idToken: { idToken: "OTHER", type: "ISO14443" } })).toEqual({ status: "Rejected" });
    await until(() => expect(of("ReservationStatusUpdate")).toEqual([{ reservationId: 5, reservationUpdateStatus: "Expired" }]));
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 2, connectorStatus: "Available" }));
  });

  it("caps the power with a charging profile and reports, composes and clears its profiles", async () => {
    const startSchedule = new Date(Date.now() - 60_000).toISOString();
    const chargingProfile = {
      id: 1,
      stackLevel: 0,
      chargingProfilePurpose: "TxDefaultProfile",
      chargingProfileKind: "Absolute",
      chargingSchedule: [{ id: 1, startSchedule, chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 11_000 }] }],
    };
    expect(await ask("SetChargingProfile", { evseId: 0, chargingProfile })).toEqual({ status: "Accepted" });
    expect(await ask("SetChargingProfile", { evseId: 1, chargingProfile: { ...chargingProfile, id: 2, chargingProfilePurpose: "TxProfile" } })).toMatchObject({ status: "Rejected" });
    const composite = await ask("GetCompositeSchedule", { evseId: 1, duration: 3600, chargingRateUnit: "W" });
    expect(composite).toMatchObject({ status: "Accepted", schedule: { evseId: 1, duration: 3600, chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 11_000 }] } });
    expect(await ask("GetChargingProfiles", { requestId: 3, chargingProfile: { chargingProfilePurpose: "TxDefaultProfile" } })).toEqual({ status: "Accepted" });
    await until(() => expect(of("ReportChargingProfiles")).toEqual([{ requestId: 3, chargingLimitSource: "CSO", evseId: 0, tbc: false, chargingProfile: [chargingProfile] }]));
    expect(await ask("ClearChargingProfile", { chargingProfileId: 1 })).toEqual({ status: "Accepted" });
    expect(await ask("ClearChargingProfile", { chargingProfileId: 1 })).toEqual({ status: "Unknown" });
    expect(await ask("GetChargingProfiles", { requestId: 4, chargingProfile: {} })).toEqual({ status: "NoProfiles" });
  });

  it("reports a fault with NotifyEvent and Faulted, and answers availability, triggers and local lists", async () => {
    expect(await sim.raiseFault(2, "GroundFailure")).toBe(true);
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 2, connectorStatus: "Faulted" }));
    expect(of("NotifyEvent").at(-1)).toMatchObject({
      seqNo: 0,
      eventData: [{ trigger: "Delta", actualValue: "true", techCode: "GroundFailure", component: { name: "Connector", evse: { id: 2, connectorId: 1 } }, variable: { name: "Problem" } }],
    });
    expect(await ask("ReserveNow", { id: 6, expiryDateTime: new Date(Date.now() + 60_000).toISOString(), idToken: token, evseId: 2 })).toEqual({ status: "Faulted" });
    expect(await sim.clearFault(2)).toBe(true);
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 2, connectorStatus: "Available" }));
    expect(of("NotifyEvent").at(-1)).toMatchObject({ eventData: [{ actualValue: "false", cleared: true }] });

    expect(await ask("ChangeAvailability", { evse: { id: 1 }, operationalStatus: "Inoperative" })).toEqual({ status: "Accepted" });
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 1, connectorStatus: "Unavailable" }));
    expect(await ask("ChangeAvailability", { operationalStatus: "Operative" })).toEqual({ status: "Accepted" });
    await until(() => expect(of("StatusNotification").at(-1)).toMatchObject({ evseId: 1, connectorStatus: "Available" }));

    const statusesBefore = of("StatusNotification").length;
    expect(await ask("TriggerMessage", { requestedMessage: "StatusNotification", evse: { id: 2, connectorId: 1 } })).toEqual({ status: "Accepted" });
    await until(() => expect(of("StatusNotification").slice(statusesBefore)).toEqual([expect.objectContaining({ evseId: 2, connectorStatus: "Available" })]));
    expect(await ask("TriggerMessage", { requestedMessage: "TransactionEvent" })).toMatchObject({ status: "Rejected" });
    expect(await ask("TriggerMessage", { requestedMessage: "BootNotification" })).toMatchObject({ status: "Rejected" });
    expect(await ask("TriggerMessage", { requestedMessage: "SignV2GCertificate" })).toMatchObject({ status: "NotImplemented" });

    const localAuthorizationList = [{ idToken: token, idTokenInfo: { status: "Accepted" } }];
    expect(await ask("SendLocalList", { versionNumber: 2, updateType: "Full", localAuthorizationList })).toEqual({ status: "Accepted" });
    expect(await ask("SendLocalList", { versionNumber: 2, updateType: "Differential", localAuthorizationList })).toEqual({ status: "VersionMismatch" });
    expect(await ask("GetLocalListVersion", {})).toEqual({ versionNumber: 2 });
  });

  it("installs signed firmware step by step, reboots into it with the new password, and reports Installed after its boot", async () => {
    const retrieveDateTime = new Date().toISOString();
    const asked = await ask("UpdateFirmware", { requestId: 9, firmware: { location: "https://fw.example/sim-2.0.0.bin", retrieveDateTime, signature: "c2lnbmVk" } });
    expect(asked).toEqual({ status: "Accepted" });
    await until(() => expect(of("FirmwareStatusNotification").at(-1)).toEqual({ status: "Installed", requestId: 9 }));
    expect(of("FirmwareStatusNotification").map((f) => f.status)).toEqual(["Downloading", "Downloaded", "SignatureVerified", "Installing", "InstallRebooting", "Installed"]);
    expect(of("FirmwareStatusNotification").every((f) => f.requestId === 9)).toBe(true);
    expect(of("BootNotification").at(-1)).toMatchObject({ reason: "FirmwareUpdate", chargingStation: { firmwareVersion: "sim-2.0.0" } });
    // The password SetVariables set is the one the station reconnects with (A01).
    expect(passwords).toEqual([FIRST_KEY, NEW_KEY]);
  });

  it("breaks no schema in either direction", () => {
    expect(serverFailures).toEqual([]);
    expect(sim.validationFailures).toEqual([]);
  });
});
