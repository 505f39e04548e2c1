import { describe, expect, it } from "vitest";
import { validityOf } from "../../domain/operator-validity";
import { allocateConnectors, dayCharge, daysLeft, packageStateAt, utcDay } from "../../domain/price-package";
import { operatorInput } from "../../domain/schemas/platform";
import { EDITION_MENUS } from "../../tenants/editions";
import { MENU_CATALOGUE } from "../../tenants/menu-catalogue";
import { catalogueFor, codesOf, leaves } from "../../tenants/permissions";

const key = (edition: "basic" | "standard" | "ultimate", operatorCode = "0PL002", sub: 0 | 1 = 0) => ({ operatorCode, sub, kind: "OPERATOR" as const, edition });

describe("editions (docs/rules/platform.md \"Editions\")", () => {
  it("gives every edition home, monitoring and equipment, and ultimate every menu", () => {
    for (const edition of ["basic", "standard", "ultimate"] as const) {
      const codes = codesOf(catalogueFor(key(edition)));
      expect(codes).toEqual(expect.arrayContaining(["home", "monitoring.charging", "monitoring.alarmRecord", "equipment.station", "equipment.point"]));
    }
    const operatorLeaves = leaves(MENU_CATALOGUE.filter((e) => e.area === "OPERATOR")).map((e) => e.code);
    expect(leaves(catalogueFor(key("ultimate"))).map((e) => e.code)).toEqual(operatorLeaves);
  });

  it("grows from basic to standard to ultimate, and leaves finance and roaming out of basic", () => {
    const basic = codesOf(catalogueFor(key("basic")));
    const standard = codesOf(catalogueFor(key("standard")));
    const ultimate = codesOf(catalogueFor(key("ultimate")));
    expect(standard).toEqual(expect.arrayContaining(basic));
    expect(ultimate).toEqual(expect.arrayContaining(standard));
    expect(basic).not.toContain("finance.chargeRecord");
    expect(standard).toContain("finance.chargeRecord");
    expect(standard).not.toContain("emsp.platform");
    expect(ultimate).toContain("emsp.platform");
  });

  it("names only codes of the catalogue", () => {
    const known = new Set(codesOf(MENU_CATALOGUE));
    for (const menus of Object.values(EDITION_MENUS)) if (menus !== "*") for (const code of menus) expect(known).toContain(code);
  });

  it("narrows the sub-operator area too, and keeps the 0PL prefix rule", () => {
    expect(codesOf(catalogueFor(key("basic", "0PL002A", 1)))).not.toContain("sub.finance.bill");
    expect(codesOf(catalogueFor(key("standard", "0PL002A", 1)))).toContain("sub.finance.bill");
    // A sub-operator's own statements come with its finance group (docs/rules/statements.md "Sub-operators").
    expect(codesOf(catalogueFor(key("basic", "0PL002A", 1)))).not.toContain("sub.finance.financialStatements");
    expect(codesOf(catalogueFor(key("standard", "0PL002A", 1)))).toContain("sub.finance.financialStatements");
    expect(codesOf(catalogueFor(key("ultimate", "0DE001")))).not.toContain("subOperator.account");
  });

  it("gives the platform its own area and nothing of an operator's, whatever its edition", () => {
    const platform = codesOf(catalogueFor({ operatorCode: "PLATFORM", sub: 0, kind: "PLATFORM", edition: "basic" }));
    expect(platform).toEqual(["platform", "platform.operator", "platform.pricePackage", "platform.mail"]);
    expect(codesOf(catalogueFor(key("ultimate")))).not.toContain("platform.operator");
  });
});

