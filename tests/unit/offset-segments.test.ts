import { describe, expect, it } from "vitest";
import { dayRange, offsetSegments } from "../../domain/time";
import { periodDays, statementQuery } from "../../domain/schemas/statements";

/** The zone's offsets a statement groups local days by (docs/rules/statements.md "Statements", local days). */
describe("offsetSegments", () => {
  it("keeps one offset for a period without a daylight-saving change", () => {
    const { from, to } = dayRange("2025-06-01", "2025-06-30", "Europe/Warsaw");
    expect(offsetSegments(from, to, "Europe/Warsaw")).toEqual([{ until: to, offsetMs: 2 * 3_600_000 }]);
  });

  it("splits at the exact minute of each change, spring and autumn", () => {
    const { from, to } = dayRange("2025-01-01", "2025-12-31", "Europe/Warsaw");
    expect(offsetSegments(from, to, "Europe/Warsaw")).toEqual([
      { until: Date.parse("2025-03-30T01:00:00Z"), offsetMs: 3_600_000 },
      { until: Date.parse("2025-10-26T01:00:00Z"), offsetMs: 7_200_000 },
      { until: to, offsetMs: 3_600_000 },
    ]);
  });

  it("follows a half-hour zone south of the equator", () => {
    const { from, to } = dayRange("2025-03-01", "2025-04-30", "Australia/Adelaide");
    const segments = offsetSegments(from, to, "Australia/Adelaide");
    expect(segments.map((s) => s.offsetMs / 60_000)).toEqual([630, 570]);
    expect(segments[0].until).toBe(Date.parse("2025-04-05T16:30:00Z"));
  });
});

describe("the statement period", () => {
  it("counts both days and refuses more than 366", () => {
    expect(periodDays("2024-01-01", "2024-12-31")).toBe(366);
    expect(statementQuery.safeParse({ from: "2024-01-01", to: "2024-12-31", groupBy: "day" }).success).toBe(true);
    expect(statementQuery.safeParse({ from: "2024-01-01", to: "2025-01-01", groupBy: "day" }).success).toBe(false);
  });
});
