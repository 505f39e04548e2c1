import { createContext, useContext, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  DEFAULT_CURRENCY,
  formatDateTime,
  formatDuration,
  formatEnergy,
  formatMoney,
  type CurrencyFormat,
} from "../../domain/format";

/** The operator's display settings (CONVENTIONS.md 9: format only at the edge). */
interface FormatSettings {
  currency: CurrencyFormat;
  timeZone: string;
}

const FormatContext = createContext<FormatSettings>({ currency: DEFAULT_CURRENCY, timeZone: "UTC" });

export function FormatProvider({
  currency,
  timeZone,
  children,
}: {
  currency: CurrencyFormat;
  timeZone: string;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ currency, timeZone }), [currency, timeZone]);
  return <FormatContext value={value}>{children}</FormatContext>;
}

export interface Formatters {
  currency: CurrencyFormat;
  timeZone: string;
  /** Integer minor units to "123.45 zł" / "$123". */
  money: (minor: number) => string;
  /** Wh to "12.345 kWh". */
  energy: (wh: number) => string;
  /** Minutes to "45 min" or "1 h 5 min", units translated. */
  duration: (minutes: number) => string;
  /** A UTC instant to "yyyy-MM-dd HH:mm:ss" in the operator's time zone; empty input gives "". */
  dateTime: (iso: string | number | Date | null | undefined) => string;
}

export function useFormat(): Formatters {
  const { currency, timeZone } = useContext(FormatContext);
  const { t } = useTranslation();
  const hours = t("ui.units.h");
  const minutes = t("ui.units.min");
  return useMemo(
    () => ({
      currency,
      timeZone,
      money: (minor) => formatMoney(minor, currency),
      energy: (wh) => formatEnergy(wh),
      duration: (value) => formatDuration(value, { hours, minutes }),
      dateTime: (value) => (value === null || value === undefined || value === "" ? "" : formatDateTime(value, timeZone)),
    }),
    [currency, timeZone, hours, minutes],
  );
}
