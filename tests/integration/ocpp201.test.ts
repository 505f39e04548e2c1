import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { at, card, energy, OCPP201, startedBy } from "../support/ocpp201";
import { makeCharger } from "./support/factories";
import { makeCard } from "./support/drivers";
import { connect, eventually, freshTag, landed } from "./support/charger";
import { row } from "./support/d1";
import { call, tokenFor } from "./support/http";

/**
 * OCPP 2.0.1 beside 1.6J (docs/rules/ocpp.md "Two protocols"): the same endpoint and key, the
 * subprotocol chosen by what the charger offers and the point admits, and the use cases of Part 2
 * translated into the same records as a 1.6 charger's.
 */

async function online201(options: Parameters<typeof makeCharger>[1] = {}) {
  const made = await makeCharger("0PL002", { type: "DC", ...options });
  const charger = (await connect(made.serialNumber, { key: made.key, protocols: OCPP201 })).charger!;
  const boot = await charger.call("BootNotification", {
    reason: "PowerUp",
    chargingStation: { vendorName: "Alpitronic", model: "HYC300", serialNumber: "HY-1", firmwareVersion: "2.4.1", modem: { iccid: "8948000000000000009", imsi: "260000000000009" } },
  });
  for (const evseId of [1, 2]) {
    await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId, connectorId: 1 });
  }
  return { ...made, charger, boot };
}

describe("the subprotocol", () => {
  it("is 2.0.1 when offered and admitted, 1.6 when the point admits only that, and refused when nothing offered is admitted", async () => {
    const auto = await makeCharger("0PL002");
    const both = await connect(auto.serialNumber, { key: auto.key, protocols: "ocpp1.6, ocpp2.0.1" });
    expect(both.response.headers.get("Sec-WebSocket-Protocol")).toBe(OCPP201);
    both.charger!.close();

    const only16 = await makeCharger("0PL002", { ocppVersion: "OCPP16" });
    const chosen16 = await connect(only16.serialNumber, { key: only16.key, protocols: "ocpp2.0.1, ocpp1.6" });
    expect(chosen16.response.headers.get("Sec-WebSocket-Protocol")).toBe("ocpp1.6");
    chosen16.charger!.close();
    const refused16 = await connect(only16.serialNumber, { key: only16.key, protocols: OCPP201 });
    expect(refused16.status).toBe(400);
    expect(await refused16.response.text()).toContain("ocpp1.6");

    const only201 = await makeCharger("0PL002", { ocppVersion: "OCPP201" });
    expect((await connect(only201.serialNumber, { key: only201.key, protocols: "ocpp1.6" })).status).toBe(400);
    // The same 404 and 401 as 1.6 before any protocol is looked at.
    expect((await connect("NO-SUCH-POINT", { protocols: OCPP201 })).status).toBe(404);
    expect((await connect(only201.serialNumber, { key: "00".repeat(20), protocols: OCPP201 })).status).toBe(401);
  });

  it("is recorded as the point's connected version while it is connected", async () => {
    const { pointId, charger } = await online201();
    await landed();
    expect(await row("SELECT online, connected_version FROM points WHERE id = ?", pointId)).toEqual({ online: 1, connected_version: "2.0.1" });
    charger.close();
    const gone = await eventually(
      async () => {
        await landed();
        return row<{ online: number; connected_version: string | null }>("SELECT online, connected_version FROM points WHERE id = ?", pointId);
      },
      (r) => r?.online === 0,
    );
    expect(gone).toEqual({ online: 0, connected_version: null });
  });
});

describe("provisioning (B01–B03)", () => {
  it("accepts an enabled point with the interval and keeps what the station says of itself", async () => {
    const { pointId, boot } = await online201();
    expect(boot).toMatchObject({ status: "Accepted", interval: 300 });
    expect(Date.parse(boot.currentTime)).toBeGreaterThan(0);
    await landed();
    expect(await row("SELECT vendor, model, firmware_version, box_serial_number, iccid, imsi FROM points WHERE id = ?", pointId)).toEqual({
      vendor: "Alpitronic",
      model: "HYC300",
      firmware_version: "2.4.1",
      box_serial_number: "HY-1",
      iccid: "8948000000000000009",
      imsi: "260000000000009",
    });
  });

  it("answers a disabled point Pending", async () => {
    const { boot } = await online201({ enabled: false });
    expect(boot.status).toBe("Pending");
  });
});

