import { dayKey, localDate } from "./time";

/**
 * The presets of the console's date-range picker (docs/rules/console.md "Date ranges"), as the
 * lists take a period: local days `yyyy-MM-dd` in the operator's time zone, `to` included (a
 * day as `to` ends at the next local midnight, docs/rules/lists.md "Filters and sorting").
 */
export const RANGE_PRESETS = ["today", "yesterday", "last7Days", "thisMonth", "lastMonth"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export interface DayRange {
  from: string;
  to: string;
}

/** A calendar day shifted by whole days or months (Date.UTC lets day and month overflow). */
function day(year: number, month: number, date: number): string {
  const d = new Date(Date.UTC(year, month - 1, date));
  return dayKey({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
}

/** The days a preset stands for at `now`, read in `timeZone`. */
export function presetRange(preset: RangePreset, now: number, timeZone: string): DayRange {
  const { year, month, day: date } = localDate(now, timeZone);
  const today = day(year, month, date);
  switch (preset) {
    case "today":
      return { from: today, to: today };
    case "yesterday": {
      const yesterday = day(year, month, date - 1);
      return { from: yesterday, to: yesterday };
    }
    case "last7Days":
      return { from: day(year, month, date - 6), to: today };
    case "thisMonth":
      return { from: day(year, month, 1), to: today };
    case "lastMonth":
      return { from: day(year, month - 1, 1), to: day(year, month, 0) };
  }
}

/** The preset a range equals at `now`, if any (the picker names it on its button). */
export function presetOf(range: Partial<DayRange>, now: number, timeZone: string): RangePreset | undefined {
  if (!range.from || !range.to) return undefined;
  return RANGE_PRESETS.find((p) => {
    const r = presetRange(p, now, timeZone);
    return r.from === range.from && r.to === range.to;
  });
}
