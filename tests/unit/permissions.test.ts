import { describe, expect, it } from "vitest";
import { flattenCatalogue } from "../../tenants/menu-catalogue";
import { grantedLeaves, isSuper, mayOperateChargers, menusBeyond, menuTreeFor, REMOTE_CONTROL_MENUS } from "../../tenants/permissions";

const PL002 = { operatorCode: "0PL002", sub: 0, kind: "OPERATOR", edition: "ultimate" } as const;
const tree = (menuCodes: string[]) => menuTreeFor({ operatorCode: "0PL002", sub: 0, kind: "OPERATOR", edition: "ultimate", adminType: "NORMAL", role: { type: "NORMAL", menuCodes } });

describe("what a role may hand out", () => {
  it("counts a group as every screen in it", () => {
    expect(grantedLeaves(PL002, ["monitoring"])).toEqual(
      expect.arrayContaining(["monitoring.charging", "monitoring.chargingPile", "monitoring.connector", "monitoring.alarmRecord"]),
    );
  });

  it("lets an account hand out only the screens it holds", () => {
    const actor = tree(["home", "monitoring.charging"]);
    expect(menusBeyond(actor, PL002, ["home", "monitoring.charging"])).toEqual([]);
    expect(menusBeyond(actor, PL002, ["monitoring"])).toContain("monitoring.chargingPile");
    expect(menusBeyond(actor, PL002, ["equipment.point"])).toEqual(["equipment.point"]);
  });

  it("knows a SUPER by its admin type or its role's type", () => {
    expect(isSuper({ adminType: "SUPER", role: null })).toBe(true);
    expect(isSuper({ adminType: "NORMAL", role: { type: "SUPER", menuCodes: [] } })).toBe(true);
    expect(isSuper({ adminType: "NORMAL", role: { type: "NORMAL", menuCodes: ["carrier.role"] } })).toBe(false);
  });
});

describe("watching is not operating", () => {
  it("marks monitoring screens view-only and the remote-control screens as commanding chargers", () => {
    const access = Object.fromEntries(flattenCatalogue().map(({ entry }) => [entry.code, entry.access]));
    expect(access["monitoring.chargingPile"]).toBe("watch");
    expect(access["monitoring.charging"]).toBe("watch");
    for (const code of REMOTE_CONTROL_MENUS) expect(access[code]).toBe("operate");
    expect(access["carrier.role"]).toBe("manage");
  });

  it("lets only the remote-control and point menus operate chargers", () => {
    expect(mayOperateChargers(tree(["monitoring.chargingPile", "monitoring.charging"]))).toBe(false);
    expect(mayOperateChargers(tree(["equipment.remoteControl"]))).toBe(true);
    expect(mayOperateChargers(tree(["equipment.point"]))).toBe(true);
  });
});
