import { describe, expect, it } from "vitest";
import { evseIdOf, evseUidOf, pointOfEvseUid } from "../../domain/ocpi/cpo-evse";

/** Our EVSEs on the OCPI wire (docs/rules/ocpi.md "Partners' drivers at our chargers"). */
describe("EVSE names", () => {
  it("names an EVSE by its point and connector and reads the name back", () => {
    expect(evseUidOf(42, 2)).toBe("42*2");
    expect(evseIdOf("PL", "PLD", 42, 2)).toBe("PL*PLD*E42*2");
    expect(pointOfEvseUid(evseUidOf(42, 2))).toEqual({ pointId: 42, connectorNo: 2 });
  });

  it("reads nothing from a uid that is not one of ours", () => {
    for (const uid of ["", "42", "42*", "*2", "042*1", "42*0", "42*1*1", "a*1", "42-1", "1*1000"]) expect(pointOfEvseUid(uid)).toBeNull();
  });
});
