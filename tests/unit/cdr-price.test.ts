import { describe, expect, it } from "vitest";
import { cdrCharge, currencyDecimals, minorOf, whOf } from "../../domain/ocpi/cdr-price";

/** A partner's CDR in minor units (docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md). */
describe("CDR amounts in minor units", () => {
  it("reads the decimal the partner wrote and rounds once, half away from zero", () => {
    expect(minorOf(6.07, 2)).toBe(607);
    expect(minorOf(0.1 + 0.2, 2)).toBe(30);
    expect(minorOf(1.005, 2)).toBe(101);
    expect(minorOf(0.125, 2)).toBe(13);
    expect(minorOf(-1.005, 2)).toBe(-101);
    expect(minorOf(1234.5, 0)).toBe(1235);
    expect(minorOf(1e-7, 2)).toBe(0);
    expect(minorOf(12, 3)).toBe(12_000);
    expect(whOf(12.3456)).toBe(12_346);
    expect(() => minorOf(Number.NaN, 2)).toThrow(RangeError);
  });

  it("knows a currency's decimals, 2 for a code it does not know", () => {
    expect(currencyDecimals("EUR")).toBe(2);
    expect(currencyDecimals("JPY")).toBe(0);
    expect(currencyDecimals("BHD")).toBe(3);
    expect(currencyDecimals("nope")).toBe(2);
  });

  it("charges the total with VAT when given, keeps the partner's lines, and leaves the tax unknown without it", () => {
    const withVat = cdrCharge({ total_cost: { excl_vat: 20, incl_vat: 24.6 }, total_energy_cost: { excl_vat: 18, incl_vat: 22.14 }, total_parking_cost: { excl_vat: 2 } }, 2);
    expect(withVat).toEqual({
      totalCost: 2460,
      taxCost: 460,
      vatIncluded: true,
      costLines: [
        { kind: "ENERGY", exclVat: 1800, inclVat: 2214 },
        { kind: "PARKING", exclVat: 200, inclVat: null },
        { kind: "TOTAL", exclVat: 2000, inclVat: 2460 },
      ],
    });
    expect(cdrCharge({ total_cost: { excl_vat: 5.1 } }, 2)).toEqual({ totalCost: 510, taxCost: null, vatIncluded: false, costLines: [{ kind: "TOTAL", exclVat: 510, inclVat: null }] });
  });
});
