import { describe, expect, it } from "vitest";
import { archiveKey, byLocalMonth, framesCutoff, ndjson, recordsCutoff, retentionInput } from "../../domain/retention";

/** The cut-offs of retention (docs/rules/settings.md "Retention"): counted back from the operator's local today. */
const iso = (ms: number) => new Date(ms).toISOString();

describe("records cut-off", () => {
  it.each([
    // now (UTC), zone, months, first instant kept
    ["2026-11-29T12:00:00Z", "UTC", 13, "2025-10-29T00:00:00.000Z"],
    // 29 October 2025 is past Warsaw's autumn change: local midnight at winter time, +1.
    ["2026-11-29T12:00:00Z", "Europe/Warsaw", 13, "2025-10-28T23:00:00.000Z"],
    // 23:30 UTC on 30 November is already 1 December in Warsaw: the local today decides.
    ["2026-11-30T23:30:00Z", "Europe/Warsaw", 13, "2025-10-31T23:00:00.000Z"],
    // The same instant is still 30 November in New York.
    ["2026-12-01T03:00:00Z", "America/New_York", 1, "2026-10-30T04:00:00.000Z"],
    // The 31st less a month is the month's last day: 28 February, or 29 in a leap year.
    ["2027-03-31T12:00:00Z", "UTC", 1, "2027-02-28T00:00:00.000Z"],
    ["2028-03-31T12:00:00Z", "UTC", 1, "2028-02-29T00:00:00.000Z"],
    // Across a year boundary.
    ["2026-01-15T12:00:00Z", "UTC", 13, "2024-12-15T00:00:00.000Z"],
    // Across the spring daylight-saving change: local midnight of 29 March is still at +1.
    ["2026-04-29T12:00:00Z", "Europe/Berlin", 1, "2026-03-28T23:00:00.000Z"],
    ["2026-04-29T12:00:00Z", "Asia/Shanghai", 120, "2016-04-28T16:00:00.000Z"],
  ])("at %s in %s, %i months keep from %s", (now, zone, months, kept) => {
    expect(iso(recordsCutoff(Date.parse(now), zone, months))).toBe(kept);
  });
});

describe("frames cut-off", () => {
  it.each([
    ["2026-11-29T12:00:00Z", "UTC", 90, "2026-08-31T00:00:00.000Z"],
    ["2026-11-29T12:00:00Z", "Europe/Warsaw", 90, "2026-08-30T22:00:00.000Z"],
    // Counted in local days across the autumn change: the cut-off is local midnight at summer time.
    ["2026-11-01T12:00:00Z", "Europe/Warsaw", 7, "2026-10-24T22:00:00.000Z"],
    ["2026-03-01T12:00:00Z", "UTC", 365, "2025-03-01T00:00:00.000Z"],
    ["2026-11-29T02:00:00Z", "Pacific/Auckland", 7, "2026-11-21T11:00:00.000Z"],
  ])("at %s in %s, %i days keep from %s", (now, zone, days, kept) => {
    expect(iso(framesCutoff(Date.parse(now), zone, days))).toBe(kept);
  });
});

describe("archive months and keys", () => {
  it("groups rows by the operator's local month, in order", () => {
    const rows = [Date.parse("2024-03-31T21:59:59Z"), Date.parse("2024-03-31T22:00:00Z"), Date.parse("2024-04-30T21:59:59Z"), Date.parse("2024-04-30T22:00:00Z")];
    const months = byLocalMonth(rows, (r) => r, "Europe/Warsaw");
    expect([...months.entries()].map(([m, list]) => [m, list.length])).toEqual([
      ["2024-03", 1],
      ["2024-04", 2],
      ["2024-05", 1],
    ]);
    expect([...byLocalMonth(rows, (r) => r, "UTC").keys()]).toEqual(["2024-03", "2024-04"]);
  });

  it("names an archive by operator, kind, month and its first row, and writes one JSON object per line", () => {
    expect(archiveKey(7, "meter-values", "2025-01", "SN-1-42")).toBe("operators/7/archives/meter-values/2025-01/SN-1-42.ndjson.gz");
    expect(ndjson([{ a: 1 }, { b: "x\ny" }])).toBe('{"a":1}\n{"b":"x\\ny"}\n');
    expect(ndjson([])).toBe("");
  });

  it("accepts whole periods within their bounds only", () => {
    expect(retentionInput.safeParse({ recordsMonths: 13, framesDays: 90 }).success).toBe(true);
    for (const bad of [{ recordsMonths: 0, framesDays: 90 }, { recordsMonths: 121, framesDays: 90 }, { recordsMonths: 13, framesDays: 6 }, { recordsMonths: 13, framesDays: 366 }, { recordsMonths: 1.5, framesDays: 90 }, { recordsMonths: "13", framesDays: 90 }, { recordsMonths: 13 }]) {
      expect(retentionInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
