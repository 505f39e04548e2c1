import { describe, expect, it } from "vitest";
import { createI18n } from "../../domain/i18n/i18n";
import { LANGUAGES, type Language } from "../../domain/languages";
import { driverLanguage, majorUnits, tariffMessage, TARIFF_MESSAGE_MAX, type StrategyPrices, type TariffDisplay } from "../../domain/pricing";

/**
 * The price a 2.0.1 charger shows before charging (docs/rules/pricing.md "The price before
 * charging", OCPP 2.0.1 Part 2 I01), and the major units a cost travels in (I02–I03).
 */
const WARSAW = "Europe/Warsaw";
const PLN = { code: "PLN", sign: "zł", decimals: 2 };
const message = (display: TariffDisplay, at: string, language: Language) => tariffMessage(display, Date.parse(at), language, createI18n(language).t);

/** Night 00:00–06:00 at 0.40, day 06:00–24:00 at 1.20, a session fee, idle fees during and after. */
const timeOfUse: StrategyPrices = {
  electricity: {
    slots: [
      { start: "00:00", end: "06:00", price: "0.4000" },
      { start: "06:00", end: "24:00", price: "1.2000" },
    ],
  },
  service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "2.5000" }] },
  idle: {
    before: null,
    during: { unit: "MINUTE", price: "0.1000", freeMinutes: 0 },
    after: { unit: "HOUR", price: "6.0000", freeMinutes: 15, capAmount: 3_000 },
  },
};
const display = (prices: StrategyPrices, tax: TariffDisplay["tax"] = null, decimalSeparator: TariffDisplay["decimalSeparator"] = null): TariffDisplay => ({
  prices,
  currency: PLN,
  timeZone: WARSAW,
  tax,
  decimalSeparator,
});

describe("the price before charging", () => {
  it("says the energy price in force now at the station's local time and until when, the service and idle fees, and the tax", () => {
    // 04:30 UTC in January is 05:30 in Warsaw: the night price, until 06:00.
    expect(message(display(timeOfUse, { rate: "23", inclusive: true, mark: "VAT" }), "2025-01-15T04:30:00Z", "en")).toEqual({
      format: "UTF8",
      language: "en",
      content:
        "Price now: 0.4000 PLN/kWh until 06:00; service fee 2.5000 PLN per session; suspended while charging 0.1000 PLN/min; " +
        "plugged in after charging 6.0000 PLN/h after 15 free min up to 30.00 zł; prices include 23% VAT",
    });
    // An hour later it is day in Warsaw.
    expect(message(display(timeOfUse), "2025-01-15T05:30:00Z", "en").content).toMatch(/^Price now: 1\.2000 PLN\/kWh until 24:00; /);
  });

  it("writes it in the driver's language, with the language's or the operator's decimal mark and the cap as the receipts write money", () => {
    const polish = message(display(timeOfUse, { rate: "8.5", inclusive: false, mark: "" }), "2025-01-15T12:00:00Z", "pl");
    expect(polish).toMatchObject({ language: "pl" });
    expect(polish.content).toBe(
      "Cena teraz: 1,2000 PLN/kWh do 24:00; opłata za usługę 2,5000 PLN za sesję; wstrzymanie w trakcie ładowania 0,1000 PLN/min; " +
        "postój po ładowaniu 6,0000 PLN/h po 15 bezpłatnych min najwyżej 30,00 zł; plus 8,5% podatku",
    );
    // The operator's decimal separator wins over the language's.
    expect(message(display(timeOfUse, null, "."), "2025-01-15T12:00:00Z", "de").content).toMatch(/^Preis jetzt: 1\.2000 PLN\/kWh bis 24:00; Servicegebühr 2\.5000 PLN je Vorgang; /);
    expect(message(display(timeOfUse), "2025-01-15T12:00:00Z", "pt_BR").language).toBe("pt-BR");
    expect(message(display(timeOfUse), "2025-01-15T12:00:00Z", "zh_TW")).toMatchObject({ language: "zh-TW", content: expect.stringMatching(/^目前價格：1\.2000 PLN\/kWh（至 24:00）；服務費/) });
  });

  it("says a flat price without a time, and no fee or tax the strategy and operator do not have", () => {
    const flat: StrategyPrices = { electricity: { slots: [{ start: "00:00", end: "24:00", price: "1" }] }, service: { unit: "NONE", slots: [] }, idle: { before: null, during: null, after: null } };
    expect(message(display(flat, { rate: "0", inclusive: true, mark: "VAT" }), "2025-07-01T10:00:00Z", "en").content).toBe("Price now: 1.0000 PLN/kWh");
  });

  it("has a text in each of the six languages, never longer than 512 characters", () => {
    const slots = Array.from({ length: 48 }, (_, i) => ({
      start: `${String(Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`,
      end: i === 47 ? "24:00" : `${String(Math.floor((i + 1) / 2)).padStart(2, "0")}:${(i + 1) % 2 ? "30" : "00"}`,
      price: `${i}.1234`,
    }));
    const busy: StrategyPrices = {
      electricity: { slots },
      service: { unit: "MINUTE", slots },
      idle: { before: { unit: "MINUTE", price: "0.5000", freeMinutes: 10_080 }, during: timeOfUse.idle.during, after: { ...timeOfUse.idle.after!, capAmount: 999_999_999 } },
    };
    for (const language of LANGUAGES) {
      const { content } = message(display(busy, { rate: "23", inclusive: true, mark: "VAT" }), "2025-01-15T12:00:00Z", language);
      expect(content, language).not.toMatch(/pricing\.tariffMessage|\{\{/);
      expect(content.length, language).toBeLessThanOrEqual(TARIFF_MESSAGE_MAX);
    }
  });
});

describe("the driver's language", () => {
  it("is the one spoken in the customer's country, else the operator's default", () => {
    expect(driverLanguage("PL", "en")).toBe("pl");
    expect(driverLanguage("at", "en")).toBe("de");
    expect(driverLanguage("BR", "pl")).toBe("pt_BR");
    expect(driverLanguage("TW", "en")).toBe("zh_TW");
    expect(driverLanguage("FR", "pl")).toBe("pl");
    expect(driverLanguage(null, "de")).toBe("de");
  });
});

describe("a cost in major units", () => {
  it("is the exact decimal of the minor units, in the currency's decimals", () => {
    expect(majorUnits(1_235, 2)).toBe(12.35);
    expect(majorUnits(5, 2)).toBe(0.05);
    expect(majorUnits(0, 2)).toBe(0);
    expect(majorUnits(1_500, 0)).toBe(1500);
    expect(JSON.stringify(majorUnits(123_456_789, 2))).toBe("1234567.89");
  });
});
