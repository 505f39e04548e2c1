import { describe, expect, it } from "vitest";
import { checkAmount, filterNumeric, toMinorUnits } from "../../domain/amounts";
import { formatDateTime, formatDuration, formatEnergy, formatMoney } from "../../domain/format";
import { parseLanguage } from "../../domain/languages";

describe("money (SPEC §9)", () => {
  it.each([
    [12345, { code: "PLN", sign: "zł", decimals: 2 }, "123.45 zł"],
    [500, { code: "XOF", sign: "CFA", decimals: 0 }, "500 CFA"],
    [12345, { code: "EUR", sign: "€", decimals: 2 }, "€123.45"],
    [-705, { code: "USD", sign: "$", decimals: 2 }, "$-7.05"],
    [7, { code: "USD", sign: "$", decimals: 0 }, "$7"],
  ])("formats %i as %s", (minor, currency, expected) => {
    expect(formatMoney(minor, currency)).toBe(expected);
  });
});

describe("energy, durations and times", () => {
  it("shows energy in kWh with three decimals", () => expect(formatEnergy(12345)).toBe("12.345 kWh"));
  it("shows durations under an hour in minutes, from 60 in hours and minutes", () => {
    expect(formatDuration(59)).toBe("59 min");
    expect(formatDuration(60)).toBe("1 h");
    expect(formatDuration(135)).toBe("2 h 15 min");
  });
  it("shows times in the operator's time zone", () => {
    expect(formatDateTime("2026-07-01T10:00:00Z", "Europe/Warsaw")).toBe("2026-07-01 12:00:00");
    expect(formatDateTime("2026-01-01T10:00:00Z", "Europe/Berlin")).toBe("2026-01-01 11:00:00");
  });
});

describe("amount rules (SPEC §5)", () => {
  it.each([
    ["12.34", 2, undefined],
    ["12.345", 2, "decimals"],
    ["12.", 2, "trailingDot"],
    ["12.5", 0, "decimals"],
    ["12", 0, undefined],
    ["", 2, "required"],
    ["1e3", 2, "number"],
  ])("checks %s with %i decimals", (input, decimals, problem) => {
    expect(checkAmount(input, decimals)).toBe(problem);
  });
  it("converts to minor units without float drift", () => {
    expect(toMinorUnits("0.29", 2)).toBe(29);
    expect(toMinorUnits("19.9", 2)).toBe(1990);
    expect(toMinorUnits("-3.05", 2)).toBe(-305);
  });
  it("filters typing to digits and allowed decimals", () => {
    expect(filterNumeric("a1b2.345", 2)).toBe("12.34");
    expect(filterNumeric("12.5", 0)).toBe("125");
    expect(filterNumeric(".5", 2)).toBe("5");
  });
});

describe("languages", () => {
  it("reads pt-BR and pt_BR alike and ignores unknown tags", () => {
    expect(parseLanguage("pt-BR")).toBe("pt_BR");
    expect(parseLanguage("pt_BR")).toBe("pt_BR");
    expect(parseLanguage("zh-TW")).toBe("zh_TW");
    expect(parseLanguage("de-DE")).toBe("de");
    expect(parseLanguage("xx")).toBeUndefined();
  });
});
