import { describe, expect, it } from "vitest";
import { cardUse, priceSession, type StrategyPrices } from "../../domain/pricing";
import { discountStrategyInput, quotaText, toStrategyInput } from "../../domain/schemas/discounts";
import { addMonths, validityOf } from "../../workers/services/discounts/cards";

/** Discount cards in the pricing engine and their validity (docs/rules/discounts.md). */

const prices: StrategyPrices = {
  electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] },
  service: { unit: "NONE", slots: [] },
  idle: { before: null, during: null, after: null },
} as unknown as StrategyPrices;
const session = { startAt: Date.UTC(2026, 0, 5, 10), stopAt: Date.UTC(2026, 0, 5, 11), meterStartWh: 0, meterStopWh: 10_000 };
const price = (extra: Partial<Parameters<typeof priceSession>[0]> = {}) =>
  priceSession({ prices, session, timeZone: "Europe/Warsaw", currencyDecimals: 2, ...extra });

describe("discount cards in the engine", () => {
  it("takes the membership discount, then the card, then the voucher, before tax", () => {
    const priced = price({
      discountPercent: "10",
      tax: { rate: "23", inclusive: false },
      cards: [
        { source: "DISCOUNT", cardId: 1, unit: "MONEY", percent: 50, remaining: 10_000 },
        { source: "VOUCHER", cardId: 2, unit: "MONEY", percent: null, remaining: 100 },
      ],
    });
    // 1000 − 100 = 900; − 450 = 450; − 100 = 350; tax 23 % of 350 = 80.5 → 81.
    expect(priced).toMatchObject({ memberDiscountCost: 100, cardDiscountCost: 450, voucherCost: 100, discountCost: 650, taxCost: 81, totalCost: 431 });
    expect(priced.lines.map((l) => l.kind)).toEqual(["ELECTRICITY", "DISCOUNT", "DISCOUNT_CARD", "VOUCHER", "TAX"]);
    expect(priced.cardUses).toEqual([
      { source: "DISCOUNT", cardId: 1, amount: 450, consumed: 450 },
      { source: "VOUCHER", cardId: 2, amount: 100, consumed: 100 },
    ]);
  });

  it("never goes below zero and takes nothing from an empty card or a free session", () => {
    expect(price({ cards: [{ source: "VOUCHER", cardId: 1, unit: "MONEY", percent: null, remaining: 99_999 }] })).toMatchObject({ voucherCost: 1_000, totalCost: 0 });
    expect(cardUse({ source: "VOUCHER", cardId: 1, unit: "MONEY", percent: null, remaining: 0 }, 500, 1_000)).toEqual({ source: "VOUCHER", cardId: 1, amount: 0, consumed: 0 });
    expect(cardUse({ source: "DISCOUNT", cardId: 1, unit: "DEGREE", percent: 50, remaining: 5_000 }, 0, 1_000)).toMatchObject({ amount: 0, consumed: 0 });
    expect(cardUse({ source: "VOUCHER", cardId: 1, unit: "DEGREE", percent: null, remaining: 5_000 }, 500, 0)).toMatchObject({ amount: 0, consumed: 0 });
    expect(cardUse({ source: "DISCOUNT", cardId: 1, unit: "MONEY", percent: 30, remaining: 50 }, 1_000, 1_000)).toMatchObject({ amount: 50, consumed: 50 });
  });

  it("covers the share of the session's energy a kWh card has left", () => {
    expect(cardUse({ source: "VOUCHER", cardId: 1, unit: "DEGREE", percent: null, remaining: 2_500 }, 1_000, 10_000)).toMatchObject({ amount: 250, consumed: 2_500 });
    expect(cardUse({ source: "DISCOUNT", cardId: 1, unit: "DEGREE", percent: 40, remaining: 20_000 }, 1_000, 10_000)).toMatchObject({ amount: 400, consumed: 10_000 });
  });
});

describe("validity of a card", () => {
  it("runs from the first day to the end of the last one in the operator's zone, or for months from now", () => {
    expect(validityOf({ startDate: "2026-03-01", endDate: "2026-03-31", months: null }, 0, "Europe/Warsaw")).toEqual({
      validFrom: Date.UTC(2026, 1, 28, 23),
      expiresAt: Date.UTC(2026, 2, 31, 22),
    });
    const now = Date.UTC(2026, 0, 31, 12);
    expect(validityOf({ startDate: null, endDate: null, months: 1 }, now, "UTC")).toEqual({ validFrom: now, expiresAt: Date.UTC(2026, 1, 28, 12) });
    expect(addMonths(Date.UTC(2026, 4, 15), 12)).toBe(Date.UTC(2027, 4, 15));
  });
});

describe("the strategy form", () => {
  it("sends the quota in minor units or Wh, and the validity it chose", () => {
    const body = toStrategyInput(
      { name: "A", type: "VOUCHER", unit: "MONEY", quota: "12.5", discount: "", validity: "MONTHS", months: "3", startDate: "x", endDate: "y", activationCode: "", generateNumber: "" },
      2,
    );
    expect(discountStrategyInput.parse(body)).toMatchObject({ quota: 1_250, months: 3, startDate: null, endDate: null, discount: null, generateNumber: 0 });
    expect(toStrategyInput({ ...body, quota: "1.5", unit: "DEGREE", type: "DISCOUNT", discount: "5", validity: "DATES", months: "", startDate: "2026-01-01", endDate: "2026-01-02", activationCode: "ab", generateNumber: "2" } as never, 2)).toMatchObject({
      quota: 1_500,
      discount: "5",
      months: null,
      activationCode: "ab",
    });
    expect([quotaText(1_250, "MONEY", 2), quotaText(1_500, "DEGREE", 2), quotaText(700, "MONEY", 0)]).toEqual(["12.5", "1.5", "700"]);
  });
});
