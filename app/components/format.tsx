import { createContext, useContext, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import * as domainFormat from "../../domain/format";
import type { CurrencyFormat, DecimalSeparator, MoneyStyle, NumberStyle } from "../../domain/format";
import { DEFAULT_LANGUAGE, parseLanguage } from "../../domain/languages";
import type { TileSource } from "../../domain/map-tiles";

/** The operator's display settings (docs/rules/console.md: format only at the edge). */
interface FormatSettings {
  currency: CurrencyFormat;
  timeZone: string;
  decimalSeparator: DecimalSeparator | null;
  /** Decimals shown and zero costs hidden (docs/rules/settings.md "Formatting"). */
  money?: MoneyStyle;
  /** Where a map opens when it has nothing to show (docs/rules/settings.md "Map"). */
  mapView?: MapView;
}

export interface MapView {
  lat: number;
  lng: number;
  zoom: number;
  /** Where the maps' tiles come from: OpenStreetMap unless a provider with a key replaces it. */
  tiles: TileSource;
  /** Whether an address can be located (the chosen provider has a key); else it is kept as typed. */
  geocoder: boolean;
}

const FormatContext = createContext<FormatSettings>({ currency: domainFormat.DEFAULT_CURRENCY, timeZone: "UTC", decimalSeparator: null });

export function FormatProvider({ currency, timeZone, decimalSeparator, money, mapView, children }: FormatSettings & { children: ReactNode }) {
  const value = useMemo(() => ({ currency, timeZone, decimalSeparator, money, mapView }), [currency, timeZone, decimalSeparator, money, mapView]);
  return <FormatContext value={value}>{children}</FormatContext>;
}

/** The operator's default map view, when the console has one (docs/rules/settings.md "Map"). */
export function useMapView(): MapView | undefined {
  return useContext(FormatContext).mapView;
}

type Instant = string | number | Date | null | undefined;

/** A reading that may be missing: "—", or the reading formatted. */
export function orDash<T>(value: T | null | undefined, format: (value: T) => string): string {
  return value === null || value === undefined ? "—" : format(value);
}

export interface Formatters {
  currency: CurrencyFormat;
  timeZone: string;
  /** A number with a fixed count of decimals, in the console language ("1.234,5" in German). */
  number: (value: number, decimals: number) => string;
  /** Integer minor units to "123,45 zł" / "$123", with the operator's decimals. */
  money: (minor: number) => string;
  /** A cost line: as `money`, but empty for zero when the operator hides zero costs. */
  cost: (minor: number) => string;
  /** A unit price text to "0,5000" with the operator's separator. */
  unitPrice: (price: string) => string;
  /** Bytes to "1.5 MB" or "12 KB". */
  fileSize: (bytes: number) => string;
  /** Wh to "12.345 kWh". */
  energy: (wh: number) => string;
  /** kW to "7.40 kW". */
  power: (kw: number) => string;
  /** A live reading in W, as kW: 7400 to "7.40 kW". */
  livePower: (watts: number) => string;
  /** A live current to "16.2 A". */
  current: (amperes: number) => string;
  /** A live voltage to "230 V". */
  voltage: (volts: number) => string;
  /** A share to "20 %". */
  percent: (value: number) => string;
  /** Minutes to "45 min" or "1 h 5 min", units translated. */
  duration: (minutes: number) => string;
  /** A UTC instant as date and time in the operator's time zone; empty input gives "". */
  dateTime: (value: Instant) => string;
  /** The clock time of an instant in the operator's time zone (chart axes). */
  time: (value: string | number | Date, seconds?: boolean) => string;
  /** A yyyy-MM-dd day as day and month. */
  dayMonth: (day: string) => string;
}

/**
 * The one set of formatters of the console: the interface language, the operator's currency,
 * decimals, separator, zero costs and time zone.
 */
export function useFormat(): Formatters {
  const { currency, timeZone, decimalSeparator, money } = useContext(FormatContext);
  const { t, i18n } = useTranslation();
  const language = parseLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
  const hours = t("ui.units.h");
  const minutes = t("ui.units.min");
  return useMemo(() => {
    const style: NumberStyle = { language, decimalSeparator };
    return {
      currency,
      timeZone,
      number: (value, decimals) => domainFormat.formatNumber(value, decimals, style),
      money: (minor) => domainFormat.formatMoney(minor, currency, style, money),
      cost: (minor) => domainFormat.formatCost(minor, currency, style, money),
      unitPrice: (price) => domainFormat.formatUnitPrice(price, style),
      fileSize: (bytes) => domainFormat.formatFileSize(bytes, style),
      energy: (wh) => domainFormat.formatEnergy(wh, style),
      power: (kw) => domainFormat.formatPower(kw, style),
      livePower: (watts) => domainFormat.formatPower(watts / 1000, style),
      current: (amperes) => `${domainFormat.formatNumber(amperes, 1, style)} A`,
      voltage: (volts) => `${domainFormat.formatNumber(volts, 0, style)} V`,
      percent: (value) => `${domainFormat.formatNumber(value, 0, style)} %`,
      duration: (value) => domainFormat.formatDuration(value, { hours, minutes }, style),
      dateTime: (value) => (value === null || value === undefined || value === "" ? "" : domainFormat.formatDateTime(value, timeZone, language)),
      time: (value, seconds) => domainFormat.formatTime(value, timeZone, language, seconds),
      dayMonth: (day) => domainFormat.formatDayMonth(day, language),
    };
  }, [currency, timeZone, decimalSeparator, money, language, hours, minutes]);
}
