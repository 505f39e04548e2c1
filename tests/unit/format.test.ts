import { describe, expect, it } from "vitest";
import { checkAmount, filterNumeric, toMinorUnits } from "../../domain/amounts";
import {
  formatCost,
  formatDateTime,
  formatDayMonth,
  formatDuration,
  formatEnergy,
  formatFileSize,
  formatMoney,
  formatNumber,
  formatPower,
  formatTime,
  formatUnitPrice,
} from "../../domain/format";
import { parseLanguage } from "../../domain/languages";
import { readParameterSettings } from "../../domain/schemas/settings";

/** Polish groups thousands with a no-break space; Taiwanese Chinese puts a thin space between date and time. */
const NBSP = "\u00a0";
const THIN = "\u2009";
const PLN = { code: "PLN", sign: "zł", decimals: 2 };
const EUR = { code: "EUR", sign: "€", decimals: 2 };
const labels = { hours: "h", minutes: "min" };

describe("numbers in the interface language", () => {
  it.each([
    ["zh", "1,234.5"],
    ["en", "1,234.5"],
    ["zh_TW", "1,234.5"],
    ["pl", `1${NBSP}234,5`],
    ["pt_BR", "1.234,5"],
    ["de", "1.234,5"],
  ] as const)("writes 1234.5 in %s as %s", (language, expected) => {
    expect(formatNumber(1234.5, 1, { language })).toBe(expected);
  });

  it("uses the operator's decimal separator, grouping with the other mark where the language's would clash", () => {
    expect(formatNumber(1234.5, 1, { language: "en", decimalSeparator: "," })).toBe("1.234,5");
    expect(formatNumber(1234.5, 1, { language: "de", decimalSeparator: "." })).toBe("1,234.5");
    expect(formatNumber(1234.5, 1, { language: "pl", decimalSeparator: "." })).toBe(`1${NBSP}234.5`);
    expect(formatNumber(1234.5, 1, { language: "de", decimalSeparator: null })).toBe("1.234,5");
  });

  it("reads the operator's separator from its settings document, ignoring anything but a dot or a comma", () => {
    const separatorOf = (document: Record<string, unknown>) => readParameterSettings(document).decimalSeparator;
    expect(separatorOf({ decimalSeparator: "," })).toBe(",");
    expect(separatorOf({ decimalSeparator: "." })).toBe(".");
    expect(separatorOf({ decimalSeparator: ";" })).toBeNull();
    expect(separatorOf({})).toBeNull();
  });
});

describe("money: the operator's sign and decimals", () => {
  it.each([
    ["zh", "1,234.56 zł", "€1,234.56"],
    ["en", "1,234.56 zł", "€1,234.56"],
    ["zh_TW", "1,234.56 zł", "€1,234.56"],
    ["pl", `1${NBSP}234,56 zł`, `€1${NBSP}234,56`],
    ["pt_BR", "1.234,56 zł", "€1.234,56"],
    ["de", "1.234,56 zł", "€1.234,56"],
  ] as const)("writes 123456 minor units in %s as %s (PLN) and %s (EUR)", (language, pln, eur) => {
    expect(formatMoney(123456, PLN, { language })).toBe(pln);
    expect(formatMoney(123456, EUR, { language })).toBe(eur);
  });

  it.each([
    [500, { code: "XOF", sign: "CFA", decimals: 0 }, "500 CFA"],
    [2500, { code: "XAF", sign: "FCFA", decimals: 0 }, "2,500 FCFA"],
    [-705, { code: "USD", sign: "$", decimals: 2 }, "$-7.05"],
    [5, { code: "USD", sign: "$", decimals: 2 }, "$0.05"],
    [7, { code: "USD", sign: "$", decimals: 0 }, "$7"],
  ])("formats %i as %s", (minor, currency, expected) => {
    expect(formatMoney(minor, currency, { language: "en" })).toBe(expected);
  });

  it("keeps large amounts exact", () => {
    expect(formatMoney(900719925474099, EUR, { language: "de" })).toBe("€9.007.199.254.740,99");
  });

  it("shows the operator's decimals, rounding once, never more than the currency has", () => {
    expect(formatMoney(123456, PLN, { language: "en" }, { decimals: 1 })).toBe("1,234.6 zł");
    expect(formatMoney(123449, PLN, { language: "en" }, { decimals: 0 })).toBe("1,234 zł");
    expect(formatMoney(-150, EUR, { language: "en" }, { decimals: 0 })).toBe("€-2");
    expect(formatMoney(123456, PLN, { language: "en" }, { decimals: 4 })).toBe("1,234.56 zł");
  });

  it("writes the operator's decimal separator in amounts", () => {
    expect(formatMoney(123456, PLN, { language: "de", decimalSeparator: "." })).toBe("1,234.56 zł");
  });

  it("hides a zero cost when the operator hides them, and shows any other", () => {
    expect(formatCost(0, EUR, { language: "en" }, { hideZeroCosts: true })).toBe("");
    expect(formatCost(0, EUR, { language: "en" }, { hideZeroCosts: false })).toBe("€0.00");
    expect(formatCost(1, EUR, { language: "en" }, { hideZeroCosts: true })).toBe("€0.01");
  });
});

