/**
 * Calendar months in an operator's time zone (SPEC.md §2 monthly report: yyyy-MM, this month by
 * default). Instants stay UTC (CONVENTIONS.md 9); only the month's edges are local.
 */

/** How far local time is ahead of UTC at an instant, in ms (Intl, so daylight saving is right). */
export function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return local - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant of local midnight starting the first day of a month (month 0-based, may overflow). */
function localMonthStart(year: number, month: number, timeZone: string): number {
  const wall = Date.UTC(year, month, 1);
  const first = wall - offsetAt(wall, timeZone);
  // A second pass settles a month that starts near a daylight-saving change.
  return wall - offsetAt(first, timeZone);
}

/** `yyyy-MM` → [from, to) as UTC instants in ms. */
export function monthRange(reportMonth: string, timeZone: string): { from: number; to: number } {
  const [year, month] = reportMonth.split("-").map(Number);
  return { from: localMonthStart(year, month - 1, timeZone), to: localMonthStart(year, month, timeZone) };
}

/** The month an instant falls in, in the time zone, as `yyyy-MM`. */
export function monthOf(instant: number, timeZone: string): string {
  const local = new Date(instant + offsetAt(instant, timeZone));
  return `${local.getUTCFullYear()}-${String(local.getUTCMonth() + 1).padStart(2, "0")}`;
}
