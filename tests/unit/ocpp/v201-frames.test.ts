import { describe, expect, it } from "vitest";
import {
  MessageType,
  OCPP16_DIALECT,
  OCPP_ERROR_CODES,
  OCPP_REQUESTS,
  checkPayload,
  errorFrame,
  parseFrame,
  type FramingDialect,
} from "../../../domain/ocpp";
import {
  OCPP201_DIALECT,
  OCPP201_ERROR_CODES,
  OCPP201_REQUESTS,
  checkRequest201,
  checkResponse201,
} from "../../../domain/ocpp/v201";

const ID_37 = "0123456789abcdef0123456789abcdef01234";
const BOOT = { reason: "PowerUp", chargingStation: { model: "PL-75", vendorName: "Plugdesk" } };

describe("2.0.1 error codes (OCPP 2.0.1 Part 4 §4.3)", () => {
  it("are the twelve codes of the 2.0.1 table, spelled as 2.0.1 spells them", () => {
    expect([...OCPP201_ERROR_CODES].sort()).toEqual([
      "FormatViolation",
      "GenericError",
      "InternalError",
      "MessageTypeNotSupported",
      "NotImplemented",
      "NotSupported",
      "OccurrenceConstraintViolation",
      "PropertyConstraintViolation",
      "ProtocolError",
      "RpcFrameworkError",
      "SecurityError",
      "TypeConstraintViolation",
    ]);
  });

  it.each(["FormationViolation", "OccurenceConstraintViolation"])("leave out the 1.6 spelling %s", (code) => {
    expect(OCPP201_ERROR_CODES).not.toContain(code);
  });

  it.each([
    ["1.6", OCPP16_DIALECT],
    ["2.0.1", OCPP201_DIALECT],
  ] as const)("the %s dialect answers every fault with one of its own codes", (_version, dialect: FramingDialect) => {
    const { version: _v, codes, ...byFault } = dialect;
    for (const code of Object.values(byFault)) expect(codes).toContain(code);
  });
});

describe("parseFrame in the 2.0.1 dialect", () => {
  it.each([
    ["a CALL", `[2,"m1","BootNotification",{}]`, [2, "m1", "BootNotification", {}]],
    ["a CALLRESULT", `[3,"m1",{"status":"Accepted"}]`, [3, "m1", { status: "Accepted" }]],
    ["a CALLERROR with a 2.0.1 code", `[4,"m1","FormatViolation","x",{}]`, [4, "m1", "FormatViolation", "x", {}]],
    ["a CALLERROR with RpcFrameworkError", `[4,"m1","RpcFrameworkError","x",{"a":1}]`, [4, "m1", "RpcFrameworkError", "x", { a: 1 }]],
  ])("reads %s", (_what, text, frame) => {
    expect(parseFrame(text, OCPP201_DIALECT)).toEqual({ ok: true, frame });
  });

  it.each([
    ["text that is not JSON", `[2,"m1",`, "-1", "RpcFrameworkError", undefined],
    ["JSON that is not an array", `{"id":"m1"}`, "-1", "RpcFrameworkError", undefined],
    ["an empty array", `[]`, "-1", "RpcFrameworkError", undefined],
    ["a message type that is not a number", `["2","m1","Heartbeat",{}]`, "m1", "RpcFrameworkError", undefined],
    ["an unknown message type, echoing the id", `[5,"m1","Heartbeat",{}]`, "m1", "MessageTypeNotSupported", undefined],
    ["a CALL of three elements", `[2,"m1","Heartbeat"]`, "m1", "RpcFrameworkError", MessageType.CALL],
    ["a CALLRESULT of four elements", `[3,"m1",{},{}]`, "m1", "RpcFrameworkError", MessageType.CALLRESULT],
    ["a message id that is a number", `[2,1,"Heartbeat",{}]`, "-1", "RpcFrameworkError", MessageType.CALL],
    ["an empty message id", `[2,"","Heartbeat",{}]`, "-1", "RpcFrameworkError", MessageType.CALL],
    ["a message id of 37 characters", `[2,"${ID_37}","Heartbeat",{}]`, "-1", "RpcFrameworkError", MessageType.CALL],
    ["a CALL whose action is not a string", `[2,"m1",7,{}]`, "m1", "RpcFrameworkError", MessageType.CALL],
    ["a CALLERROR with a 1.6 spelling", `[4,"m1","FormationViolation","x",{}]`, "m1", "RpcFrameworkError", MessageType.CALLERROR],
    ["a CALLERROR with an unknown code", `[4,"m1","Oops","x",{}]`, "m1", "RpcFrameworkError", MessageType.CALLERROR],
    ["a CALLERROR whose description is not a string", `[4,"m1","GenericError",1,{}]`, "m1", "RpcFrameworkError", MessageType.CALLERROR],
    ["a CALLERROR whose details are not an object", `[4,"m1","GenericError","x",[]]`, "m1", "RpcFrameworkError", MessageType.CALLERROR],
  ] as const)("refuses %s", (_what, text, id, code, messageType) => {
    const parsed = parseFrame(text, OCPP201_DIALECT);
    expect(parsed).toMatchObject({ ok: false, id, code, description: expect.any(String) });
    expect(parsed.ok ? undefined : parsed.messageType).toBe(messageType);
  });

  it("keeps the 1.6 codes when no dialect is given", () => {
    expect(parseFrame(`{}`)).toMatchObject({ ok: false, code: "FormationViolation" });
    expect(parseFrame(`[5,"m1","Heartbeat",{}]`)).toMatchObject({ ok: false, code: "ProtocolError" });
    expect(parseFrame(`[4,"m1","FormatViolation","x",{}]`)).toMatchObject({ ok: false, code: "FormationViolation" });
    expect(parseFrame(`[4,"m1","FormationViolation","x",{}]`, OCPP16_DIALECT)).toMatchObject({ ok: true });
  });
});

