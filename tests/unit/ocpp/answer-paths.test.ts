import { describe, expect, it } from "vitest";
import { CHARGER_ACTIONS, OCPP_ACTIONS, SERVER_ACTIONS } from "../../../domain/ocpp/actions";
import { ANSWER_PATHS, answersFromOwnState } from "../../../workers/ocpp/answer-paths";

describe("which path a charger's call takes (docs/rules/ocpp.md \"Hot path\")", () => {
  it("declares a path for every action of the handler table, and for nothing else", () => {
    expect(Object.keys(ANSWER_PATHS).sort()).toEqual([...CHARGER_ACTIONS].sort());
    for (const action of CHARGER_ACTIONS) expect(["own-state", "after-writes"]).toContain(ANSWER_PATHS[action]);
  });

  it("answers boot, heartbeat, statuses and meter values from the charger's own state, and drains the queued writes before every other call", () => {
    const ownState = OCPP_ACTIONS.filter((action) => answersFromOwnState(action));
    expect(ownState.sort()).toEqual(["BootNotification", "Heartbeat", "MeterValues", "StatusNotification"]);
    // A central-system action or an unknown name a charger sends waits for the queue like any writer.
    for (const action of SERVER_ACTIONS) if (!(CHARGER_ACTIONS as readonly string[]).includes(action)) expect(answersFromOwnState(action)).toBe(false);
    expect(answersFromOwnState("NotAnAction")).toBe(false);
    expect(answersFromOwnState("toString")).toBe(false);
  });
});
