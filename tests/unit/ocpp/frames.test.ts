import { describe, expect, it } from "vitest";
import {
  CHARGER_ACTIONS,
  MessageType,
  OCPP_ACTIONS,
  OCPP_ERROR_CODES,
  OCPP_REQUESTS,
  OCPP_RESPONSES,
  SECURITY_ACTIONS,
  SERVER_ACTIONS,
  callFrame,
  checkPayload,
  checkRequest,
  checkResponse,
  errorFrame,
  isOcppAction,
  newMessageId,
  parseFrame,
  resultFrame,
} from "../../../domain/ocpp";

const ID_36 = "0123456789abcdef0123456789abcdef0123";

describe("actions", () => {
  it("lists the 28 actions of OCPP 1.6J and the 11 of its security extension once each", () => {
    expect(OCPP_ACTIONS).toHaveLength(39);
    expect(new Set(OCPP_ACTIONS).size).toBe(39);
    expect(SECURITY_ACTIONS.filter((a) => !(OCPP_ACTIONS as readonly string[]).includes(a))).toEqual([]);
  });

  it("splits them by who sends them, with DataTransfer going both ways", () => {
    expect(CHARGER_ACTIONS).toHaveLength(14);
    expect(SERVER_ACTIONS).toHaveLength(26);
    expect(new Set([...CHARGER_ACTIONS, ...SERVER_ACTIONS])).toEqual(new Set(OCPP_ACTIONS));
    expect(CHARGER_ACTIONS.filter((a) => (SERVER_ACTIONS as readonly string[]).includes(a))).toEqual(["DataTransfer"]);
  });

  it("recognises action names exactly", () => {
    expect(isOcppAction("Heartbeat")).toBe(true);
    expect(isOcppAction("heartbeat")).toBe(false);
    expect(isOcppAction("SignCertificate")).toBe(true);
    expect(isOcppAction("signCertificate")).toBe(false);
    expect(isOcppAction("Get15118EVCertificate")).toBe(false);
  });
});

describe("error codes (OCPP-J 1.6 §4.2.3)", () => {
  it("are the ten 1.6 codes, with the 1.6 spelling of OccurenceConstraintViolation", () => {
    expect([...OCPP_ERROR_CODES].sort()).toEqual(
      [
        "NotImplemented",
        "NotSupported",
        "InternalError",
        "ProtocolError",
        "SecurityError",
        "FormationViolation",
        "PropertyConstraintViolation",
        "OccurenceConstraintViolation",
        "TypeConstraintViolation",
        "GenericError",
      ].sort(),
    );
  });

  it.each(["FormatViolation", "RpcFrameworkError", "MessageTypeNotSupported", "OccurrenceConstraintViolation"])(
    "leave out the 2.0.1 code %s",
    (code) => expect(OCPP_ERROR_CODES).not.toContain(code),
  );
});

