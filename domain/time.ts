/**
 * Time-zone arithmetic, in one place (docs/architecture.md: instants are stored in UTC; days,
 * months and time-of-day slots are the operator's or the station's local ones). Pure: Intl
 * gives a zone's offset at an instant, so daylight-saving changes land on the right day.
 */

/** Whether Intl knows the IANA zone (`Europe/Warsaw`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function parts(at: number, timeZone: string) {
  const values = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(at))
      .filter((p) => p.type !== "literal")
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  return values;
}

/** The zone's offset from UTC at an instant, in ms (Warsaw in summer: +2 h). */
export function zoneOffsetMs(at: number, timeZone: string): number {
  const p = parts(at, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The local calendar date of an instant. */
export function localDate(at: number, timeZone: string): LocalDate {
  const p = parts(at, timeZone);
  return { year: p.year, month: p.month, day: p.day };
}

/** `yyyy-MM-dd` of a local date. */
export const dayKey = (d: LocalDate) => `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

/**
 * The UTC instant of a local wall-clock time given as if it were UTC. Two passes settle a time
 * near a daylight-saving change.
 */
function wallToUtc(wall: number, timeZone: string): number {
  const first = wall - zoneOffsetMs(wall, timeZone);
  return wall - zoneOffsetMs(first, timeZone);
}

/** The UTC instant of local midnight starting a date (month and day may overflow, as Date.UTC allows). */
export function localMidnight(year: number, month: number, day: number, timeZone: string): number {
  return wallToUtc(Date.UTC(year, month - 1, day), timeZone);
}

/** The calendar day after a `yyyy-MM-dd` key (a period's included `to` made exclusive); anything else is returned as it is. */
export function dayAfterKey(key: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!match) return key;
  const next = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1));
  return dayKey({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() });
}

/** `yyyy-MM` → [from, to) as UTC instants in ms: the month's local edges. */
export function monthRange(reportMonth: string, timeZone: string): { from: number; to: number } {
  const [year, month] = reportMonth.split("-").map(Number);
  return { from: localMidnight(year, month, 1, timeZone), to: localMidnight(year, month + 1, 1, timeZone) };
}

/** The month an instant falls in, in the time zone, as `yyyy-MM`. */
export function monthOf(instant: number, timeZone: string): string {
  const d = localDate(instant, timeZone);
  return `${d.year}-${String(d.month).padStart(2, "0")}`;
}

/** Start of today and of this month, and the starts of the last `days` days, in the zone. */
export function calendarOf(now: number, timeZone: string, days: number) {
  const today = localDate(now, timeZone);
  const dayStarts = Array.from({ length: days }, (_, i) => {
    const start = localMidnight(today.year, today.month, today.day - (days - 1 - i), timeZone);
    return { key: dayKey(localDate(start, timeZone)), start };
  });
  return {
    todayStart: localMidnight(today.year, today.month, today.day, timeZone),
    monthStart: localMidnight(today.year, today.month, 1, timeZone),
    dayStarts,
  };
}

/**
 * A wall-clock time typed in the zone (`yyyy-MM-ddTHH:mm`, as a datetime-local field gives it) to
 * its UTC instant; undefined for anything else.
 */
export function zonedToUtc(text: string, timeZone: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return wallToUtc(Date.UTC(y, mo - 1, d, h, mi, s || 0), timeZone);
}

/** An instant as the zone's wall-clock `yyyy-MM-ddTHH:mm` (for a datetime-local field). */
export function utcToZoned(at: number, timeZone: string): string {
  const p = parts(at, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/**
 * A bound of a period typed in the zone: `yyyy-MM-dd` (a whole local day) or a local date-time
 * `yyyy-MM-dd HH:mm[:ss]` (also with `T`). Answers [from, to) edges in UTC ms: a day as `from`
 * starts at its local midnight, as `to` ends at the next one; a date-time as `to` includes that
 * instant. Undefined for anything else, an impossible date included.
 */
export function localBound(text: string, timeZone: string, edge: "from" | "to"): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!match) return undefined;
  const [y, mo, d, h, mi, s] = match.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  const probe = new Date(Date.UTC(y!, mo! - 1, d!, h ?? 0, mi ?? 0, s ?? 0));
  if (probe.getUTCMonth() !== mo! - 1 || probe.getUTCDate() !== d! || (h ?? 0) > 23 || (mi ?? 0) > 59 || (s ?? 0) > 59) return undefined;
  if (h === undefined) return localMidnight(y!, mo!, d! + (edge === "to" ? 1 : 0), timeZone);
  const at = wallToUtc(Date.UTC(y!, mo! - 1, d!, h, mi!, s ?? 0), timeZone);
  return edge === "to" ? at + 1 : at;
}

/**
 * The zone's offsets over [from, to): each segment holds one offset until `until` (the last one
 * until `to`). A local day or month of an instant is then `at + offset` read as UTC, which SQL
 * can group by (docs/rules/statements.md "Statements", local days). Offsets are sampled every six hours (zones
 * never change twice that fast) and each change is narrowed to the minute, where zones change.
 */
export function offsetSegments(from: number, to: number, timeZone: string): { until: number; offsetMs: number }[] {
  const STEP = 6 * 3_600_000;
  const MINUTE = 60_000;
  const segments: { until: number; offsetMs: number }[] = [];
  let offset = zoneOffsetMs(from, timeZone);
  for (let lo = from; lo < to; lo += STEP) {
    let hi = Math.min(lo + STEP, to);
    const next = zoneOffsetMs(hi, timeZone);
    if (next === offset) continue;
    // Narrow [lo, hi] on whole minutes until hi is the first minute of the new offset.
    let low = Math.floor(lo / MINUTE);
    let high = Math.ceil(hi / MINUTE);
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (zoneOffsetMs(mid * MINUTE, timeZone) === offset) low = mid;
      else high = mid;
    }
    hi = high * MINUTE;
    segments.push({ until: hi, offsetMs: offset });
    offset = next;
  }
  segments.push({ until: to, offsetMs: offset });
  return segments;
}

/** Local days `from`…`to` (`yyyy-MM-dd`, both included) → [from, to) as UTC instants in ms. */
export function dayRange(fromDay: string, toDay: string, timeZone: string): { from: number; to: number } {
  const [fy, fm, fd] = fromDay.split("-").map(Number);
  const [ty, tm, td] = toDay.split("-").map(Number);
  return { from: localMidnight(fy, fm, fd, timeZone), to: localMidnight(ty, tm, td + 1, timeZone) };
}