describe("price packages (docs/rules/platform.md \"Price packages\")", () => {
  const begin = new Date("2026-01-10T00:00:00Z");
  const end = new Date("2026-02-10T00:00:00Z");
  it("is ineffective before its beginning, effective until its end, then expired; void stays void", () => {
    expect(packageStateAt({ status: "ineffective", beginAt: begin, endAt: end }, Date.parse("2026-01-09T23:59:59Z"))).toBe("ineffective");
    expect(packageStateAt({ status: "ineffective", beginAt: begin, endAt: end }, begin.getTime())).toBe("effective");
    expect(packageStateAt({ status: "effective", beginAt: begin, endAt: end }, end.getTime())).toBe("expired");
    expect(packageStateAt({ status: "void", beginAt: begin, endAt: end }, Date.parse("2026-01-20T00:00:00Z"))).toBe("void");
  });

  it.each([
    ["0.35", 2, 2, 70],
    ["1.2", 3, 2, 360],
    ["0.0049", 1, 2, 0],
    ["0.005", 1, 2, 1],
    ["0.3333", 3, 2, 100],
    ["12.5", 1, 0, 13],
    ["1234567.8912", 7, 3, 8641975238],
  ])("charges %s × %i connectors in a currency of %i decimals as %i minor units, rounded once", (price, connectors, decimals, minor) => {
    expect(dayCharge(price, connectors, decimals)).toBe(minor);
  });

  it("bills each enabled connector once: default first, then regular, then temporary", () => {
    const pkg = (id: number, type: "default" | "regular" | "temporary", ac: number, dc: number) => ({ id, type, acConnectors: ac, dcConnectors: dc, beginAt: begin });
    const allotted = allocateConnectors([pkg(3, "temporary", 5, 5), pkg(1, "default", 2, 1), pkg(2, "regular", 1, 0)], { AC: 5, DC: 1 });
    expect(allotted.map((a) => [a.pkg.id, a.ac, a.dc])).toEqual([
      [1, 2, 1],
      [2, 1, 0],
      [3, 2, 0],
    ]);
  });

  it("days are UTC days, the day begun counting", () => {
    expect(utcDay(Date.parse("2026-03-01T23:30:00+02:00"))).toBe("2026-03-01");
    expect(daysLeft(Date.parse("2026-01-31T18:00:00Z"), end.getTime())).toBe(10);
    expect(daysLeft(end.getTime() + 5, end.getTime())).toBe(1);
  });
});

describe("operator validity (docs/rules/platform.md \"Validity\")", () => {
  const at = Date.parse("2026-06-01T00:00:00Z");
  it("is valid inside its window, expired after, future before, disabled when INVALID", () => {
    const window = { validFrom: new Date("2026-01-01T00:00:00Z"), validUntil: new Date("2027-01-01T00:00:00Z") };
    expect(validityOf({ status: "VALID", ...window }, at)).toBe("valid");
    expect(validityOf({ status: "VALID", validFrom: null, validUntil: null }, at)).toBe("valid");
    expect(validityOf({ status: "VALID", ...window }, window.validUntil.getTime())).toBe("expired");
    expect(validityOf({ status: "VALID", ...window }, Date.parse("2025-12-31T23:59:59Z"))).toBe("future");
    expect(validityOf({ status: "INVALID", ...window }, at)).toBe("disabled");
  });
});

describe("the operator form's input (docs/rules/platform.md \"Operators\")", () => {
  const base = { code: "0TS009", name: "Form", edition: "basic", timeZone: "UTC", currency: "eur", defaultLanguage: "en", admin: { username: "formadmin", email: "a@example.com", name: "Form Admin" } };
  it("reads blank dates as not given, domains typed one per line, yes/no as a boolean", () => {
    const parsed = operatorInput.parse({ ...base, validFrom: "", validUntil: "2099-12-31", domains: "a.example.com\nb.example.com", joinOcpi: "true" });
    expect(parsed).toMatchObject({ validFrom: undefined, currency: "EUR", domains: ["a.example.com", "b.example.com"], joinOcpi: true });
    expect(parsed.validUntil?.toISOString()).toBe("2099-12-31T00:00:00.000Z");
    expect(operatorInput.parse(parsed).validUntil?.toISOString()).toBe("2099-12-31T00:00:00.000Z");
  });
});
