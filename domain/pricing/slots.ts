import { zoneOffsetMs } from "../time";

/**
 * The day of a strategy: 48 half-hours (docs/rules/pricing.md "Strategies"), cut into slots that
 * follow one another from 00:00 to 24:00 in the station's local time. Slot boundaries are wall-clock
 * times, so a session across midnight or a daylight-saving change is cut where the local clock
 * says (docs/architecture.md "Time, money and units").
 */

export const HALF_HOURS = 48;
export const DAY_MINUTES = 24 * 60;
const MINUTE_MS = 60_000;
/** Every zone's offset is a multiple of 15 minutes, and so is every change of it. */
const QUARTER_MS = 15 * MINUTE_MS;

export interface TimeSlot {
  start: string;
  end: string;
}

const TIME_TEXT = /^(\d{2}):(\d{2})$/;

/** "08:30" → 510; "24:00" → 1440; undefined for anything that is not HH:MM within the day. */
export function minuteOfText(text: string): number | undefined {
  const match = TIME_TEXT.exec(text);
  if (!match) return undefined;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return undefined;
  return hours * 60 + minutes;
}

/** 510 → "08:30"; 1440 → "24:00". */
export function textOfMinute(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** The 48 half-hour boundaries a slot may start or end on, "00:00" … "24:00". */
export const SLOT_TIMES = Array.from({ length: HALF_HOURS + 1 }, (_, i) => textOfMinute(i * 30));

/**
 * Which slot covers each half-hour of the day (48 entries). The slots must already be valid
 * (contiguous half-hours from 00:00 to 24:00: `slotProblem` says so).
 */
export function halfHourTable(slots: readonly TimeSlot[]): number[] {
  const table = new Array<number>(HALF_HOURS);
  slots.forEach((slot, index) => {
    for (let h = minuteOfText(slot.start)! / 30; h < minuteOfText(slot.end)! / 30; h++) table[h] = index;
  });
  return table;
}

export type SlotProblem = "atLeastOne" | "incomplete" | "halfHour" | "startAfterEnd" | "contiguous" | "cover";

/**
 * What is wrong with a list of slots, in the order a person fixes it: none at all, a row without
 * its times, a time off the half-hour grid, a row that ends before it starts, a gap or overlap
 * between rows, or a day not covered from 00:00 to 24:00. Undefined when the list is good.
 */
export function slotProblem(slots: readonly Partial<TimeSlot>[]): { problem: SlotProblem; index?: number } | undefined {
  if (slots.length === 0) return { problem: "atLeastOne" };
  for (const [index, slot] of slots.entries()) {
    if (!slot.start || !slot.end) return { problem: "incomplete", index };
    const start = minuteOfText(slot.start);
    const end = minuteOfText(slot.end);
    if (start === undefined || end === undefined || start % 30 || end % 30) return { problem: "halfHour", index };
    if (start >= end) return { problem: "startAfterEnd", index };
    if (index > 0 && slots[index - 1].end !== slot.start) return { problem: "contiguous", index };
  }
  if (slots[0].start !== "00:00" || slots[slots.length - 1].end !== "24:00") return { problem: "cover" };
  return undefined;
}

/** The local minute of the day (0 … 1439) at an instant. */
export function localMinute(at: number, timeZone: string): number {
  const wall = at + zoneOffsetMs(at, timeZone);
  return Math.floor((((wall % 86_400_000) + 86_400_000) % 86_400_000) / MINUTE_MS);
}

/** The slot in force at an instant. */
export const slotAt = (table: readonly number[], at: number, timeZone: string) => table[Math.floor(localMinute(at, timeZone) / 30)];

export interface SlotSegment {
  from: number;
  to: number;
  slot: number;
}

/**
 * Cuts [from, to) into stretches each inside one slot, by the local clock. It steps through the
 * UTC quarter-hours: offsets and their changes are whole quarter-hours, so each quarter-hour lies
 * inside one local half-hour, and a skipped or repeated local hour (daylight saving) is handled by
 * the clock itself, never by arithmetic on wall times.
 */
export function slotSegments(table: readonly number[], from: number, to: number, timeZone: string): SlotSegment[] {
  const segments: SlotSegment[] = [];
  let at = from;
  while (at < to) {
    const next = Math.min(to, Math.floor(at / QUARTER_MS) * QUARTER_MS + QUARTER_MS);
    const slot = slotAt(table, at, timeZone);
    const last = segments[segments.length - 1];
    if (last && last.slot === slot && last.to === at) last.to = next;
    else segments.push({ from: at, to: next, slot });
    at = next;
  }
  return segments;
}
