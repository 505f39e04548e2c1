import { describe, expect, it } from "vitest";
import { evseStatusOf } from "../../../domain/ocpp/v201/charger-model";

/**
 * An EVSE with several connectors is one product connector (docs/decisions/0078-one-charger-model-two-protocols.md):
 * the status that speaks for it comes from the last status of each of its connectors (G01).
 */
describe("evseStatusOf", () => {
  it.each([
    [{ 1: "Available" }, "Available"],
    // The plug in use makes the EVSE busy; 2.0.1 reports its siblings Unavailable meanwhile.
    [{ 1: "Unavailable", 2: "Occupied" }, "Occupied"],
    [{ 1: "Reserved", 2: "Reserved" }, "Reserved"],
    // One free plug makes the EVSE free even when the other is broken.
    [{ 1: "Faulted", 2: "Available" }, "Available"],
    [{ 1: "Faulted", 2: "Unavailable" }, "Faulted"],
    [{ 1: "Unavailable", 2: "Unavailable" }, "Unavailable"],
    [{}, "Unavailable"],
  ] as const)("%o → %s", (connectors, expected) => {
    expect(evseStatusOf(connectors)).toBe(expected);
  });
});
