/**
 * Uptime per charging port as 23 CFR 680.116(b) counts it (docs/rules/monitoring.md "Uptime"):
 *
 *   uptime = (minutes in period − (outage minutes − excluded minutes)) / minutes in period × 100
 *
 * A port is down while its point is offline, or while it or its point (connector 0) reports
 * Faulted, Unavailable or OtherError (not "available for use", §680.116(b)(2)). Excluded are outage
 * minutes outside the station's opening hours and those of an outage the operator put down to a
 * cause outside its control (§680.116(b)(3)). Pure: the periods are the operator's local days and
 * months (domain/time.ts), so a daylight-saving day has 23 or 25 hours.
 */
import { dayKey, localDate, localMidnight, zonedToUtc } from "./time";

/** Statuses in which a port is not operational (docs/rules/monitoring.md "Uptime"). */
export const OUTAGE_STATUSES: ReadonlySet<string> = new Set(["Faulted", "Unavailable", "OtherError"]);

/**
 * Why an outage does not count against uptime: the causes outside the operator's control that
 * §680.116(b)(3) lists (utility interruption, vandalism, scheduled maintenance announced in
 * advance, natural disaster, the vehicle's fault).
 */
export const EXCLUSION_REASONS = ["GRID", "VANDALISM", "SCHEDULED_MAINTENANCE", "NATURAL_DISASTER", "VEHICLE"] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** Ports below this uptime are short of the federal minimum (§680.116(b)(1)). */
export const UPTIME_MINIMUM_PERCENT = 97;

/** A status interval (db/schema/uptime.ts): `end` null while it is still open. */
export interface StatusInterval {
  status: string | null;
  online: boolean;
  start: number;
  end: number | null;
  /** The operator put this outage down to a cause outside its control. */
  excluded: boolean;
}

/** [start, end) in UTC ms. */
export type Span = readonly [number, number];

export interface Uptime {
  minutes: number;
  outageMinutes: number;
  excludedMinutes: number;
  uptimePercent: number;
}

/** Whether a port (or its point, for connector 0) is down during the interval. */
export const isOutage = (i: Pick<StatusInterval, "status" | "online">) => !i.online || (i.status !== null && OUTAGE_STATUSES.has(i.status));

/** Spans sorted and merged where they touch or overlap, empty ones dropped. */
export function union(spans: readonly Span[]): Span[] {
  const sorted = spans.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** The overlap of two merged span lists. */
export function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i][0], b[j][0]);
    const end = Math.min(a[i][1], b[j][1]);
    if (end > start) out.push([start, end]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

const measure = (spans: readonly Span[]) => spans.reduce((sum, [a, b]) => sum + (b - a), 0);
const clip = (spans: readonly Span[], from: number, to: number): Span[] => spans.map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as const);
const MINUTE = 60_000;

/** Daily opening hours in minutes of the local day; null: open around the clock. */
export interface OpeningHours {
  open: number;
  close: number;
}

/**
 * A station's business hours as the console takes them (`06:00-22:00`; a close at or before the
 * open runs past midnight). Anything else, `00:00-24:00` included, is around the clock: the
 * field is free text, and an hour the operator did not state is an hour it is open.
 */
export function openingHoursOf(text: string | null | undefined): OpeningHours | null {
  const match = /^\s*(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})\s*$/.exec(text ?? "");
  if (!match) return null;
  const [oh, om, ch, cm] = match.slice(1).map(Number);
  if (oh > 24 || ch > 24 || om > 59 || cm > 59) return null;
  const open = oh * 60 + om;
  const close = ch * 60 + cm;
  if (open >= 24 * 60 || close > 24 * 60) return null;
  if (open === close || (open === 0 && close === 24 * 60)) return null;
  return { open, close };
}

/** A wall-clock minute of a local date in the zone, as a UTC instant (the minute may pass midnight). */
function wallMinute(year: number, month: number, day: number, minute: number, timeZone: string): number {
  const text = new Date(Date.UTC(year, month - 1, day) + minute * MINUTE).toISOString().slice(0, 16);
  return zonedToUtc(text, timeZone)!;
}

