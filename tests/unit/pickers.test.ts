import { describe, expect, it } from "vitest";
import { movedTo } from "../../app/components/form/option-keys";
import { exportQueryOf, localPeriodParams } from "../../app/lib/search-params";
import { pointOptionsQuery } from "../../domain/schemas/point-options";
import { amountInput } from "../../domain/schemas/stations";
import { operatorDecimals, subscriptionMinor } from "../../domain/subscription-amount";

/** The platform's operator form: the subscription typed in major units, kept in minor units (docs/rules/console.md "Forms"). */
describe("the subscription amount in major units", () => {
  it.each([
    ["199.99", 2, 19_999],
    ["199.9", 2, 19_990],
    ["199", 2, 19_900],
    ["0", 2, 0],
    ["1500", 0, 1500],
    ["12.345", 3, 12_345],
    [" 7.5 ", 2, 750],
    ["90071992547409.91", 2, 9_007_199_254_740_991],
  ])("turns %s with %i decimals into %i minor units", (typed, decimals, minor) => {
    expect(subscriptionMinor(typed, decimals)).toEqual({ minor });
  });

  it("leaves a blank amount out", () => {
    expect(subscriptionMinor("  ", 2)).toEqual({ minor: undefined });
  });

  it.each([
    ["1.234", 2, "decimals"],
    ["12.5", 0, "decimals"],
    ["12.", 2, "trailingDot"],
    ["12,50", 2, "number"],
    ["abc", 2, "number"],
    ["-5", 2, "negative"],
  ])("refuses %s with %i decimals (%s)", (typed, decimals, problem) => {
    expect(subscriptionMinor(typed, decimals)).toEqual({ problem });
  });

  it("shows a kept amount in major units again, so that saving it unchanged keeps it", () => {
    for (const [minor, decimals] of [[19_999, 2], [5, 2], [0, 2], [1500, 0], [12_345, 3]] as const) {
      expect(subscriptionMinor(amountInput(minor, decimals), decimals)).toEqual({ minor });
    }
    expect(amountInput(19_999, 2)).toBe("199.99");
    expect(amountInput(5, 2)).toBe("0.05");
  });

  it("takes the decimals typed on the form, else those of the currency", () => {
    expect(operatorDecimals("PLN", "3")).toBe(3);
    expect(operatorDecimals("PLN", 0)).toBe(0);
    expect(operatorDecimals("PLN", "")).toBe(2);
    expect(operatorDecimals("jpy", undefined)).toBe(0);
    expect(operatorDecimals("BHD", null)).toBe(3);
    expect(operatorDecimals("PLN", "7")).toBe(2);
    expect(operatorDecimals("", "")).toBe(2);
  });
});

describe("the serial-number picker", () => {
  it("moves through the matches with the arrow keys, wrapping around, and jumps with Home and End", () => {
    expect(movedTo("ArrowDown", -1, 3)).toBe(0);
    expect(movedTo("ArrowDown", 2, 3)).toBe(0);
    expect(movedTo("ArrowUp", 0, 3)).toBe(2);
    expect(movedTo("ArrowUp", -1, 3)).toBe(2);
    expect(movedTo("ArrowUp", 2, 3)).toBe(1);
    expect(movedTo("Home", 2, 3)).toBe(0);
    expect(movedTo("End", 0, 3)).toBe(2);
    expect(movedTo("ArrowDown", -1, 0)).toBeUndefined();
    expect(movedTo("a", 1, 3)).toBeUndefined();
  });

  it("asks for 20 matches unless told, and at most 100", () => {
    expect(pointOptionsQuery.parse({})).toEqual({ limit: 20 });
    expect(pointOptionsQuery.parse({ keyword: " AB ", limit: "100" })).toEqual({ keyword: "AB", limit: 100 });
    expect(pointOptionsQuery.safeParse({ limit: "101" }).success).toBe(false);
    expect(pointOptionsQuery.safeParse({ limit: "0" }).success).toBe(false);
    expect(pointOptionsQuery.safeParse({ keyword: "x".repeat(65) }).success).toBe(false);
  });
});

/** The failures list's period: typed in the operator's time zone, sent to the API (and its export) in UTC. */
describe("the failures list's period and export", () => {
  it("exports the loader's filter with the period in UTC and without the page", () => {
    const raw = { from: "2026-07-01", to: "2026-07-01T12:30", repeated: "true", current: "3", size: "100" };
    const filter = { ...raw, ...localPeriodParams(raw, "Europe/Warsaw") };
    expect(exportQueryOf(filter)).toEqual({ from: "2026-06-30T22:00:00.000Z", to: "2026-07-01T10:30:00.001Z", repeated: "true" });
    expect(exportQueryOf({ status: undefined, serialNumber: "AB" })).toEqual({ serialNumber: "AB" });
  });
});
