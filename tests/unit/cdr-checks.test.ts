import { describe, expect, it } from "vitest";
import { cdrCeiling, checkCdrMoney, DEFAULT_CDR_LIMIT, isWholeMinor, type CdrMoney, type CdrMoneyFacts } from "../../domain/ocpi/cdr-checks";

/** What a partner's CDR may do to a wallet (docs/rules/ocpi.md "What a CDR may bill"). */
const PLN = { code: "PLN", decimals: 2 };
const facts = (more: Partial<CdrMoneyFacts> = {}): CdrMoneyFacts => ({ currency: PLN, limit: DEFAULT_CDR_LIMIT, ...more });
const cdr = (total: { excl_vat: number; incl_vat?: number }, more: Partial<CdrMoney> = {}): CdrMoney => ({ total_cost: total, total_energy: 12.5, total_time: 1, currency: "PLN", ...more });

describe("a CDR's money before billing", () => {
  it("holds a negative total that is not a credit CDR, even when the operator releases it", () => {
    expect(checkCdrMoney(cdr({ excl_vat: -100, incl_vat: -123 }), facts())).toEqual({ kind: "HOLD", reason: "NEGATIVE_TOTAL" });
    expect(checkCdrMoney(cdr({ excl_vat: 10, incl_vat: -1 }), facts({ released: true }))).toEqual({ kind: "HOLD", reason: "NEGATIVE_TOTAL" });
    expect(checkCdrMoney(cdr({ excl_vat: -5 }, { currency: "EUR" }), facts())).toEqual({ kind: "HOLD", reason: "NEGATIVE_TOTAL" });
  });

  it("debits a total within 3.00 per kWh and 0.50 per minute, and holds one above it until released", () => {
    // 12.5 kWh and one hour: 37.50 + 30.00.
    expect(cdrCeiling({ total_energy: 12.5, total_time: 1 }, DEFAULT_CDR_LIMIT, 2)).toBe(6750);
    expect(cdrCeiling({ total_energy: 0.001, total_time: 0 }, DEFAULT_CDR_LIMIT, 2)).toBe(1);
    expect(cdrCeiling({ total_energy: 10, total_time: 0.5 }, { perKwh: "0.8", perMinute: "0" }, 0)).toBe(8);
    expect(checkCdrMoney(cdr({ excl_vat: 20, incl_vat: 24.6 }), facts())).toEqual({ kind: "DEBIT", amount: 2460 });
    expect(checkCdrMoney(cdr({ excl_vat: 67.5 }), facts())).toEqual({ kind: "DEBIT", amount: 6750 });
    expect(checkCdrMoney(cdr({ excl_vat: 67.51 }), facts())).toEqual({ kind: "HOLD", reason: "ABOVE_LIMIT" });
    expect(checkCdrMoney(cdr({ excl_vat: 60, incl_vat: 73.8 }), facts())).toEqual({ kind: "HOLD", reason: "ABOVE_LIMIT" });
    expect(checkCdrMoney(cdr({ excl_vat: 60, incl_vat: 73.8 }), facts({ released: true }))).toEqual({ kind: "DEBIT", amount: 7380 });
    // The operator's own limit.
    expect(checkCdrMoney(cdr({ excl_vat: 20 }), facts({ limit: { perKwh: "1", perMinute: "0.1" } }))).toEqual({ kind: "HOLD", reason: "ABOVE_LIMIT" });
  });

  it("holds a total that is not a whole number of minor units, and leaves another currency to its own path", () => {
    expect(isWholeMinor(24.6, 2)).toBe(true);
    expect(isWholeMinor(0.1 + 0.2, 2)).toBe(false);
    expect(isWholeMinor(1e21, 0)).toBe(true);
    expect(isWholeMinor(12.345, 2)).toBe(false);
    expect(checkCdrMoney(cdr({ excl_vat: 12.345 }), facts())).toEqual({ kind: "HOLD", reason: "NOT_MINOR_UNITS" });
    expect(checkCdrMoney(cdr({ excl_vat: 12.345 }), facts({ released: true }))).toEqual({ kind: "DEBIT", amount: 1235 });
    expect(checkCdrMoney(cdr({ excl_vat: 1.5 }), facts({ currency: { code: "HUF", decimals: 0 } }))).toEqual({ kind: "OTHER_CURRENCY" });
    expect(checkCdrMoney(cdr({ excl_vat: 1.5 }, { currency: "HUF" }), facts({ currency: { code: "HUF", decimals: 0 } }))).toEqual({ kind: "HOLD", reason: "NOT_MINOR_UNITS" });
  });

  it("gives back a credit only for a CDR that debited, at most what is left of that debit", () => {
    const credit = (excl: number, more: Partial<CdrMoney> = {}) => cdr({ excl_vat: excl }, { credit: true, ...more });
    expect(checkCdrMoney(credit(-10), facts({ credited: { debited: 2460, returned: 0 } }))).toEqual({ kind: "CREDIT", amount: 1000 });
    expect(checkCdrMoney(credit(-24.6), facts({ credited: { debited: 2460, returned: 0 } }))).toEqual({ kind: "CREDIT", amount: 2460 });
    expect(checkCdrMoney(credit(-20), facts({ credited: { debited: 2460, returned: 1000 } }))).toEqual({ kind: "HOLD", reason: "CREDIT_ABOVE_DEBIT" });
    // Released, it gives back what is left, never more; nothing left, nothing to release.
    expect(checkCdrMoney(credit(-20), facts({ credited: { debited: 2460, returned: 1000 }, released: true }))).toEqual({ kind: "CREDIT", amount: 1460 });
    expect(checkCdrMoney(credit(-20), facts({ credited: { debited: 2460, returned: 2460 }, released: true }))).toEqual({ kind: "HOLD", reason: "CREDIT_ABOVE_DEBIT" });
    expect(checkCdrMoney(credit(-10), facts({ credited: null }))).toEqual({ kind: "HOLD", reason: "CREDIT_REFERENCE" });
    expect(checkCdrMoney(credit(-10, { currency: "EUR" }), facts({ credited: { debited: 2460, returned: 0 } }))).toEqual({ kind: "HOLD", reason: "CREDIT_REFERENCE" });
    expect(checkCdrMoney(credit(10), facts({ credited: { debited: 2460, returned: 0 } }))).toEqual({ kind: "HOLD", reason: "CREDIT_NOT_NEGATIVE" });
    expect(checkCdrMoney(credit(-0.001), facts({ credited: { debited: 2460, returned: 0 } }))).toEqual({ kind: "HOLD", reason: "NOT_MINOR_UNITS" });
  });
});