describe("energy, power and durations", () => {
  it.each([
    ["zh", "1,234.567 kWh", "7.40 kW", "2 h 15 min"],
    ["en", "1,234.567 kWh", "7.40 kW", "2 h 15 min"],
    ["zh_TW", "1,234.567 kWh", "7.40 kW", "2 h 15 min"],
    ["pl", `1${NBSP}234,567 kWh`, "7,40 kW", "2 h 15 min"],
    ["pt_BR", "1.234,567 kWh", "7,40 kW", "2 h 15 min"],
    ["de", "1.234,567 kWh", "7,40 kW", "2 h 15 min"],
  ] as const)("writes 1234567 Wh, 7.4 kW and 135 minutes in %s", (language, energy, power, duration) => {
    expect(formatEnergy(1234567, { language })).toBe(energy);
    expect(formatPower(7.4, { language })).toBe(power);
    expect(formatDuration(135, labels, { language })).toBe(duration);
  });

  it("shows energy with three decimals, also below one kWh", () => expect(formatEnergy(5, { language: "en" })).toBe("0.005 kWh"));

  it("shows durations under an hour in minutes, from 60 in hours and minutes", () => {
    expect(formatDuration(59, labels, { language: "en" })).toBe("59 min");
    expect(formatDuration(60, labels, { language: "en" })).toBe("1 h");
    expect(formatDuration(61, { hours: "godz.", minutes: "min" }, { language: "pl" })).toBe("1 godz. 1 min");
    expect(formatDuration(60_000, labels, { language: "de" })).toBe("1.000 h");
  });
});

describe("unit prices and file sizes", () => {
  it("writes a unit price text exactly, with four decimals, in the language and with the operator's separator", () => {
    expect(formatUnitPrice("0.5000", { language: "en" })).toBe("0.5000");
    expect(formatUnitPrice("1234.1235", { language: "de" })).toBe("1.234,1235");
    expect(formatUnitPrice("0.1", { language: "en", decimalSeparator: "," })).toBe("0,1000");
  });

  it("writes file sizes in KB under a MB and in MB with one decimal from there, the language's way", () => {
    expect(formatFileSize(10, { language: "en" })).toBe("1 KB");
    expect(formatFileSize(1536 * 1024, { language: "en" })).toBe("1.5 MB");
    expect(formatFileSize(1536 * 1024, { language: "pl" })).toBe("1,5 MB");
    expect(formatFileSize(1536 * 1024, { language: "en", decimalSeparator: "," })).toBe("1,5 MB");
  });
});

describe("dates and times in the operator's time zone, written the language's way", () => {
  it.each([
    ["zh", "2026/07/01 12:00:00", "07/01"],
    ["en", "07/01/2026, 12:00:00", "07/01"],
    ["zh_TW", `2026/07/01${THIN}12:00:00`, "07/01"],
    ["pl", "01.07.2026, 12:00:00", "01.07"],
    ["pt_BR", "01/07/2026, 12:00:00", "01/07"],
    ["de", "01.07.2026, 12:00:00", "01.07."],
  ] as const)("writes 2026-07-01T10:00:00Z in Warsaw in %s as %s", (language, dateTime, dayMonth) => {
    expect(formatDateTime("2026-07-01T10:00:00Z", "Europe/Warsaw", language)).toBe(dateTime);
    expect(formatDayMonth("2026-07-01", language)).toBe(dayMonth);
  });

  it("follows the zone's daylight saving time and uses a 24-hour clock", () => {
    expect(formatDateTime("2026-01-01T15:00:00Z", "Europe/Berlin", "en")).toBe("01/01/2026, 16:00:00");
    expect(formatTime("2026-07-01T13:04:05Z", "Europe/Warsaw", "en")).toBe("15:04");
    expect(formatTime("2026-07-01T13:04:05Z", "Europe/Warsaw", "de", true)).toBe("15:04:05");
  });
});

describe("amount rules", () => {
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
