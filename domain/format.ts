/**
 * Formatting at the edge (SPEC.md §9; CONVENTIONS.md 9): money arrives in integer minor units
 * with its currency, energy in Wh, durations in seconds or minutes, times in UTC.
 */

/** SPEC.md §9: the symbol stands after the amount for these currencies, before it otherwise. */
const SIGN_AFTER = new Set(["PLN", "XAF", "XOF"]);

export interface CurrencyFormat {
  code: string;
  sign: string;
  decimals: number;
}

export const DEFAULT_CURRENCY: CurrencyFormat = { code: "USD", sign: "$", decimals: 0 };

/** Minor units to a display amount with the configured decimals: 12345 PLN/2 → "123.45 zł". */
export function formatMoney(minor: number, currency: CurrencyFormat = DEFAULT_CURRENCY): string {
  const negative = minor < 0;
  const abs = Math.abs(Math.trunc(minor));
  const scale = 10 ** currency.decimals;
  const whole = Math.floor(abs / scale);
  const fraction = currency.decimals > 0 ? "." + String(abs % scale).padStart(currency.decimals, "0") : "";
  const amount = `${negative ? "-" : ""}${whole}${fraction}`;
  return SIGN_AFTER.has(currency.code.toUpperCase()) ? `${amount} ${currency.sign}` : `${currency.sign}${amount}`;
}

/** Energy from Wh to kWh with three decimals. */
export function formatEnergy(wh: number): string {
  return `${(wh / 1000).toFixed(3)} kWh`;
}

export interface DurationLabels {
  hours: string;
  minutes: string;
}

/** Minutes below 60 as "N min", from 60 as "H h M min" (SPEC.md §9). */
export function formatDuration(totalMinutes: number, labels: DurationLabels = { hours: "h", minutes: "min" }): string {
  const minutes = Math.max(0, Math.round(totalMinutes));
  if (minutes < 60) return `${minutes} ${labels.minutes}`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} ${labels.hours}` : `${h} ${labels.hours} ${m} ${labels.minutes}`;
}

/** An instant in the operator's time zone, as yyyy-MM-dd HH:mm:ss. */
export function formatDateTime(value: Date | string | number, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")}`;
}