describe("payload checks in the 2.0.1 dialect", () => {
  it("take a valid BootNotification", () => {
    expect(checkRequest201("BootNotification", BOOT)).toEqual({ ok: true, value: BOOT });
  });

  it.each([null, [], "BootNotification", 3])("answer a payload that is not an object (%j) with FormatViolation", (payload) => {
    expect(checkRequest201("BootNotification", payload)).toMatchObject({ ok: false, code: "FormatViolation", details: { path: "" } });
  });

  it("answer a missing required field with OccurrenceConstraintViolation, spelled as 2.0.1 spells it", () => {
    expect(checkRequest201("BootNotification", { reason: "PowerUp", chargingStation: { model: "PL-75" } })).toEqual({
      ok: false,
      code: "OccurrenceConstraintViolation",
      description: "Required field chargingStation.vendorName is missing",
      details: { path: "chargingStation.vendorName", issue: "missing" },
    });
  });

  it("answer a list outside its bounds with OccurrenceConstraintViolation", () => {
    const payload = { requestId: 1, getVariableData: [] };
    expect(checkRequest201("GetVariables", payload)).toMatchObject({
      ok: false,
      code: "OccurrenceConstraintViolation",
      details: { path: "getVariableData", issue: "too_small" },
    });
    const criteria = ["ThresholdMonitoring", "DeltaMonitoring", "PeriodicMonitoring", "ThresholdMonitoring"];
    expect(checkRequest201("GetMonitoringReport", { requestId: 1, monitoringCriteria: criteria })).toMatchObject({
      ok: false,
      code: "OccurrenceConstraintViolation",
      description: "monitoringCriteria has more than 3 items",
      details: { path: "monitoringCriteria", issue: "too_big" },
    });
    const sampled = { value: 1 };
    const meterValue = { timestamp: "2026-11-21T10:00:00Z", sampledValue: [sampled] };
    expect(checkRequest201("MeterValues", { evseId: 1, meterValue: [{ ...meterValue, sampledValue: [] }] })).toMatchObject({
      ok: false,
      code: "OccurrenceConstraintViolation",
      details: { path: "meterValue[0].sampledValue" },
    });
  });

  it("answer a value of the wrong JSON type with TypeConstraintViolation", () => {
    expect(checkRequest201("Heartbeat", { customData: { vendorId: 5 } })).toMatchObject({
      ok: false,
      code: "TypeConstraintViolation",
      details: { path: "customData.vendorId" },
    });
    expect(checkResponse201("BootNotification", { currentTime: "2026-11-21T10:00:00Z", interval: 1.5, status: "Accepted" })).toMatchObject({
      ok: false,
      code: "TypeConstraintViolation",
      details: { path: "interval" },
    });
  });

  it.each([
    ["an enum value", { ...BOOT, reason: "Sunrise" }, "reason"],
    ["a string too long", { ...BOOT, chargingStation: { model: "M".repeat(21), vendorName: "V" } }, "chargingStation.model"],
    ["an unknown property", { ...BOOT, colour: "green" }, "colour"],
  ])("answer %s with PropertyConstraintViolation", (_what, payload, path) => {
    expect(checkRequest201("BootNotification", payload)).toMatchObject({ ok: false, code: "PropertyConstraintViolation", details: { path } });
  });

  it("answer a bad date-time with PropertyConstraintViolation", () => {
    const answer = { currentTime: "yesterday", interval: 300, status: "Accepted" };
    expect(checkResponse201("BootNotification", answer)).toMatchObject({
      ok: false,
      code: "PropertyConstraintViolation",
      details: { path: "currentTime" },
    });
  });

  it("take vendor fields inside customData, where 2.0.1 allows them", () => {
    const payload = { customData: { vendorId: "com.plugdesk", firmwareChannel: "beta" } };
    expect(checkRequest201("Heartbeat", payload)).toEqual({ ok: true, value: payload });
  });

  it("report the most basic problem when there are several", () => {
    const payload = { reason: "Sunrise", chargingStation: { model: 1 }, colour: "green" };
    expect(checkRequest201("BootNotification", payload)).toMatchObject({ ok: false, code: "OccurrenceConstraintViolation" });
  });

  it("give the 1.6 codes for the same faults without a dialect, and the 2.0.1 ones with it", () => {
    expect(checkPayload(OCPP_REQUESTS.Heartbeat, null)).toMatchObject({ code: "FormationViolation" });
    expect(checkPayload(OCPP201_REQUESTS.Heartbeat, null, OCPP201_DIALECT)).toMatchObject({ code: "FormatViolation" });
    expect(checkPayload(OCPP_REQUESTS.BootNotification, {})).toMatchObject({ code: "OccurenceConstraintViolation" });
    expect(checkPayload(OCPP201_REQUESTS.BootNotification, {}, OCPP201_DIALECT)).toMatchObject({ code: "OccurrenceConstraintViolation" });
  });
});

describe("errorFrame", () => {
  it("writes a CALLERROR with a code of either version", () => {
    expect(JSON.parse(errorFrame("m1", "RpcFrameworkError", "Message id could not be read"))).toEqual([
      4,
      "m1",
      "RpcFrameworkError",
      "Message id could not be read",
      {},
    ]);
    expect(JSON.parse(errorFrame("m1", OCPP_ERROR_CODES[0], "x"))[2]).toBe("NotImplemented");
  });
});
