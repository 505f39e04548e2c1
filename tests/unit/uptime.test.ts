import { describe, expect, it } from "vitest";
import { localMidnight, zonedToUtc } from "../../domain/time";
import {
  chargingSuccessPercent,
  closedSpans,
  openingHoursOf,
  periodsOf,
  trailingYear,
  uptimeOf,
  type StatusInterval,
} from "../../domain/uptime";

const WARSAW = "Europe/Warsaw";
const at = (local: string) => zonedToUtc(local, WARSAW)!;
const iv = (status: string | null, start: string, end: string | null, more: Partial<StatusInterval> = {}): StatusInterval => ({
  status,
  online: true,
  start: at(start),
  end: end === null ? null : at(end),
  excluded: false,
  ...more,
});
const noClosing = { point: [], closed: [] };
const LATER = at("2030-01-01T00:00");

describe("uptime of a port as 23 CFR 680.116 counts it", () => {
  const day = { from: at("2026-03-10T00:00"), to: at("2026-03-11T00:00") };

  it.each([
    {
      name: "a day Available all along is 100 %",
      port: [iv("Available", "2026-03-01T00:00", null)],
      expected: { minutes: 1440, outageMinutes: 0, excludedMinutes: 0, uptimePercent: 100 },
    },
    {
      name: "a Faulted hour is 60 outage minutes",
      port: [iv("Available", "2026-03-01T00:00", "2026-03-10T10:00"), iv("Faulted", "2026-03-10T10:00", "2026-03-10T11:00"), iv("Available", "2026-03-10T11:00", null)],
      expected: { minutes: 1440, outageMinutes: 60, excludedMinutes: 0, uptimePercent: 95.83 },
    },
    {
      name: "an outage across midnight counts only its part inside the day",
      port: [iv("Unavailable", "2026-03-09T22:00", "2026-03-10T02:00"), iv("Charging", "2026-03-10T02:00", null)],
      expected: { minutes: 1440, outageMinutes: 120, excludedMinutes: 0, uptimePercent: 91.66 },
    },
    {
      name: "a point offline takes the port down whatever it said before",
      port: [iv("Available", "2026-03-10T00:00", "2026-03-10T06:00"), iv("Available", "2026-03-10T06:00", "2026-03-10T12:00", { online: false }), iv("Available", "2026-03-10T12:00", null)],
      expected: { minutes: 1440, outageMinutes: 360, excludedMinutes: 0, uptimePercent: 75 },
    },
    {
      name: "an outage the operator excluded counts as excluded",
      port: [iv("Faulted", "2026-03-10T08:00", "2026-03-10T20:00", { excluded: true }), iv("Available", "2026-03-10T20:00", null)],
      expected: { minutes: 1440, outageMinutes: 720, excludedMinutes: 720, uptimePercent: 100 },
    },
    {
      name: "an outage still open runs until the end of the period",
      port: [iv("Faulted", "2026-03-10T18:00", null)],
      expected: { minutes: 1440, outageMinutes: 360, excludedMinutes: 0, uptimePercent: 75 },
    },
    {
      name: "no history at all counts as up",
      port: [],
      expected: { minutes: 1440, outageMinutes: 0, excludedMinutes: 0, uptimePercent: 100 },
    },
  ])("$name", ({ port, expected }) => {
    expect(uptimeOf({ port, ...noClosing }, day.from, day.to, LATER)).toEqual(expected);
  });

  it("takes every port down while the point itself (connector 0) is Faulted, and counts an overlap once", () => {
    const point = [iv("Faulted", "2026-03-10T09:00", "2026-03-10T12:00")];
    const port = [iv("Faulted", "2026-03-10T11:00", "2026-03-10T13:00"), iv("Available", "2026-03-10T13:00", null)];
    expect(uptimeOf({ port, point, closed: [] }, day.from, day.to, LATER)).toMatchObject({ outageMinutes: 240 });
  });

  it("excludes outage minutes outside the opening hours, and only outage minutes", () => {
    const hours = openingHoursOf("06:00-22:00");
    const closed = closedSpans(day.from, day.to, hours, WARSAW);
    const port = [iv("Faulted", "2026-03-10T20:00", "2026-03-11T00:00")];
    // 20:00–24:00 down: 22:00–24:00 falls outside the hours.
    expect(uptimeOf({ port, point: [], closed }, day.from, day.to, LATER)).toEqual({ minutes: 1440, outageMinutes: 240, excludedMinutes: 120, uptimePercent: 91.66 });
  });

  it("counts a month with an outage across its end in each month for its part", () => {
    const port = [iv("Faulted", "2026-01-31T23:00", "2026-02-01T01:00")];
    const january = uptimeOf({ port, ...noClosing }, at("2026-01-01T00:00"), at("2026-02-01T00:00"), LATER);
    const february = uptimeOf({ port, ...noClosing }, at("2026-02-01T00:00"), at("2026-03-01T00:00"), LATER);
    expect(january).toMatchObject({ minutes: 31 * 1440, outageMinutes: 60 });
    expect(february).toMatchObject({ minutes: 28 * 1440, outageMinutes: 60 });
  });

  it("gives the day daylight saving shortens 23 hours", () => {
    const from = at("2026-03-29T00:00");
    const to = localMidnight(2026, 3, 30, WARSAW);
    const port = [iv("Faulted", "2026-03-29T01:00", "2026-03-29T04:00")];
    // 01:00–04:00 on the wall clock is two hours: 02:00 does not exist that night.
    expect(uptimeOf({ port, ...noClosing }, from, to, LATER)).toMatchObject({ minutes: 23 * 60, outageMinutes: 120 });
  });

  it("counts a running period up to now only", () => {
    const now = at("2026-03-10T12:00");
    expect(uptimeOf({ port: [iv("Faulted", "2026-03-10T06:00", null)], ...noClosing }, day.from, day.to, now)).toEqual({
      minutes: 720,
      outageMinutes: 360,
      excludedMinutes: 0,
      uptimePercent: 50,
    });
  });

  it("never rounds a port up to the minimum", () => {
    // 44 outage minutes in a 1440-minute day: 96.944… %.
    const port = [iv("Faulted", "2026-03-10T10:00", "2026-03-10T10:44")];
    expect(uptimeOf({ port, ...noClosing }, day.from, day.to, LATER).uptimePercent).toBe(96.94);
  });
});