describe("parseFrame", () => {
  it.each([
    ["a CALL", `[2,"m1","Heartbeat",{}]`, [2, "m1", "Heartbeat", {}]],
    ["a CALL whose payload is not an object (checkPayload's business)", `[2,"m1","Heartbeat",null]`, [2, "m1", "Heartbeat", null]],
    ["a CALL with an unknown action (answered NotImplemented)", `[2,"m1","Fly",{}]`, [2, "m1", "Fly", {}]],
    ["a CALL with a 36-character id", `[2,"${ID_36}","Heartbeat",{}]`, [2, ID_36, "Heartbeat", {}]],
    ["a CALLRESULT", `[3,"m1",{"currentTime":"2026-11-21T10:00:00Z"}]`, [3, "m1", { currentTime: "2026-11-21T10:00:00Z" }]],
    ["a CALLERROR", `[4,"m1","NotSupported","No",{"hint":1}]`, [4, "m1", "NotSupported", "No", { hint: 1 }]],
    ["a CALLERROR with empty details", `[4,"m1","GenericError","",{}]`, [4, "m1", "GenericError", "", {}]],
    ["surrounding whitespace", ` \n[2,"m1","Heartbeat",{}]\n`, [2, "m1", "Heartbeat", {}]],
  ])("reads %s", (_what, text, frame) => {
    expect(parseFrame(text)).toEqual({ ok: true, frame });
  });

  it.each([
    ["text that is not JSON", `[2,"m1","Heartbeat",{}`, "-1", "FormationViolation", undefined],
    ["an empty message", ``, "-1", "FormationViolation", undefined],
    ["a JSON object", `{"messageType":2}`, "-1", "FormationViolation", undefined],
    ["a JSON string", `"Heartbeat"`, "-1", "FormationViolation", undefined],
    ["JSON null", `null`, "-1", "FormationViolation", undefined],
    ["an empty array", `[]`, "-1", "ProtocolError", undefined],
    ["a message type given as a string", `["2","m1","Heartbeat",{}]`, "m1", "FormationViolation", undefined],
    ["an unknown message type", `[5,"m1","Heartbeat",{}]`, "m1", "ProtocolError", undefined],
    ["a fractional message type", `[2.5,"m1","Heartbeat",{}]`, "m1", "ProtocolError", undefined],
    ["an unknown message type and a numeric id", `[7,42]`, "-1", "ProtocolError", undefined],
    ["a CALL without payload", `[2,"m1","Heartbeat"]`, "m1", "ProtocolError", MessageType.CALL],
    ["a CALL with an extra element", `[2,"m1","Heartbeat",{},{}]`, "m1", "ProtocolError", MessageType.CALL],
    ["a short CALL with a numeric id", `[2,42,"Heartbeat"]`, "-1", "ProtocolError", MessageType.CALL],
    ["a CALL with a numeric id", `[2,42,"Heartbeat",{}]`, "-1", "FormationViolation", MessageType.CALL],
    ["a CALL with an empty id", `[2,"","Heartbeat",{}]`, "-1", "FormationViolation", MessageType.CALL],
    ["a CALL with a 37-character id", `[2,"${ID_36}x","Heartbeat",{}]`, "-1", "FormationViolation", MessageType.CALL],
    ["a CALL whose action is a number", `[2,"m1",7,{}]`, "m1", "FormationViolation", MessageType.CALL],
    ["a CALL whose action is null", `[2,"m1",null,{}]`, "m1", "FormationViolation", MessageType.CALL],
    ["a CALLRESULT without payload", `[3,"m1"]`, "m1", "ProtocolError", MessageType.CALLRESULT],
    ["a CALLRESULT with a numeric id", `[3,42,{}]`, "-1", "FormationViolation", MessageType.CALLRESULT],
    ["a CALLERROR without details", `[4,"m1","GenericError","x"]`, "m1", "ProtocolError", MessageType.CALLERROR],
    ["a CALLERROR with a 2.0.1 code", `[4,"m1","FormatViolation","x",{}]`, "m1", "FormationViolation", MessageType.CALLERROR],
    ["a CALLERROR with the 2.0.1 spelling", `[4,"m1","OccurrenceConstraintViolation","x",{}]`, "m1", "FormationViolation", MessageType.CALLERROR],
    ["a CALLERROR with a numeric description", `[4,"m1","GenericError",5,{}]`, "m1", "FormationViolation", MessageType.CALLERROR],
    ["a CALLERROR with null details", `[4,"m1","GenericError","x",null]`, "m1", "FormationViolation", MessageType.CALLERROR],
    ["a CALLERROR with array details", `[4,"m1","GenericError","x",[]]`, "m1", "FormationViolation", MessageType.CALLERROR],
  ] as const)("refuses %s", (_what, text, id, code, messageType) => {
    const parsed = parseFrame(text);
    expect(parsed).toMatchObject({ ok: false, id, code, description: expect.any(String) });
    expect(parsed.ok === false && parsed.messageType).toBe(messageType ?? undefined);
  });
});

