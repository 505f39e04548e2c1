import { describe, expect, it } from "vitest";
import { monthOf, monthRange } from "../../domain/time";

describe("report months in an operator's time zone", () => {
  it.each([
    ["2025-03", "Europe/Warsaw", "2025-02-28T23:00:00.000Z", "2025-03-31T22:00:00.000Z"],
    ["2025-10", "Europe/Warsaw", "2025-09-30T22:00:00.000Z", "2025-10-31T23:00:00.000Z"],
    ["2025-12", "Europe/Berlin", "2025-11-30T23:00:00.000Z", "2025-12-31T23:00:00.000Z"],
    ["2024-02", "UTC", "2024-02-01T00:00:00.000Z", "2024-03-01T00:00:00.000Z"],
    ["2025-01", "America/Sao_Paulo", "2025-01-01T03:00:00.000Z", "2025-02-01T03:00:00.000Z"],
    ["2025-07", "Asia/Shanghai", "2025-06-30T16:00:00.000Z", "2025-07-31T16:00:00.000Z"],
  ])("%s in %s runs from %s to %s", (month, zone, from, to) => {
    const range = monthRange(month, zone);
    expect(new Date(range.from).toISOString()).toBe(from);
    expect(new Date(range.to).toISOString()).toBe(to);
  });

  it("names the month an instant falls in, locally", () => {
    expect(monthOf(Date.parse("2025-02-28T23:30:00Z"), "Europe/Warsaw")).toBe("2025-03");
    expect(monthOf(Date.parse("2025-02-28T23:30:00Z"), "UTC")).toBe("2025-02");
    expect(monthOf(Date.parse("2025-01-01T02:00:00Z"), "America/Sao_Paulo")).toBe("2024-12");
  });
});