describe("framing in 2.0.1's words (Part 4 §4.3)", () => {
  it("answers every bad CALL with the 2.0.1 error code", async () => {
    const { charger } = await online201();
    const code = (action: string, payload: unknown) => charger.call(action, payload).then(() => "answered", (e: { code: string }) => e.code);
    expect(await code("Heartbeat", [])).toBe("FormatViolation");
    expect(await code("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId: 1 })).toBe("OccurrenceConstraintViolation");
    expect(await code("StatusNotification", { timestamp: at(), connectorStatus: "Charging", evseId: 1, connectorId: 1 })).toBe("PropertyConstraintViolation");
    expect(await code("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId: "1", connectorId: 1 })).toBe("TypeConstraintViolation");
    expect(await code("Heartbeat", { extra: 1 })).toBe("PropertyConstraintViolation");
    expect(await code("StartTransaction", {})).toBe("NotImplemented");
    expect(await code("RequestStartTransaction", {})).toBe("NotSupported");
    expect(await code("Get15118EVCertificate", {})).toBe("NotSupported");
    expect(await charger.raw("not json")).toEqual([4, "-1", "RpcFrameworkError", expect.any(String), {}]);
    expect(await charger.raw(JSON.stringify([7, "m1", "Heartbeat", {}]))).toEqual([4, "m1", "MessageTypeNotSupported", expect.any(String), {}]);
  });
});

describe("authorization (C01)", () => {
  it("answers from the same registry as 1.6, in idTokenInfo", async () => {
    const { charger, pointId } = await online201();
    const idTag = await freshTag(pointId);
    expect(await charger.call("Authorize", { idToken: card(idTag) })).toEqual({ idTokenInfo: { status: "Accepted" } });
    expect(await charger.call("Authorize", { idToken: card("NOBODY-KNOWS") })).toMatchObject({ idTokenInfo: { status: "Invalid" } });
  });
});

describe("transactions (E01–E13)", () => {
  it("records a card-first transaction under the charger's id, its readings, its stop and its bill, and a repeat changes nothing", async () => {
    const { charger, pointId } = await online201();
    const idTag = await freshTag(pointId);
    const transactionId = crypto.randomUUID();
    const started = await charger.call("TransactionEvent", startedBy(card(idTag), transactionId, { evseId: 2, timestamp: at(-600), meterWh: 1000 }));
    expect(started.idTokenInfo.status).toBe("Accepted");
    const tx = await row<{ id: number; connector_no: number; meter_start_wh: number; status: string; id_tag: string }>(
      "SELECT id, connector_no, meter_start_wh, status, id_tag FROM transactions WHERE charger_transaction_id = ?",
      transactionId,
    );
    expect(tx).toMatchObject({ connector_no: 2, meter_start_wh: 1000, status: "ACTIVE", id_tag: idTag });

    const updated = {
      eventType: "Updated",
      timestamp: at(-300),
      triggerReason: "MeterValuePeriodic",
      seqNo: 1,
      transactionInfo: { transactionId, chargingState: "Charging" },
      meterValue: [{ timestamp: at(-300), sampledValue: [{ value: 3.5, measurand: "Energy.Active.Import.Register", context: "Sample.Periodic", unitOfMeasure: { unit: "kWh" } }] }],
    };
    expect(await charger.call("TransactionEvent", updated)).toEqual({});
    expect(await charger.call("TransactionEvent", updated)).toEqual({});

    const ended = {
      eventType: "Ended",
      timestamp: at(),
      triggerReason: "EVCommunicationLost",
      seqNo: 2,
      transactionInfo: { transactionId, chargingState: "Idle", stoppedReason: "EVDisconnected" },
      meterValue: energy(6000, "Transaction.End"),
    };
    expect(await charger.call("TransactionEvent", ended)).toEqual({});
    const billed = await eventually(
      () => row<{ energy_wh: number | null; status: string; stop_reason: string; meter_stop_wh: number }>("SELECT energy_wh, status, stop_reason, meter_stop_wh FROM transactions WHERE id = ?", tx!.id),
      (r) => r?.energy_wh !== null,
    );
    expect(billed).toEqual({ energy_wh: 5000, status: "COMPLETED", stop_reason: "EVDisconnected", meter_stop_wh: 6000 });
    expect(await row("SELECT charger_transaction_id FROM charge_records WHERE transaction_id = ?", tx!.id)).toEqual({ charger_transaction_id: transactionId });

    // A late repeat of the end, and of the start, change nothing twice.
    expect(await charger.call("TransactionEvent", ended)).toEqual({});
    expect(await row("SELECT count(*) AS n FROM transactions WHERE charger_transaction_id = ?", transactionId)).toEqual({ n: 1 });
  });

  it("starts a plug-in-first transaction when its id token comes (E02), from the time it started", async () => {
    const { charger, pointId } = await online201();
    const idTag = await freshTag(pointId);
    const transactionId = crypto.randomUUID();
    const pluggedAt = at(-120);
    await charger.call("TransactionEvent", {
      eventType: "Started",
      timestamp: pluggedAt,
      triggerReason: "CablePluggedIn",
      seqNo: 0,
      transactionInfo: { transactionId, chargingState: "EVConnected" },
      evse: { id: 1, connectorId: 1 },
      meterValue: energy(200, "Transaction.Begin"),
    });
    expect(await row("SELECT id FROM transactions WHERE charger_transaction_id = ?", transactionId)).toBeNull();
    const authorized = await charger.call("TransactionEvent", {
      eventType: "Updated",
      timestamp: at(),
      triggerReason: "Authorized",
      seqNo: 1,
      transactionInfo: { transactionId, chargingState: "Charging" },
      idToken: card(idTag),
    });
    expect(authorized.idTokenInfo.status).toBe("Accepted");
    const tx = await row<{ start_at: number; meter_start_wh: number; connector_no: number }>(
      "SELECT start_at, meter_start_wh, connector_no FROM transactions WHERE charger_transaction_id = ?",
      transactionId,
    );
    expect(tx).toEqual({ start_at: Date.parse(pluggedAt), meter_start_wh: 200, connector_no: 1 });
  });
});

describe("remote control of a 2.0.1 charger through the existing API (F01–F03, B11)", () => {
  it("starts with RequestStartTransaction tied to its remoteStartId, stops with the charger's transaction id, resets OnIdle", async () => {
    const { charger, pointId, serialNumber } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    let request: any;
    charger.answer("RequestStartTransaction", (payload) => {
      request = payload;
      return { status: "Accepted" };
    });
    const start = await call("PUT", `/station-service/remoteControl/remoteStart/${pointId}`, { token, body: { connectorId: 2 } });
    expect(start.status).toBe(200);
    expect(start.body.data).toEqual({ status: "Accepted" });
    expect(request).toMatchObject({ evseId: 2, idToken: { idToken: "PLREMOTE", type: "Central" }, remoteStartId: expect.any(Number) });

    const transactionId = crypto.randomUUID();
    const started = await charger.call("TransactionEvent", {
      eventType: "Started",
      timestamp: at(),
      triggerReason: "RemoteStart",
      seqNo: 0,
      transactionInfo: { transactionId, chargingState: "Charging", remoteStartId: request.remoteStartId },
      evse: { id: 2, connectorId: 1 },
      meterValue: energy(0, "Transaction.Begin"),
    });
    expect(started.idTokenInfo).toBeDefined();
    const tx = await row<{ id: number; id_tag: string }>("SELECT id, id_tag FROM transactions WHERE charger_transaction_id = ?", transactionId);
    expect(tx?.id_tag).toBe("PLREMOTE");

    let stopped: any;
    charger.answer("RequestStopTransaction", (payload) => {
      stopped = payload;
      return { status: "Accepted" };
    });
    const stop = await call("PUT", `/station-service/remoteControl/${pointId}/remoteStop/${tx!.id}`, { token });
    expect(stop.body.data).toEqual({ status: "Accepted" });
    expect(stopped).toEqual({ transactionId });

    let reset: any;
    charger.answer("Reset", (payload) => {
      reset = payload;
      return { status: "Scheduled" };
    });
    const res = await call("PUT", `/station-service/monitoring/reset/point/${serialNumber}`, { token, body: { type: "Soft" } });
    expect(res.body.data).toEqual({ status: "Accepted" });
    expect(reset).toEqual({ type: "OnIdle" });
  });

  it("names a start's tag as the charger reads it: a registered card ISO14443, any other tag Central", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const requests: any[] = [];
    charger.answer("RequestStartTransaction", (payload) => {
      requests.push(payload);
      return { status: "Rejected" };
    });
    const rfid = await makeCard(token);
    const other = await freshTag(pointId);
    await env.DB.prepare("UPDATE id_tags SET kind = 'APP' WHERE id_tag = ?").bind(other).run();
    for (const idTag of [rfid.idTag, other, "NOTREGISTERED2"]) {
      const start = await call("PUT", `/station-service/remoteControl/remoteStart/${pointId}`, { token, body: { connectorId: 1, idTag } });
      expect(start.body.data).toEqual({ status: "Rejected" });
    }
    expect(requests.map((r) => r.idToken)).toEqual([
      { idToken: rfid.idTag, type: "ISO14443" },
      { idToken: other, type: "Central" },
      { idToken: "NOTREGISTERED2", type: "Central" },
    ]);
  });
});

describe("the monitoring tools on a 2.0.1 charger (F05, F06, K08, K10, N01, P02, D01)", () => {
  it("sends each tool's 2.0.1 twin by EVSE and reads the reply back into the answer the console shows", async () => {
    const { charger, pointId, serialNumber } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const seen: Record<string, unknown> = {};
    const answer = (action: string, reply: unknown) =>
      charger.answer(action, (payload) => {
        seen[action] = payload;
        return reply;
      });
    answer("TriggerMessage", { status: "Accepted" });
    answer("UnlockConnector", { status: "Unlocked" });
    answer("DataTransfer", { status: "Accepted", data: "pong" });
    answer("GetLocalListVersion", { versionNumber: 7 });
    answer("ClearChargingProfile", { status: "Accepted" });
    answer("GetCompositeSchedule", {
      status: "Accepted",
      schedule: { evseId: 1, duration: 3600, scheduleStart: at(), chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000.04 }] },
    });
    answer("GetLog", { status: "Accepted", filename: "log.zip" });

    const put = (path: string, body: unknown) => call("PUT", path, { token, body });
    expect((await put(`/station-service/monitoring/point/triggerMessage/${serialNumber}`, { requestedMessage: "DiagnosticsStatusNotification", connectorId: 2 })).body.data).toEqual({ status: "Accepted" });
    expect(seen.TriggerMessage).toEqual({ requestedMessage: "LogStatusNotification", evse: { id: 2 } });
    expect((await put(`/station-service/remoteControl/unlockConnector/${pointId}`, { connectorId: 2 })).body.data).toEqual({ status: "Unlocked" });
    expect(seen.UnlockConnector).toEqual({ evseId: 2, connectorId: 1 });
    expect((await put(`/station-service/monitoring/dataTransfer/${serialNumber}`, { vendorId: "com.example", messageId: "ping" })).body.data).toEqual({ status: "Accepted", data: "pong" });
    expect(seen.DataTransfer).toEqual({ vendorId: "com.example", messageId: "ping" });
    expect((await call("GET", `/station-service/monitoring/getLocalListVersion/${serialNumber}`, { token })).body.data).toEqual({ listVersion: 7 });
    expect((await put(`/station-service/monitoring/clearChargingProfile/${serialNumber}`, { connectorId: 1, chargingProfilePurpose: "ChargePointMaxProfile" })).body.data).toEqual({ status: "Accepted" });
    expect(seen.ClearChargingProfile).toEqual({ chargingProfileCriteria: { evseId: 1, chargingProfilePurpose: "ChargingStationMaxProfile" } });
    const composite = await call("GET", `/station-service/monitoring/getCompositeSchedule/${serialNumber}?connectorId=1&duration=3600`, { token });
    expect(composite.body.data).toMatchObject({ status: "Accepted", connectorId: 1, chargingSchedule: { duration: 3600, chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] } });
    expect(seen.GetCompositeSchedule).toEqual({ evseId: 1, duration: 3600 });

    const location = encodeURIComponent("https://files.example.com/upload/cp3");
    const diagnostics = await call("GET", `/station-service/monitoring/getDiagnostics/${serialNumber}?location=${location}`, { token });
    expect(diagnostics.body.data).toEqual({ fileName: "log.zip" });
    const getLog = seen.GetLog as { logType: string; requestId: number; log: { remoteLocation: string } };
    expect(getLog).toMatchObject({ logType: "DiagnosticsLog", requestId: expect.any(Number), log: { remoteLocation: "https://files.example.com/upload/cp3" } });
    // N01: the upload's progress moves the request as 1.6's DiagnosticsStatusNotification does.
    await charger.call("LogStatusNotification", { status: "Uploaded", requestId: getLog.requestId });
    const [request] = (await call("GET", `/station-service/diagnosis?pointId=${pointId}`, { token })).body.data.records as { status: number }[];
    expect(request.status).toBe(3);
  });
});

