import { describe, expect, it } from "vitest";
import { dayAfterKey, localBound } from "../../domain/time";
import { datedFileName } from "~/lib/excel";

/** Period bounds typed in the operator's time zone (docs/rules/records.md "Filters"). */
describe("localBound", () => {
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

  it("starts a day at its local midnight and ends it at the next, across daylight saving time", () => {
    expect(iso(localBound("2025-03-30", "Europe/Warsaw", "from"))).toBe("2025-03-29T23:00:00.000Z");
    // 30 March 2025 has 23 hours in Warsaw.
    expect(iso(localBound("2025-03-30", "Europe/Warsaw", "to"))).toBe("2025-03-30T22:00:00.000Z");
    expect(iso(localBound("2025-10-26", "Europe/Warsaw", "to"))).toBe("2025-10-26T23:00:00.000Z");
  });

  it("reads a local date-time with a space or a T, and includes it as the end", () => {
    expect(iso(localBound("2025-07-01 08:30", "Europe/Warsaw", "from"))).toBe("2025-07-01T06:30:00.000Z");
    expect(iso(localBound("2025-07-01T08:30:15", "Europe/Warsaw", "to"))).toBe("2025-07-01T06:30:15.001Z");
  });

  it("refuses impossible dates and other shapes", () => {
    for (const text of ["2025-02-30", "2025-13-01", "01.03.2025", "2025-03-01 24:00", "2025-03-01T10"]) {
      expect(localBound(text, "Europe/Warsaw", "from"), text).toBeUndefined();
    }
  });
});

describe("dayAfterKey", () => {
  it("turns an included last day into the exclusive day after, across months and years, and leaves other text alone", () => {
    expect(dayAfterKey("2026-11-29")).toBe("2026-11-30");
    expect(dayAfterKey("2026-02-28")).toBe("2026-03-01");
    expect(dayAfterKey("2024-02-28")).toBe("2024-02-29");
    expect(dayAfterKey("2026-12-31")).toBe("2027-01-01");
    expect(dayAfterKey("yesterday")).toBe("yesterday");
  });
});

/** An export's file name carries the operator's day, not UTC's (app/lib/excel.ts `datedFileName`). */
describe("datedFileName", () => {
  it("dates the file with today in the operator's zone on either side of UTC's midnight", () => {
    const lateUtc = Date.parse("2026-12-01T23:30:00Z");
    const earlyUtc = Date.parse("2026-12-02T05:00:00Z");
    expect(datedFileName("alarm-history", "Asia/Tokyo", lateUtc)).toBe("alarm-history-2026-12-02.xlsx");
    expect(datedFileName("alarm-history", "UTC", lateUtc)).toBe("alarm-history-2026-12-01.xlsx");
    expect(datedFileName("points", "America/Los_Angeles", earlyUtc)).toBe("points-2026-12-01.xlsx");
    expect(datedFileName("points", "Europe/Warsaw", earlyUtc)).toBe("points-2026-12-02.xlsx");
  });
});
