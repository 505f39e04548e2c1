import { describe, expect, it } from "vitest";
import { commandInput, commandResponse, DEFAULT_COMMAND_TIMEOUT_S, commandResult, startSession, stopSession, unlockConnector } from "../../domain/schemas/ocpi/commands";

/** The objects of the commands module: strict in what we send, tolerant of unknown fields in what we take (docs/rules/ocpi.md "Commands", OCPI 2.2.1 §13.3). */
const token = {
  country_code: "PL",
  party_id: "PLG",
  uid: "CARD1",
  type: "RFID",
  contract_id: "PL-PLG-CCARD1",
  issuer: "Plugdesk",
  valid: true,
  whitelist: "ALWAYS",
  last_updated: "2026-05-01T10:00:00Z",
};
const url = "https://emsp.example/ocpi/2.2.1/commands/START_SESSION/1";

describe("command objects", () => {
  it("wants evse_uid with connector_id in StartSession, and refuses fields the protocol does not define", () => {
    expect(startSession.safeParse({ response_url: url, token, location_id: "L1" }).success).toBe(true);
    expect(startSession.safeParse({ response_url: url, token, location_id: "L1", connector_id: "1" }).success).toBe(false);
    expect(startSession.safeParse({ response_url: url, token, location_id: "L1", evse_uid: "E1", connector_id: "1" }).success).toBe(true);
    expect(stopSession.safeParse({ response_url: url, session_id: "S1", reason: "x" }).success).toBe(false);
    expect(unlockConnector.safeParse({ response_url: url, location_id: "L1", evse_uid: "E1" }).success).toBe(false);
    expect(stopSession.safeParse({ response_url: "ftp://x", session_id: "S1" }).success).toBe(false);
  });

  it("takes the CPO's CommandResponse and CommandResult only with the protocol's values", () => {
    expect(commandResponse.safeParse({ result: "ACCEPTED", timeout: 30 }).success).toBe(true);
    // 2.1.1's CommandResponse had no timeout: the default stands in; fields 2.2.1 does not define are kept.
    expect(commandResponse.safeParse({ result: "ACCEPTED" }).data).toEqual({ result: "ACCEPTED", timeout: DEFAULT_COMMAND_TIMEOUT_S });
    expect(commandResult.safeParse({ result: "ACCEPTED", x_charger: "CP-1" }).data).toEqual({ result: "ACCEPTED", x_charger: "CP-1" });
    expect(commandResponse.safeParse({ result: "ACCEPTED", timeout: "soon" }).success).toBe(false);
    expect(commandResponse.safeParse({ result: "TIMEOUT", timeout: 30 }).success).toBe(false);
    expect(commandResponse.safeParse({ result: "REJECTED", timeout: 30, message: [{ language: "en", text: "No" }] }).success).toBe(true);
    expect(commandResult.safeParse({ result: "EVSE_OCCUPIED" }).success).toBe(true);
    expect(commandResult.safeParse({ result: "UNKNOWN_SESSION" }).success).toBe(false);
    expect(commandResult.safeParse({ result: "ACCEPTED", message: { language: "en", text: "ok" } }).success).toBe(false);
  });

  it("reads the API's body by its command, each with its own fields", () => {
    expect(commandInput.safeParse({ platformId: "3", command: "STOP_SESSION", sessionId: " S1 " }).data).toEqual({ platformId: 3, command: "STOP_SESSION", sessionId: "S1" });
    expect(commandInput.safeParse({ platformId: 3, command: "STOP_SESSION", locationId: "L1" }).success).toBe(false);
    const reserve = { platformId: 3, command: "RESERVE_NOW", tokenUid: "CARD1", locationId: "L1", evseUid: "", expiryDate: "2026-05-01T10:00" };
    expect(commandInput.safeParse(reserve).data).toMatchObject({ evseUid: undefined, expiryDate: "2026-05-01T10:00" });
    expect(commandInput.safeParse({ ...reserve, expiryDate: "soon" }).success).toBe(false);
  });
});