describe("a transaction the station kept while offline (E04, E12)", () => {
  it("is accepted and billed when its events arrive after the reconnect, flagged offline", async () => {
    const { charger, pointId } = await online201();
    const idTag = await freshTag(pointId);
    const transactionId = crypto.randomUUID();
    const event = (eventType: string, seqNo: number, offsetS: number, extra: Record<string, unknown>) => ({
      eventType,
      timestamp: at(offsetS),
      seqNo,
      offline: true,
      transactionInfo: { transactionId },
      evse: { id: 1, connectorId: 1 },
      ...extra,
    });
    await charger.call("TransactionEvent", event("Started", 0, -3600, { triggerReason: "Authorized", idToken: card(idTag), meterValue: energy(500, "Transaction.Begin") }));
    await charger.call("TransactionEvent", event("Ended", 1, -1800, { triggerReason: "StopAuthorized", meterValue: energy(8500, "Transaction.End") }));
    const billed = await eventually(
      () => row<{ energy_wh: number | null; status: string }>("SELECT energy_wh, status FROM transactions WHERE charger_transaction_id = ?", transactionId),
      (r) => r?.energy_wh !== null && r?.energy_wh !== undefined,
    );
    expect(billed).toEqual({ energy_wh: 8000, status: "COMPLETED" });
  });
});

