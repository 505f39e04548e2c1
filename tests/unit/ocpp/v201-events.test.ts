import { describe, expect, it } from "vitest";
import { problemOf } from "../../../domain/ocpp/v201/events";
import type { EventDataType } from "../../../domain/ocpp/v201/schemas";
import { alertingEvent } from "../../support/ocpp201";

const event = (component: EventDataType["component"], variable: string, actualValue: string, extra: Partial<EventDataType> = {}) =>
  alertingEvent(1, component, variable, actualValue, { timestamp: "2026-05-01T08:00:00Z", ...extra });

describe("problemOf (OCPP 2.0.1 N07–N08 events as 1.6 fault codes)", () => {
  it.each([
    [{ name: "ConnectorPlugRetentionLock", evse: { id: 2, connectorId: 1 } }, "Problem", 2, "ConnectorLockFailure"],
    [{ name: "TokenReader" }, "Problem", 0, "ReaderFailure"],
    [{ name: "PowerContactor", evse: { id: 1 } }, "Problem", 1, "PowerSwitchFailure"],
    [{ name: "Connector", evse: { id: 1, connectorId: 1 } }, "Problem", 1, "OtherError"],
    [{ name: "RCD", evse: { id: 1 } }, "Tripped", 1, "GroundFailure"],
    [{ name: "EVSE", evse: { id: 2 } }, "Tripped", 2, "OverCurrentFailure"],
    [{ name: "EVSE", evse: { id: 1 } }, "Overheating", 1, "HighTemperature"],
    [{ name: "ChargingStation" }, "Fallback", 0, "OtherError"],
  ])("raises %o %s on connector %i as %s", (component, variable, connectorId, faultCode) => {
    expect(problemOf(event(component, variable, "true"))).toMatchObject({ connectorId, faultCode, raised: true });
  });

  it("clears on cleared or a value of false, and names the component, variable, techInfo and techCode", () => {
    const lock = { name: "ConnectorPlugRetentionLock", instance: "Left", evse: { id: 1 } };
    expect(problemOf(event(lock, "Problem", "false", { techCode: "E1" }))).toEqual({
      connectorId: 1,
      faultCode: "ConnectorLockFailure",
      raised: false,
      source: "ConnectorPlugRetentionLock[Left].Problem",
      message: "ConnectorPlugRetentionLock[Left].Problem · E1",
    });
    expect(problemOf(event(lock, "Problem", "true", { cleared: true }))?.raised).toBe(false);
    expect(problemOf(event(lock, "Problem", " TRUE ", { techInfo: "stalled", trigger: "Delta" }))).toMatchObject({ raised: true, message: "ConnectorPlugRetentionLock[Left].Problem · stalled" });
  });

  it("leaves periodic readings, other variables and values that are not a boolean to the point's events", () => {
    expect(problemOf(event({ name: "ChargingStation" }, "Problem", "true", { trigger: "Periodic" }))).toBeUndefined();
    expect(problemOf(event({ name: "EVSE", evse: { id: 1 } }, "AvailabilityState", "Unavailable"))).toBeUndefined();
    expect(problemOf(event({ name: "EVSE", evse: { id: 1 } }, "Overheating", "81.5"))).toBeUndefined();
    expect(problemOf(event({ name: "EVSE" }, "toString", "true"))).toBeUndefined();
  });
});