/** The spans of [from, to) when the station is closed, by its local days. */
export function closedSpans(from: number, to: number, hours: OpeningHours | null, timeZone: string): Span[] {
  if (!hours || to <= from) return [];
  const first = localDate(from, timeZone);
  const open: Span[] = [];
  // From the day before (an opening past midnight reaches into `from`) until the day after `to`'s.
  for (let k = -1; ; k++) {
    const midnight = localMidnight(first.year, first.month, first.day + k, timeZone);
    if (midnight >= to) break;
    const d = localDate(midnight, timeZone);
    const close = hours.close > hours.open ? hours.close : hours.close + 24 * 60;
    open.push([wallMinute(d.year, d.month, d.day, hours.open, timeZone), wallMinute(d.year, d.month, d.day, close, timeZone)]);
  }
  const opened = intersect(union(open), [[from, to]]);
  const closed: Span[] = [];
  let at = from;
  for (const [a, b] of opened) {
    if (a > at) closed.push([at, a]);
    at = b;
  }
  if (at < to) closed.push([at, to]);
  return closed;
}

export interface PortHistory {
  /** The port's own intervals. */
  port: readonly StatusInterval[];
  /** The point's own intervals (connector 0): its faults take every port down. */
  point: readonly StatusInterval[];
  /** When the station is closed (closedSpans). */
  closed: readonly Span[];
}

/**
 * The port's uptime over [from, to), counted up to `now` (a period still running has only its
 * minutes so far). Minutes are rounded, the percentage rounded down to two decimals so that it
 * never shows a port above the minimum that is not; a period of no minutes is 100 %. Time the
 * history does not cover (before the first status) counts as up: no outage was seen.
 */
export function uptimeOf(history: PortHistory, from: number, to: number, now: number): Uptime {
  const end = Math.min(to, now);
  if (end <= from) return { minutes: 0, outageMinutes: 0, excludedMinutes: 0, uptimePercent: 100 };
  const intervals = [...history.port, ...history.point.filter((i) => i.online && isOutage(i))];
  const spanOf = (i: StatusInterval): Span => [i.start, i.end ?? end];
  const down = union(clip(intervals.filter(isOutage).map(spanOf), from, end));
  const excusable = union(clip([...intervals.filter((i) => i.excluded && isOutage(i)).map(spanOf), ...history.closed], from, end));
  const minutes = Math.round((end - from) / MINUTE);
  const outageMinutes = Math.round(measure(down) / MINUTE);
  const excludedMinutes = Math.min(outageMinutes, Math.round(measure(intersect(down, excusable)) / MINUTE));
  const exact = minutes === 0 ? 100 : ((minutes - (outageMinutes - excludedMinutes)) / minutes) * 100;
  return { minutes, outageMinutes, excludedMinutes, uptimePercent: Math.floor(exact * 100 + 1e-9) / 100 };
}

/** A local day or month of a period, with its UTC edges. */
export interface Period {
  key: string;
  from: number;
  to: number;
}

/**
 * [from, to) cut at the zone's local midnights (`day`, keys `yyyy-MM-dd`) or first days of the
 * month (`month`, keys `yyyy-MM`); the first and last pieces are clipped to the period.
 */
export function periodsOf(from: number, to: number, timeZone: string, unit: "day" | "month"): Period[] {
  const out: Period[] = [];
  const d = localDate(from, timeZone);
  let start = unit === "day" ? localMidnight(d.year, d.month, d.day, timeZone) : localMidnight(d.year, d.month, 1, timeZone);
  for (let k = 1; start < to; k++) {
    const next = unit === "day" ? localMidnight(d.year, d.month, d.day + k, timeZone) : localMidnight(d.year, d.month + k, 1, timeZone);
    const local = localDate(start, timeZone);
    out.push({ key: unit === "day" ? dayKey(local) : dayKey(local).slice(0, 7), from: Math.max(start, from), to: Math.min(next, to) });
    start = next;
  }
  return out;
}

/** The trailing year the federal average is taken over: the 365 (or 366) local days up to the end of today. */
export function trailingYear(now: number, timeZone: string): { from: number; to: number } {
  const d = localDate(now, timeZone);
  return { from: localMidnight(d.year - 1, d.month, d.day + 1, timeZone), to: localMidnight(d.year, d.month, d.day + 1, timeZone) };
}

/** Sessions that delivered energy against sessions started, in percent (two decimals); null with none started. */
export function chargingSuccessPercent(started: number, delivered: number): number | null {
  if (started === 0) return null;
  return Math.round((delivered / started) * 10_000) / 100;
}
