import { intlLocale, type Language } from "./languages";

/**
 * Formatting at the edge (docs/rules/console.md): money arrives in integer minor units with its
 * currency, energy in Wh, power in kW, durations in minutes, times as UTC instants. Numbers and
 * dates follow the console language (Intl), with the operator's decimal separator where it set
 * one, and times are shown in the operator's time zone.
 */

export type DecimalSeparator = "." | ",";

/** How numbers are written: the console language, and the operator's decimal separator if it chose one. */
export interface NumberStyle {
  language: Language;
  decimalSeparator?: DecimalSeparator | null;
}

/** The symbol stands after the amount for these currencies, before it otherwise. */
const SIGN_AFTER = new Set(["PLN", "XAF", "XOF"]);

export interface CurrencyFormat {
  code: string;
  sign: string;
  decimals: number;
}

export const DEFAULT_CURRENCY: CurrencyFormat = { code: "USD", sign: "$", decimals: 0 };

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: Language, decimals: number): Intl.NumberFormat {
  const key = `${language}:${decimals}`;
  let format = numberFormats.get(key);
  if (!format) {
    // Grouping always, so that Polish writes 1 234 like 12 345 (its default groups only from five digits).
    format = new Intl.NumberFormat(intlLocale(language), { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: "always" });
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * A number with a fixed count of decimals. `value` may be a decimal string, which Intl formats
 * exactly (no float rounding). An operator's decimal separator replaces the language's; when the
 * language groups thousands with that same character, the other one groups them instead.
 */
export function formatNumber(value: number | `${number}`, decimals: number, style: NumberStyle): string {
  const parts = numberFormat(style.language, decimals).formatToParts(value);
  const separator = style.decimalSeparator;
  if (!separator) return parts.map((p) => p.value).join("");
  const group = separator === "," ? "." : ",";
  return parts
    .map((p) => (p.type === "decimal" ? separator : p.type === "group" && p.value === separator ? group : p.value))
    .join("");
}

/** An integer count of 1/10^decimals units as an exact decimal string: (12345, 2) → "123.45". */
function scaled(units: number, decimals: number): `${number}` {
  const whole = Math.round(units);
  const negative = whole < 0;
  const digits = String(Math.abs(whole)).padStart(decimals + 1, "0");
  const integer = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : "";
  return `${negative ? "-" : ""}${integer}${fraction}` as `${number}`;
}

/**
 * How an operator shows money (docs/rules/settings.md "Formatting"): the decimals amounts are
 * shown with (at most the currency's own), and whether zero costs are hidden.
 */
export interface MoneyStyle {
  decimals?: number;
  hideZeroCosts?: boolean;
}

/** Rounds an integer count of minor units to `shown` of the currency's `decimals`, half away from zero. */
function roundMinor(minor: number, decimals: number, shown: number): number {
  const step = 10 ** Math.max(0, decimals - shown);
  const units = Math.round(Math.abs(minor) / step);
  return Math.sign(minor) * units;
}

/**
 * Minor units with the currency's sign and decimals: 12345 PLN/2 → "123.45 zł", EUR in de →
 * "€123,45". With fewer decimals shown than the currency has, the amount is rounded once, here.
 */
export function formatMoney(minor: number, currency: CurrencyFormat, style: NumberStyle, money: MoneyStyle = {}): string {
  const shown = Math.min(money.decimals ?? currency.decimals, currency.decimals);
  const amount = formatNumber(scaled(roundMinor(minor, currency.decimals, shown), shown), shown, style);
  return SIGN_AFTER.has(currency.code.toUpperCase()) ? `${amount} ${currency.sign}` : `${currency.sign}${amount}`;
}

/** A cost line: like `formatMoney`, but empty for a zero cost when the operator hides them. */
export function formatCost(minor: number, currency: CurrencyFormat, style: NumberStyle, money: MoneyStyle = {}): string {
  return money.hideZeroCosts && minor === 0 ? "" : formatMoney(minor, currency, style, money);
}

/** Energy from Wh to kWh with three decimals. */
export function formatEnergy(wh: number, style: NumberStyle): string {
  return `${formatNumber(scaled(wh, 3), 3, style)} kWh`;
}

/** Power in kW with two decimals. */
export function formatPower(kw: number, style: NumberStyle): string {
  return `${formatNumber(kw, 2, style)} kW`;
}

/** A unit price, a decimal text such as "0.5000", with its four decimals (exact: never through a float). */
export function formatUnitPrice(price: string, style: NumberStyle): string {
  return formatNumber(price as `${number}`, 4, style);
}

/** A file's size: whole KB (at least 1) under a MB, MB with one decimal from there. */
export function formatFileSize(bytes: number, style: NumberStyle): string {
  const MB = 1024 * 1024;
  return bytes >= MB ? `${formatNumber(bytes / MB, 1, style)} MB` : `${formatNumber(Math.max(1, Math.round(bytes / 1024)), 0, style)} KB`;
}

export interface DurationLabels {
  hours: string;
  minutes: string;
}

/** Minutes below 60 as "N min", from 60 as "H h M min". */
export function formatDuration(totalMinutes: number, labels: DurationLabels, style: NumberStyle): string {
  const minutes = Math.max(0, Math.round(totalMinutes));
  const count = (value: number) => formatNumber(value, 0, style);
  if (minutes < 60) return `${count(minutes)} ${labels.minutes}`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${count(h)} ${labels.hours}` : `${count(h)} ${labels.hours} ${count(m)} ${labels.minutes}`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(language: Language, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${timeZone}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    // A 24-hour clock in every language: the console is a back office, its times are read side by side.
    format = new Intl.DateTimeFormat(intlLocale(language), { timeZone, hourCycle: "h23", ...options });
    dateFormats.set(key, format);
  }
  return format;
}

const instant = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));

const DATE = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
const CLOCK = { hour: "2-digit", minute: "2-digit" } as const;

/** An instant as date and time (with seconds) in the operator's time zone, written the language's way. */
export function formatDateTime(value: Date | string | number, timeZone: string, language: Language): string {
  return dateFormat(language, timeZone, { ...DATE, ...CLOCK, second: "2-digit" }).format(instant(value));
}

/** The clock time of an instant in the operator's time zone (chart axes). */
export function formatTime(value: Date | string | number, timeZone: string, language: Language, seconds = false): string {
  return dateFormat(language, timeZone, seconds ? { ...CLOCK, second: "2-digit" } : CLOCK).format(instant(value));
}

/** A calendar day (yyyy-MM-dd, already in the operator's zone) as day and month, the language's way. */
export function formatDayMonth(day: string, language: Language): string {
  return dateFormat(language, "UTC", { month: "2-digit", day: "2-digit" }).format(new Date(`${day}T00:00:00Z`));
}
