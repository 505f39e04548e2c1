import { describe, expect, it } from "vitest";
import { LocalList, type LocalAuthSettings } from "../../../scripts/sim/local-list";

/** The simulator's local authorization list (OCPP 1.6 §3.5.3, §5.15) and what it decides by itself. */
const NOW = Date.parse("2026-06-01T12:00:00Z");
const DEFAULTS: LocalAuthSettings = { enabled: true, preAuthorize: false, authorizeOffline: true, allowUnknownOffline: false };

function filled() {
  const list = new LocalList();
  list.apply({
    listVersion: 3,
    updateType: "Full",
    localAuthorizationList: [
      { idTag: "ANNA", idTagInfo: { status: "Accepted", parentIdTag: "FAMILY" } },
      { idTag: "JAN", idTagInfo: { status: "Blocked" } },
      { idTag: "OLD", idTagInfo: { status: "Accepted", expiryDate: "2026-01-01T00:00:00Z" } },
    ],
  });
  return list;
}

describe("the simulator's local list", () => {
  it("takes a Full list, then Differential updates with a higher version, and reports its version", () => {
    const list = filled();
    expect(list.version).toBe(3);
    expect(list.apply({ listVersion: 3, updateType: "Differential", localAuthorizationList: [] })).toEqual({ status: "VersionMismatch" });
    expect(list.apply({ listVersion: 4, updateType: "Differential", localAuthorizationList: [{ idTag: "anna" }, { idTag: "NEW", idTagInfo: { status: "Accepted" } }] })).toEqual({
      status: "Accepted",
    });
    expect(list.version).toBe(4);
    // Offline: the removed tag is unknown (Invalid), the added one accepted; tags compare case-insensitively.
    expect(list.decide("ANNA", false, DEFAULTS, NOW)).toEqual({ status: "Invalid" });
    expect(list.decide("new", false, DEFAULTS, NOW)).toEqual({ status: "Accepted" });
  });

  it("offline, answers from the list: accepted, blocked, expired by its date, and unknown tags Invalid unless AllowOfflineTxForUnknownId", () => {
    const list = filled();
    expect(list.decide("anna", false, DEFAULTS, NOW)).toEqual({ status: "Accepted", parentIdTag: "FAMILY" });
    expect(list.decide("JAN", false, DEFAULTS, NOW)).toEqual({ status: "Blocked" });
    expect(list.decide("OLD", false, DEFAULTS, NOW)).toMatchObject({ status: "Expired" });
    expect(list.decide("STRANGER", false, DEFAULTS, NOW)).toEqual({ status: "Invalid" });
    expect(list.decide("STRANGER", false, { ...DEFAULTS, allowUnknownOffline: true }, NOW)).toEqual({ status: "Accepted" });
    expect(list.decide("ANNA", false, { ...DEFAULTS, enabled: false }, NOW)).toEqual({ status: "Invalid" });
  });

  it("online, asks the central system unless LocalPreAuthorize lets a listed Accepted tag start at once", () => {
    const list = filled();
    expect(list.decide("ANNA", true, DEFAULTS, NOW)).toBeUndefined();
    const pre = { ...DEFAULTS, preAuthorize: true };
    expect(list.decide("ANNA", true, pre, NOW)).toEqual({ status: "Accepted", parentIdTag: "FAMILY" });
    expect(list.decide("JAN", true, pre, NOW)).toBeUndefined();
    expect(list.decide("OLD", true, pre, NOW)).toBeUndefined();
    expect(list.decide("STRANGER", true, pre, NOW)).toBeUndefined();
    expect(list.decide("ANNA", true, { ...pre, enabled: false }, NOW)).toBeUndefined();
  });
});
