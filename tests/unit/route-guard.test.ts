import { describe, expect, it } from "vitest";
import { menuTreeFor } from "../../tenants/permissions";
import { guard, type GuardInput } from "../../tenants/route-guard";

const superMenu = menuTreeFor({ operatorCode: "0PL002", sub: 0, kind: "OPERATOR", edition: "ultimate", adminType: "SUPER", role: null });
const viewerMenu = menuTreeFor({
  operatorCode: "0PL002",
  sub: 0,
  kind: "OPERATOR",
  edition: "ultimate",
  adminType: "NORMAL",
  role: { type: "NORMAL", menuCodes: ["monitoring.charging", "equipment"] },
});
const subMenu = menuTreeFor({ operatorCode: "0PL002A", sub: 1, kind: "OPERATOR", edition: "ultimate", adminType: "SUPER", role: null });

const user = (menu = superMenu, extra: Partial<NonNullable<GuardInput["user"]>> = {}) => ({
  sub: 0 as const,
  mustChangePassword: false,
  menu,
  ...extra,
});
const decide = (path: string, input: Partial<GuardInput> = {}) =>
  guard({ path, user: null, operatorDomain: false, storedOperatorCode: undefined, ...input });

describe("route guard", () => {
  it("lets public pages pass without login", () => {
    expect(decide("/privacy/mobile")).toEqual({ kind: "allow" });
    expect(decide("/tourist/invoices/42")).toEqual({ kind: "allow" });
  });

  it("always allows 404, rePassword, cashier and disclaimerMobile to a logged-in user", () => {
    for (const path of ["/404", "/rePassword", "/suboperators/rePassword", "/station/cashier/7", "/disclaimer/mobile"]) {
      expect(decide(path, { user: user(viewerMenu) })).toEqual({ kind: "allow" });
    }
  });

  it("sends a logged-in user from carrierList, homePage and login to the first leaf menu", () => {
    for (const path of ["/carrierList", "/homePage", "/0PL002/login", "/login2"]) {
      expect(decide(path, { user: user() })).toEqual({ kind: "redirect", to: "/home" });
    }
    expect(decide("/homePage", { user: user(viewerMenu) })).toEqual({ kind: "redirect", to: "/systemMonitoring/charging" });
  });

  it("allows a menu URL, and a sub-page through its meta parent", () => {
    expect(decide("/equipmentManagement/point", { user: user(viewerMenu) })).toEqual({ kind: "allow" });
    expect(decide("/equipmentManagement/point/pointDetail/12", { user: user(viewerMenu) })).toEqual({ kind: "allow" });
  });

  it("refuses other routes with 'Your permissions are insufficient'", () => {
    expect(decide("/carrierSystem/role", { user: user(viewerMenu) })).toEqual({
      kind: "redirect",
      to: "/404",
      messageKey: "guard.insufficient",
    });
  });

  it("tells a user with no menu so", () => {
    expect(decide("/homePage", { user: user([]) })).toMatchObject({ to: "/404", messageKey: "guard.noMenu" });
    expect(decide("/homePage", { user: user([], { sub: 1 }) })).toMatchObject({ messageKey: "guard.operatorNoMenu" });
  });

  it("holds a user with an initial password on the password change page", () => {
    expect(decide("/home", { user: user(superMenu, { mustChangePassword: true }) })).toMatchObject({ to: "/rePassword" });
    expect(decide("/suboperators/station", { user: user(subMenu, { sub: 1, mustChangePassword: true }) })).toMatchObject({
      to: "/suboperators/rePassword",
    });
  });

  it("sends a visitor to the remembered operator's login, or to homePage with 'no login info'", () => {
    expect(decide("/home", { storedOperatorCode: "0PL002" })).toEqual({ kind: "redirect", to: "/0PL002/login" });
    expect(decide("/home")).toEqual({ kind: "redirect", to: "/homePage", messageKey: "guard.noLogin" });
    for (const path of ["/carrierList", "/homePage", "/0PL002/login", "/disclaimer/mobile"]) {
      expect(decide(path)).toEqual({ kind: "allow" });
    }
  });

  it("sends a visitor without a session from / to the operator picker without a warning", () => {
    expect(decide("/")).toEqual({ kind: "redirect", to: "/homePage" });
    expect(decide("/", { storedOperatorCode: "0PL002" })).toEqual({ kind: "redirect", to: "/0PL002/login" });
  });

  it("on an operator's own domain sends carrierList to the root login", () => {
    expect(decide("/carrierList", { operatorDomain: true })).toEqual({ kind: "redirect", to: "/" });
    expect(decide("/", { operatorDomain: true })).toEqual({ kind: "allow" });
  });
});

describe("menus", () => {
  it("gives SUPER the whole operator tree and sub-operators their reduced menu", () => {
    const codes = JSON.stringify(superMenu);
    expect(codes).toContain("carrier.role");
    expect(codes).toContain("emsp.platform");
    expect(JSON.stringify(subMenu)).toContain("sub.equipment.point");
    expect(JSON.stringify(subMenu)).not.toContain("carrier.role");
  });

  it("restricts entries by operator-code prefix (0PL)", () => {
    const german = menuTreeFor({ operatorCode: "0DE001", sub: 0, kind: "OPERATOR", edition: "ultimate", adminType: "SUPER", role: null });
    expect(JSON.stringify(superMenu)).toContain("subOperator.account");
    expect(JSON.stringify(german)).not.toContain("subOperator.account");
    const germanSub = menuTreeFor({ operatorCode: "0DE001A", sub: 1, kind: "OPERATOR", edition: "ultimate", adminType: "SUPER", role: null });
    expect(JSON.stringify(germanSub)).not.toContain("sub.system.parameterSettings");
    expect(JSON.stringify(subMenu)).toContain("sub.system.parameterSettings");
  });

  it("grants a group's children when the group is selected, and only the selection otherwise", () => {
    const json = JSON.stringify(viewerMenu);
    expect(json).toContain("equipment.remoteControl");
    expect(json).toContain("monitoring.charging");
    expect(json).not.toContain("monitoring.alarmRecord");
  });
});
