import { describe, expect, it } from "vitest";
import { cashierState } from "../../domain/connector-status";

describe("cashier states (docs/rules/records.md \"Cashier\")", () => {
  it.each([
    [null, "offline"],
    ["Charging", "charging"],
    ["SuspendedEV", "charging"],
    ["SuspendedEVSE", "charging"],
    ["Preparing", "waiting"],
    ["Finishing", "waiting"],
    ["Reserved", "waiting"],
    ["Available", "free"],
    ["Faulted", "fault"],
    ["Unavailable", "fault"],
    ["OtherError", "fault"],
  ])("shows %s as %s", (status, state) => {
    expect(cashierState(status)).toBe(state);
  });
});
