import { describe, expect, it } from "vitest";
import { z } from "zod";
import { presetOf, presetRange } from "../../domain/date-range";
import { customerForm, customerInputFor, customerRulesOf } from "../../domain/schemas/drivers";
import { CATALOGUES } from "../../domain/i18n/catalogues";
import { createI18n } from "../../domain/i18n/i18n";
import { errorBody, namedInvalid } from "../../workers/http/error-envelope";
import { localPeriodParams } from "../../app/lib/search-params";

/** The date-range picker's presets, read in the operator's time zone (docs/rules/console.md "Date ranges"). */
describe("date-range presets", () => {
  // 2026-03-01 00:30 in Warsaw is still 28 February in UTC and in New York.
  const now = Date.parse("2026-02-28T23:30:00Z");

  it("takes today from the operator's zone, not the browser's or UTC", () => {
    expect(presetRange("today", now, "Europe/Warsaw")).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(presetRange("today", now, "America/New_York")).toEqual({ from: "2026-02-28", to: "2026-02-28" });
  });

  it("counts yesterday, the last 7 days and the months across month and year ends", () => {
    expect(presetRange("yesterday", now, "Europe/Warsaw")).toEqual({ from: "2026-02-28", to: "2026-02-28" });
    expect(presetRange("last7Days", now, "Europe/Warsaw")).toEqual({ from: "2026-02-23", to: "2026-03-01" });
    expect(presetRange("thisMonth", now, "Europe/Warsaw")).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(presetRange("lastMonth", now, "Europe/Warsaw")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    const newYear = Date.parse("2027-01-01T10:00:00Z");
    expect(presetRange("lastMonth", newYear, "Asia/Shanghai")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(presetRange("yesterday", newYear, "Asia/Shanghai")).toEqual({ from: "2026-12-31", to: "2026-12-31" });
    expect(presetRange("lastMonth", Date.parse("2024-03-15T12:00:00Z"), "UTC")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
  });

  it("names a range that equals a preset, and no preset for a custom one", () => {
    expect(presetOf({ from: "2026-02-23", to: "2026-03-01" }, now, "Europe/Warsaw")).toBe("last7Days");
    expect(presetOf({ from: "2026-02-23", to: "2026-03-01" }, now, "America/New_York")).toBeUndefined();
    expect(presetOf({ from: "2026-02-23T08:00", to: "2026-03-01" }, now, "Europe/Warsaw")).toBeUndefined();
    expect(presetOf({ from: "", to: "" }, now, "Europe/Warsaw")).toBeUndefined();
  });
});

describe("localPeriodParams", () => {
  it("turns days and local times typed in the operator's zone into the instants a verb filters by", () => {
    expect(localPeriodParams({ from: "2026-03-01", to: "2026-03-01" }, "Europe/Warsaw")).toEqual({ from: "2026-02-28T23:00:00.000Z", to: "2026-03-01T23:00:00.000Z" });
    expect(localPeriodParams({ from: "2026-07-01T08:30" }, "Europe/Warsaw")).toEqual({ from: "2026-07-01T06:30:00.000Z", to: undefined });
    // Anything else goes on for the verb to refuse with its own message.
    expect(localPeriodParams({ to: "yesterday" }, "Europe/Warsaw").to).toBe("yesterday");
  });
});

/** "Data validation failed" names the fields (docs/rules/console.md "Forms"). */
describe("validation messages", () => {
  it("names each field by its label in the language, dropping list indexes", () => {
    expect(namedInvalid(["zipCode", "chargePointList.2.pointId", "pointId"], createI18n("en").t)).toBe("Data validation failed: check zip code, charging point");
    expect(namedInvalid(["zipCode"], createI18n("de").t)).toBe("Datenprüfung fehlgeschlagen: bitte Postleitzahl prüfen");
    expect(namedInvalid(["somethingNew"], createI18n("pl").t)).toContain("somethingNew");
    expect(namedInvalid(["_"], createI18n("en").t)).toBe("Data validation failed");
  });

  it("answers a body refused without a message of its own with the fields in msg", () => {
    const parsed = z.object({ timeZone: z.string(), phone: z.number() }).safeParse({ timeZone: 3, phone: "x" });
    const { status, body } = errorBody(parsed.error, "en");
    expect(status).toBe(400);
    expect(body.msg).toBe("Data validation failed: check time zone, phone");
    expect(body.data).toEqual({ fields: { timeZone: "Data validation failed", phone: "Data validation failed" } });
  });

  it("keeps a field's own message as the headline", () => {
    const parsed = z.object({ name: z.string().min(1, { error: "formsHelp.validation.name" }) }).safeParse({ name: "" });
    expect(errorBody(parsed.error, "pt_BR").body.msg).toBe("Informe um nome");
  });
});

/** The customer form's rules by country and settings (docs/rules/drivers.md "What the customer form asks"). */
describe("customer form rules", () => {
  const base = { firstName: "A", lastName: "B", email: "a@example.com", country: "br" };
  const none = { gender: false, zipCode: false, evModel: false };

  it("asks for a CPF only where the operator is in Brazil, and requires it there", () => {
    expect(customerRulesOf("BR", none).cpf).toBe(true);
    expect(customerRulesOf("PL", none).cpf).toBe(false);
    expect(customerRulesOf(null, none).cpf).toBe(false);
    expect(customerInputFor(customerRulesOf("BR", none)).safeParse(base).error?.issues.map((i) => i.path)).toEqual([["cpf"]]);
    expect(customerInputFor(customerRulesOf("PL", none)).parse({ ...base, cpf: "529.982.247-25" }).cpf).toBeUndefined();
  });

  it("leaves gender, zip code and EV model optional unless required, the same in the form and the API", () => {
    expect(customerInputFor(customerRulesOf("PL", none)).parse(base)).toMatchObject({ gender: "UNSTATED", zipCode: "", evModel: "" });
    const all = customerRulesOf("PL", { gender: true, zipCode: true, evModel: true });
    const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path.join("."));
    expect(paths(customerInputFor(all).safeParse(base))).toEqual(["gender", "zipCode", "evModel"]);
    expect(paths(customerForm(2, all).safeParse({ ...base, overdraftCredit: "0" }))).toEqual(["gender", "zipCode", "evModel"]);
    expect(customerInputFor(all).safeParse({ ...base, gender: "FEMALE", zipCode: "01310-100", evModel: "BYD Dolphin" }).success).toBe(true);
  });
});

/** Plurals by each language's rules: "1 charging point", Polish 2 and 5 apart (docs/rules/console.md "Languages"). */
describe("plurals", () => {
  it("reads one and many in every language", () => {
    expect(createI18n("en").t("points.exported", { count: 1 })).toBe("1 charging point exported");
    expect(createI18n("en").t("points.exported", { count: 3 })).toBe("3 charging points exported");
    expect(createI18n("de").t("operations.fw.issueTo", { count: 1 })).toBe("An 1 Ladepunkt verteilen");
    expect(createI18n("pt_BR").t("errors.roleInUse", { count: 1 })).toBe("Este perfil está atribuído a 1 conta e não pode ser excluído");
    expect(createI18n("pt_BR").t("errors.roleInUse", { count: 2 })).toBe("Este perfil está atribuído a 2 contas e não pode ser excluído");
    const pl = createI18n("pl").t;
    expect(pl("operations.fw.issueTo", { count: 1 })).toBe("Wydaj na 1 punkt");
    expect(pl("operations.fw.issueTo", { count: 3 })).toBe("Wydaj na 3 punkty");
    expect(pl("operations.fw.issueTo", { count: 5 })).toBe("Wydaj na 5 punktów");
    expect(pl("operations.fw.issueTo", { count: 22 })).toBe("Wydaj na 22 punkty");
    expect(createI18n("zh").t("points.exported", { count: 1 })).toBe(createI18n("zh").t("points.exported", { count: 2 }).replace("2", "1"));
  });

  it("gives Polish its few and many wherever English has one and other", () => {
    const flat = (tree: Record<string, unknown>, prefix = ""): string[] =>
      Object.entries(tree).flatMap(([k, v]) => (v && typeof v === "object" ? flat(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
    const english = flat(CATALOGUES.en).filter((k) => k.endsWith("_one"));
    const polish = new Set(flat(CATALOGUES.pl));
    expect(english.length).toBeGreaterThan(20);
    expect(english.filter((k) => !polish.has(k.replace(/_one$/, "_few")) || !polish.has(k.replace(/_one$/, "_many")))).toEqual([]);
  });
});
