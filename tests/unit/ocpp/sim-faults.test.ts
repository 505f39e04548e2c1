import { describe, expect, it } from "vitest";
import { parseFault } from "../../../scripts/sim/faults";

describe("the simulator's --fault argument", () => {
  it("reads <serialNumber>:<connectorId>:<errorCode>, the serial number from the left", () => {
    expect(parseFault("PL002-CP01:1:HighTemperature")).toEqual({ serialNumber: "PL002-CP01", connectorId: 1, errorCode: "HighTemperature" });
    expect(parseFault("SITE:A:2:GroundFailure")).toEqual({ serialNumber: "SITE:A", connectorId: 2, errorCode: "GroundFailure" });
  });

  it.each([
    ["PL002-CP01:HighTemperature", /serialNumber>:<connectorId>:<errorCode>/],
    [":1:HighTemperature", /serialNumber>:<connectorId>:<errorCode>/],
    ["PL002-CP01:0:HighTemperature", /connector is a number from 1/],
    ["PL002-CP01:one:HighTemperature", /connector is a number from 1/],
    ["PL002-CP01:1:NoError", /error code is one of/],
    ["PL002-CP01:1:Overheated", /error code is one of ConnectorLockFailure/],
  ])("refuses %s with a message that says what it wants", (text, message) => {
    expect(() => parseFault(text)).toThrow(message);
  });
});
