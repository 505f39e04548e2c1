import type { TFunction } from "i18next";
import { formatMoney, formatNumber, formatUnitPrice, type CurrencyFormat, type DecimalSeparator } from "../format";
import { intlLocale, type Language } from "../languages";
import { halfHourTable, slotAt } from "./slots";
import type { IdleAfterFee, IdleFee, StrategyPrices } from "./strategy";

/**
 * The price a point charges by, as a driver reads it on a 2.0.1 charger's screen before charging
 * (OCPP 2.0.1 Part 2 I01: `idTokenInfo.personalMessage` of AuthorizeResponse and of a
 * TransactionEventResponse that names a token): the energy price in force now and until when,
 * the service fee, the idle fees with their free minutes and cap, and the tax as the receipts
 * show it, in the driver's language with the operator's currency and decimal separator
 * (docs/rules/pricing.md "The price before charging").
 */

/** MessageContentType.content is at most 512 characters (Part 2 §2.43). */
export const TARIFF_MESSAGE_MAX = 512;

export interface TariffDisplay {
  prices: StrategyPrices;
  currency: CurrencyFormat;
  /** The station's time zone, else the operator's: the slot in force is its wall clock's. */
  timeZone: string;
  tax: { rate: string; inclusive: boolean; mark: string } | null;
  decimalSeparator: DecimalSeparator | null;
}

/** OCPP 2.0.1 MessageContentType. */
export interface TariffMessage {
  format: "UTF8";
  language: string;
  content: string;
}

/**
 * The console's language a driver from a country reads, for the message on the charger's screen:
 * a customer has a country but no language of its own (docs/rules/drivers.md "Customers"); a
 * country none of the six languages is spoken in gets the operator's default.
 */
const LANGUAGE_OF_COUNTRY: Record<string, Language> = {
  PL: "pl",
  DE: "de",
  AT: "de",
  LI: "de",
  BR: "pt_BR",
  PT: "pt_BR",
  CN: "zh",
  SG: "zh",
  TW: "zh_TW",
  HK: "zh_TW",
  MO: "zh_TW",
  GB: "en",
  IE: "en",
  US: "en",
  CA: "en",
  AU: "en",
  NZ: "en",
};

export function driverLanguage(country: string | null | undefined, operatorDefault: Language): Language {
  return (country && LANGUAGE_OF_COUNTRY[country.toUpperCase()]) || operatorDefault;
}

/** A percentage text ("23", "8.5") with the language's decimal mark, its own decimals kept. */
function percentText(rate: string, style: { language: Language; decimalSeparator: DecimalSeparator | null }) {
  const decimals = rate.includes(".") ? rate.split(".")[1].length : 0;
  return formatNumber(rate as `${number}`, decimals, style);
}

/** The message in `language`, `t` being that language's translator. */
export function tariffMessage(display: TariffDisplay, at: number, language: Language, t: TFunction): TariffMessage {
  const { prices, currency, timeZone } = display;
  const style = { language, decimalSeparator: display.decimalSeparator };
  const unitPrice = (price: string) => formatUnitPrice(price, style);
  const base = { currency: currency.code };

  const slots = prices.electricity.slots;
  const now = slots[slotAt(halfHourTable(slots), at, timeZone)];
  const energy =
    slots.length > 1
      ? t("pricing.tariffMessage.energyUntil", { ...base, price: unitPrice(now.price), time: now.end })
      : t("pricing.tariffMessage.energy", { ...base, price: unitPrice(now.price) });
  const items = [energy];

  const service = prices.service;
  if (service.unit !== "NONE" && service.slots.length > 0) {
    const slot = service.slots[slotAt(halfHourTable(service.slots), at, timeZone)];
    items.push(t(`pricing.tariffMessage.service.${service.unit}`, { ...base, price: unitPrice(slot.price) }));
  }

  const idle = (kind: "before" | "during" | "after", fee: IdleFee | IdleAfterFee | null) => {
    if (!fee) return;
    const parts = [t(`pricing.tariffMessage.idle.${kind}`, { ...base, price: unitPrice(fee.price), unit: t(`pricing.tariffMessage.unit.${fee.unit}`) })];
    if (fee.freeMinutes > 0) parts.push(t("pricing.tariffMessage.free", { minutes: formatNumber(fee.freeMinutes, 0, style) }));
    const cap = "capAmount" in fee ? (fee.capAmount ?? null) : null;
    if (cap !== null) parts.push(t("pricing.tariffMessage.cap", { amount: formatMoney(cap, currency, style) }));
    items.push(parts.join(" "));
  };
  idle("before", prices.idle.before);
  idle("during", prices.idle.during);
  idle("after", prices.idle.after);

  const tax = display.tax;
  if (tax && Number(tax.rate) > 0) {
    const values = { rate: percentText(tax.rate, style), mark: tax.mark || t("pricing.tariffMessage.taxWord") };
    items.push(t(tax.inclusive ? "pricing.tariffMessage.taxIncluded" : "pricing.tariffMessage.taxAdded", values));
  }

  const content = t("pricing.tariffMessage.text", { items: items.join(t("pricing.tariffMessage.separator")) });
  return {
    format: "UTF8",
    language: intlLocale(language),
    content: content.length > TARIFF_MESSAGE_MAX ? `${content.slice(0, TARIFF_MESSAGE_MAX - 1)}…` : content,
  };
}
