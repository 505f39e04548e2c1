import type { z } from "zod";
import { issueFields } from "../http/error-envelope";

/**
 * One row of a spreadsheet import (docs/rules/equipment.md "Import and export", docs/rules/drivers.md
 * "Card import"): its cells read loosely, the line it names (its `line` cell, else its place counted
 * from 1), and the row parsed by `schema`; each fault of the row lands in `fields` as
 * `"<line>.<field>"`, the first message of a cell kept.
 */
export function importRow<S extends z.ZodType>(schema: S, value: unknown, index: number, fields: Record<string, string>) {
  const cells = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const declared = Number(cells.line);
  const line = Number.isInteger(declared) && declared > 0 ? declared : index + 1;
  const parsed = schema.safeParse(value);
  if (!parsed.success) issueFields(parsed.error.issues, fields, `${line}.`);
  return { cells, line, row: parsed.success ? (parsed.data as z.output<S>) : undefined };
}
