import { describe, expect, it } from "vitest";
import { diffLines } from "../../domain/log-diff";

describe("the operation log's diff", () => {
  it("flattens nested fields and says what changed, was added or removed", () => {
    const lines = diffLines({ name: "A", status: "VALID", price: { unit: "1.20" }, gone: 1 }, { name: "A", status: "INVALID", price: { unit: "1.30" }, tags: ["x"] });
    expect(lines).toEqual([
      { field: "name", before: "A", after: "A", change: "same" },
      { field: "status", before: "VALID", after: "INVALID", change: "changed" },
      { field: "price.unit", before: "1.20", after: "1.30", change: "changed" },
      { field: "gone", before: "1", after: null, change: "removed" },
      { field: "tags", before: null, after: '["x"]', change: "added" },
    ]);
  });

  it("shows a creation as all added and a plain value as one line", () => {
    expect(diffLines(null, { id: 3 })).toEqual([{ field: "id", before: null, after: "3", change: "added" }]);
    expect(diffLines("cut text", null)).toEqual([{ field: "value", before: "cut text", after: null, change: "removed" }]);
  });
});