describe("checkPayload", () => {
  const authorized = OCPP_RESPONSES.Authorize;
  const meterValues = OCPP_REQUESTS.MeterValues;

  it("returns the parsed value when the payload conforms", () => {
    expect(checkPayload(OCPP_REQUESTS.Authorize, { idTag: "04E91C5A" })).toEqual({ ok: true, value: { idTag: "04E91C5A" } });
  });

  it.each([null, [], "x", 3, true])("gives FormationViolation for a payload that is not an object (%j)", (payload) => {
    expect(checkPayload(OCPP_REQUESTS.Heartbeat, payload)).toEqual({
      ok: false,
      code: "FormationViolation",
      description: expect.any(String),
      details: { path: "", issue: "invalid_type" },
    });
  });

  it.each([
    ["a top-level field", OCPP_REQUESTS.Authorize, {}, "idTag"],
    ["a nested field", authorized, { idTagInfo: {} }, "idTagInfo.status"],
    ["a field inside an array", meterValues, { connectorId: 1, meterValue: [{ timestamp: "2026-11-21T10:00:00Z" }] }, "meterValue[0].sampledValue"],
  ])("gives OccurenceConstraintViolation for a missing required field: %s", (_what, schema, payload, path) => {
    expect(checkPayload(schema, payload)).toEqual({
      ok: false,
      code: "OccurenceConstraintViolation",
      description: `Required field ${path} is missing`,
      details: { path, issue: "missing" },
    });
  });

  it.each([
    ["a string where an integer is due", OCPP_REQUESTS.UnlockConnector, { connectorId: "1" }, "connectorId"],
    ["1.5 where an integer is due", OCPP_REQUESTS.UnlockConnector, { connectorId: 1.5 }, "connectorId"],
    ["null for a required field", OCPP_REQUESTS.UnlockConnector, { connectorId: null }, "connectorId"],
    ["a number where a string is due", meterValues, { connectorId: 1, meterValue: [{ timestamp: "2026-11-21T10:00:00Z", sampledValue: [{ value: 12 }] }] }, "meterValue[0].sampledValue[0].value"],
    ["an object where an array is due", OCPP_REQUESTS.GetConfiguration, { key: {} }, "key"],
    ["a number for a string enum", authorized, { idTagInfo: { status: 1 } }, "idTagInfo.status"],
  ])("gives TypeConstraintViolation for %s", (_what, schema, payload, path) => {
    const checked = checkPayload(schema, payload);
    expect(checked).toMatchObject({ ok: false, code: "TypeConstraintViolation", details: { path } });
  });

  it.each([
    ["a value outside the enum", authorized, { idTagInfo: { status: "Allowed" } }, { path: "idTagInfo.status", issue: "invalid_value" }],
    ["a string that is too long", OCPP_REQUESTS.Authorize, { idTag: "A".repeat(21) }, { path: "idTag", issue: "too_big" }],
    ["a malformed date-time", OCPP_RESPONSES.Heartbeat, { currentTime: "21/11/2026 10:00" }, { path: "currentTime", issue: "invalid_format" }],
    ["a limit that is not a multiple of 0.1", OCPP_RESPONSES.GetCompositeSchedule, { status: "Accepted", chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 6.05 }] } }, { path: "chargingSchedule.chargingSchedulePeriod[0].limit", issue: "not_multiple_of" }],
    ["a relative URI", OCPP_REQUESTS.GetDiagnostics, { location: "/uploads" }, { path: "location", issue: "invalid_format" }],
    ["an unknown property", authorized, { idTagInfo: { status: "Accepted", colour: "red", size: 1 } }, { path: "idTagInfo.colour", issue: "unrecognized_keys", keys: ["colour", "size"] }],
    ["an unknown top-level property", OCPP_REQUESTS.Heartbeat, { now: true }, { path: "now", issue: "unrecognized_keys", keys: ["now"] }],
  ])("gives PropertyConstraintViolation for %s", (_what, schema, payload, details) => {
    expect(checkPayload(schema, payload)).toEqual({ ok: false, code: "PropertyConstraintViolation", description: expect.any(String), details });
  });

  it("reports the most basic problem when there are several", () => {
    const checked = checkPayload(OCPP_REQUESTS.StartTransaction, { connectorId: "1", idTag: "A".repeat(30), extra: 1 });
    expect(checked).toMatchObject({ ok: false, code: "OccurenceConstraintViolation" });
    const typed = checkPayload(OCPP_REQUESTS.BootNotification, { chargePointVendor: "A".repeat(30), chargePointModel: 5 });
    expect(typed).toMatchObject({ ok: false, code: "TypeConstraintViolation", details: { path: "chargePointModel" } });
  });

  it("is typed by action through checkRequest and checkResponse", () => {
    const request = checkRequest("StartTransaction", { connectorId: 1, idTag: "A", meterStart: 0, timestamp: "2026-11-21T10:00:00Z" });
    expect(request.ok && request.value.meterStart).toBe(0);
    const response = checkResponse("BootNotification", { status: "Rejected", currentTime: "2026-11-21T10:00:00Z", interval: 60 });
    expect(response.ok && response.value.interval).toBe(60);
    expect(checkResponse("BootNotification", { status: "Rejected" })).toMatchObject({ ok: false, code: "OccurenceConstraintViolation" });
  });
});

describe("frame builders", () => {
  it("write a CALL, a CALLRESULT and a CALLERROR as OCPP-J arrays", () => {
    expect(callFrame("m1", "Reset", { type: "Soft" })).toBe(`[2,"m1","Reset",{"type":"Soft"}]`);
    expect(resultFrame("m1", {})).toBe(`[3,"m1",{}]`);
    expect(errorFrame("m1", "NotImplemented", "Unknown action Fly")).toBe(`[4,"m1","NotImplemented","Unknown action Fly",{}]`);
    expect(errorFrame("-1", "FormationViolation", "bad", { path: "" })).toBe(`[4,"-1","FormationViolation","bad",{"path":""}]`);
  });

  it("write what parseFrame reads back", () => {
    const id = newMessageId();
    expect(parseFrame(callFrame(id, "TriggerMessage", { requestedMessage: "Heartbeat" }))).toEqual({
      ok: true,
      frame: [2, id, "TriggerMessage", { requestedMessage: "Heartbeat" }],
    });
    expect(parseFrame(errorFrame(id, "OccurenceConstraintViolation", "x"))).toEqual({
      ok: true,
      frame: [4, id, "OccurenceConstraintViolation", "x", {}],
    });
  });

  it("make message ids that are UUIDs, 36 characters, never repeated", () => {
    const ids = Array.from({ length: 100 }, newMessageId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(100);
  });
});
