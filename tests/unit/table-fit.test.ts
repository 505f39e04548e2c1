import { describe, expect, it } from "vitest";
import { columnsToHide, hidingOrder } from "~/components/data-table/use-column-fit";

/** A list like the charging sessions: name, details of decreasing interest, status and actions. */
const columns = [
  { id: "transaction", width: 120, priority: 1 },
  { id: "station", width: 150, priority: 3 },
  { id: "point", width: 150, priority: 1 },
  { id: "idTag", width: 150, priority: 3 },
  { id: "startAt", width: 150, priority: 4 },
  { id: "energy", width: 150, priority: 2 },
  { id: "status", width: 150, priority: 1 },
  { id: "actions", width: 120, priority: 1 },
];

describe("columns that fit the table", () => {
  it("moves the least important columns out first, the rightmost of equals first, never those of priority 1", () => {
    expect(hidingOrder(columns)).toEqual(["startAt", "idTag", "station", "energy"]);
  });

  it("keeps every column when the declared widths fit", () => {
    expect(columnsToHide(columns, 1140, 44)).toBe(0);
  });

  it("moves out as many columns as needed, counting the expand toggle once something moved", () => {
    // 1140 in all; without startAt 990, plus the toggle 1034.
    expect(columnsToHide(columns, 1100, 44)).toBe(1);
    expect(columnsToHide(columns, 1033, 44)).toBe(2);
    expect(columnsToHide(columns, 800, 44)).toBe(3);
  });

  it("keeps the essential columns however narrow the box", () => {
    expect(columnsToHide(columns, 100, 44)).toBe(4);
  });
});
