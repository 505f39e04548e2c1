import { priceUnits, fixed, PRICE_DECIMALS } from "./decimal";
import { halfHourTable, slotAt } from "./slots";
import type { StrategyPrices } from "./strategy";

/**
 * What a charger is sent to show its price (docs/rules/pricing.md "Price push"). OCPP 1.6 has no
 * message for it, so the way depends on the charger model: by default the `DefaultPrice`
 * configuration key of the Open Charge Alliance's California pricing whitepaper for OCPP 1.6
 * (ChangeConfiguration), or a vendor's DataTransfer for the models listed here. A charger that
 * refuses, or does not know the key or the message, cannot show prices: NotSupport.
 */
export type PriceDisplayMethod =
  | { kind: "ChangeConfiguration"; key: "DefaultPrice" }
  | { kind: "DataTransfer"; vendorId: string; messageId: string };

export const DEFAULT_PRICE_METHOD: PriceDisplayMethod = { kind: "ChangeConfiguration", key: "DefaultPrice" };

/** Models that take their price by DataTransfer, by vendor (as BootNotification names it) and model. */
const DATA_TRANSFER_MODELS: { vendor: string; model: RegExp; method: PriceDisplayMethod }[] = [
  // Plugdesk's own display firmware takes the whole day of prices.
  { vendor: "plugdesk", model: /^PD-/i, method: { kind: "DataTransfer", vendorId: "com.plugdesk", messageId: "SetPrice" } },
];

export function displayMethodFor(vendor: string | null, model: string | null): PriceDisplayMethod {
  const found = DATA_TRANSFER_MODELS.find((m) => m.vendor === vendor?.toLowerCase() && m.model.test(model ?? ""));
  return found?.method ?? DEFAULT_PRICE_METHOD;
}

/** ChangeConfiguration values are CiString500 (OCPP 1.6 §5.3). */
const CONFIGURATION_VALUE_MAX = 500;

const add = (a: string, b: string) => fixed(priceUnits(a) + priceUnits(b), PRICE_DECIMALS);
const times = (a: string, n: number) => fixed(priceUnits(a) * BigInt(n), PRICE_DECIMALS);

/** The prices in force at an instant: per kWh (energy and a per-kWh service fee), per hour, per session. */
export function pricesAt(prices: StrategyPrices, at: number, timeZone: string) {
  const energy = prices.electricity.slots[slotAt(halfHourTable(prices.electricity.slots), at, timeZone)].price;
  const { unit, slots } = prices.service;
  const service = unit === "NONE" || slots.length === 0 ? undefined : slots[slotAt(halfHourTable(slots), at, timeZone)].price;
  return {
    kWhPrice: unit === "KWH" && service ? add(energy, service) : energy,
    hourPrice: unit === "HOUR" && service ? service : unit === "MINUTE" && service ? times(service, 60) : "0.0000",
    flatFee: unit === "COUNT" && service ? service : "0.0000",
  };
}

/** A short, language-neutral text of the price now and of the day's energy slots. */
function priceText(now: ReturnType<typeof pricesAt>, prices: StrategyPrices, currency: string) {
  const parts = [`${now.kWhPrice} ${currency}/kWh`];
  if (now.hourPrice !== "0.0000") parts.push(`${now.hourPrice} ${currency}/h`);
  if (now.flatFee !== "0.0000") parts.push(`${now.flatFee} ${currency}`);
  const slots = prices.electricity.slots;
  const day = slots.length > 1 ? ` (${slots.map((s) => `${s.start}-${s.end} ${s.price}`).join(", ")})` : "";
  return `${parts.join(" + ")}${day}`;
}

/** The request that shows these prices on a charger of this method, at `at` in the station's zone. */
export function priceDisplayRequest(method: PriceDisplayMethod, prices: StrategyPrices, currency: string, at: number, timeZone: string) {
  const now = pricesAt(prices, at, timeZone);
  if (method.kind === "DataTransfer") {
    return {
      action: "DataTransfer" as const,
      payload: {
        vendorId: method.vendorId,
        messageId: method.messageId,
        data: JSON.stringify({ currency, timeZone, now, electricity: prices.electricity, service: prices.service, idle: prices.idle }),
      },
    };
  }
  const text = priceText(now, prices, currency);
  const value = (t: string) =>
    JSON.stringify({
      priceText: t,
      priceTextOffline: t,
      chargingPrice: { kWhPrice: Number(now.kWhPrice), hourPrice: Number(now.hourPrice), flatFee: Number(now.flatFee) },
    });
  // A long day of slots is cut from the text, never from the prices.
  let shown = text;
  while (value(shown).length > CONFIGURATION_VALUE_MAX) shown = `${shown.slice(0, shown.length - 10)}…`;
  return { action: "ChangeConfiguration" as const, payload: { key: method.key, value: value(shown) } };
}

/** How a charger's answer to the price push sets the point's push status. */
export function pushStatusOf(answer: { status?: string } | "callError"): "Issued" | "NotSupport" {
  if (answer === "callError") return "NotSupport";
  return answer.status === "Accepted" || answer.status === "RebootRequired" ? "Issued" : "NotSupport";
}