describe("every message a 2.0.1 station may send", () => {
  it("is handled or refused NotSupported with its reason, never left to a default", async () => {
    const { CHARGER_ACTIONS_201 } = await import("../../domain/ocpp/v201/actions");
    const { HANDLERS_201, NOT_TAKEN_201 } = await import("../../workers/ocpp/v201/handlers");
    const undecided = CHARGER_ACTIONS_201.filter((action) => !Object.hasOwn(HANDLERS_201, action) && !NOT_TAKEN_201[action]);
    expect(undecided).toEqual([]);
  });

  it("keeps the reports a station sends back (K09, K11–K13, O03) as the point's events, and takes a certificate request (A02)", async () => {
    const { charger, pointId } = await online201();
    expect(await charger.call("ReportChargingProfiles", { requestId: 4, chargingLimitSource: "CSO", evseId: 1, chargingProfile: [{ id: 9, stackLevel: 0, chargingProfilePurpose: "TxDefaultProfile", chargingProfileKind: "Absolute", chargingSchedule: [{ id: 9, chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 7400 }] }] }] })).toEqual({});
    expect(await charger.call("NotifyChargingLimit", { chargingLimit: { chargingLimitSource: "EMS" }, evseId: 1 })).toEqual({});
    expect(await charger.call("ClearedChargingLimit", { chargingLimitSource: "EMS", evseId: 1 })).toEqual({});
    expect(await charger.call("NotifyDisplayMessages", { requestId: 5 })).toEqual({});
    expect(await charger.call("SignCertificate", { csr: "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----" })).toEqual({ status: "Accepted" });
    const events = await env.DB.prepare("SELECT status FROM point_events WHERE point_id = ? AND kind = 'Event' ORDER BY id").bind(pointId).all<{ status: string }>();
    expect(events.results.map((e) => e.status)).toEqual(["ReportChargingProfiles", "NotifyChargingLimit", "ClearedChargingLimit", "NotifyDisplayMessages"]);
  });
});
