import { describe, expect, it } from "vitest";
import { fromPayPalValue, paypalDecimals, toPayPalValue } from "../../domain/paypal-amounts";

/** Minor units to PayPal's decimal strings and back, exactly (docs/rules/payments.md "PayPal"). */
describe("PayPal amounts", () => {
  it.each([
    // minor, currency, our decimals, PayPal's value
    [1250, "PLN", 2, "12.50"],
    [5, "EUR", 2, "0.05"],
    [0, "USD", 2, "0.00"],
    [1250, "JPY", 0, "1250"],
    [12300, "HUF", 2, "123"],
    [700, "TWD", 0, "700"],
    [12345, "PLN", 3, null],
    [12340, "PLN", 3, "12.34"],
    [12345, "HUF", 2, null],
    [-100, "PLN", 2, null],
    [1.5, "PLN", 2, null],
    [9_007_199_254_740_991, "PLN", 2, "90071992547409.91"],
  ] as const)("writes %s minor units of %s (%s decimals) as %s", (minor, currency, decimals, value) => {
    expect(toPayPalValue(minor, currency, decimals)).toBe(value);
  });

  it.each([
    ["12.50", "PLN", 2, 1250],
    ["12.5", "PLN", 2, 1250],
    ["12", "PLN", 2, 1200],
    ["0.05", "EUR", 2, 5],
    ["1250", "JPY", 0, 1250],
    ["123", "HUF", 2, 12300],
    ["123.00", "HUF", 2, null],
    ["12.505", "PLN", 2, null],
    ["12.50", "JPY", 0, null],
    ["-1.00", "PLN", 2, null],
    ["1e3", "PLN", 2, null],
    [" 1.00", "PLN", 2, null],
    ["", "PLN", 2, null],
    ["1.10", "BHD", 2, 110],
    ["1.105", "BHD", 2, null],
    ["1.105", "BHD", 3, 1105],
  ] as const)("reads %s %s (%s decimals) as %s", (value, currency, decimals, minor) => {
    expect(fromPayPalValue(value, currency, decimals)).toBe(minor);
  });

  it("knows PayPal's whole-unit currencies", () => {
    expect([paypalDecimals("JPY"), paypalDecimals("huf"), paypalDecimals("TWD"), paypalDecimals("PLN"), paypalDecimals("BHD")]).toEqual([0, 0, 0, 2, 3]);
  });
});