describe("opening hours", () => {
  it.each([
    ["06:00-22:00", { open: 360, close: 1320 }],
    ["22:00-06:00", { open: 1320, close: 360 }],
    ["00:00-24:00", null],
    ["24h", null],
    ["", null],
    ["8:30 – 17:00", { open: 510, close: 1020 }],
  ])("reads %j", (text, expected) => {
    expect(openingHoursOf(text)).toEqual(expected);
  });

  it("closes a station open overnight during the day, across a midnight", () => {
    const from = at("2026-03-10T00:00");
    const to = at("2026-03-11T00:00");
    expect(closedSpans(from, to, openingHoursOf("22:00-06:00"), WARSAW)).toEqual([[at("2026-03-10T06:00"), at("2026-03-10T22:00")]]);
  });
});

describe("periods", () => {
  it("cuts at local midnights, a DST day included, and clips the ends", () => {
    const days = periodsOf(at("2026-03-28T12:00"), at("2026-03-30T06:00"), WARSAW, "day");
    expect(days.map((d) => d.key)).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(days[0].from).toBe(at("2026-03-28T12:00"));
    expect(days[1].to - days[1].from).toBe(23 * 3_600_000);
    expect(days[2].to).toBe(at("2026-03-30T06:00"));
  });

  it("cuts at the first local day of each month", () => {
    const months = periodsOf(at("2026-01-15T00:00"), at("2026-03-01T00:00"), WARSAW, "month");
    expect(months.map((m) => [m.key, m.from, m.to])).toEqual([
      ["2026-01", at("2026-01-15T00:00"), at("2026-02-01T00:00")],
      ["2026-02", at("2026-02-01T00:00"), at("2026-03-01T00:00")],
    ]);
  });

  it("takes the trailing year as the 365 local days up to the end of today", () => {
    const { from, to } = trailingYear(at("2026-11-29T10:00"), WARSAW);
    expect([from, to]).toEqual([at("2025-11-30T00:00"), at("2026-11-30T00:00")]);
  });
});

describe("charging success rate", () => {
  it.each([
    [10, 9, 90],
    [3, 2, 66.67],
    [0, 0, null],
  ])("%i started, %i delivered → %s", (started, delivered, expected) => {
    expect(chargingSuccessPercent(started, delivered)).toBe(expected);
  });
});
