import type { SheetData } from "write-excel-file/browser";
import { dayKey, localDate } from "../../domain/time";

/**
 * Excel files in the browser (docs/rules/equipment.md "Import and export", docs/rules/drivers.md
 * "Card import"): imports accept Excel files only; the browser reads and writes the workbooks
 * (`read-excel-file` and `write-excel-file`, loaded only when used) and the server validates the rows.
 */

/** A workbook the browser could not read; its message is a catalogue key. */
export class WorkbookError extends Error {}

/** What the sheet says in a cell, as the API takes it: trimmed text, numbers as numbers, dates as ISO, empty as absent. */
function cellValue(value: unknown): string | number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number") return value;
  if (value instanceof Date) return value.toISOString();
  const text = String(value).trim();
  return text === "" ? undefined : text;
}

export type SheetRow<C extends string> = Partial<Record<C, string | number>> & { line: number };

/**
 * Reads the first sheet of an .xlsx file into rows numbered as the sheet numbers its lines, cells
 * by position under one header row. `numeric` columns keep numbers, `upperCase` columns are codes
 * written in capitals; every other column is text. Blank lines are skipped.
 */
export async function readSheetRows<C extends string>(
  file: File,
  columns: readonly C[],
  options: { numeric?: ReadonlySet<C>; upperCase?: ReadonlySet<C>; prefix: string; emptyKey: string },
): Promise<SheetRow<C>[]> {
  if (!/\.xlsx$/i.test(file.name)) throw new WorkbookError(`${options.prefix}.excelOnly`);
  const { readSheet } = await import("read-excel-file/browser");
  let sheet: unknown[][];
  try {
    sheet = (await readSheet(file)) as unknown[][];
  } catch {
    throw new WorkbookError(`${options.prefix}.unreadable`);
  }
  const rows: SheetRow<C>[] = [];
  sheet.slice(1).forEach((cells, index) => {
    const row = { line: index + 2 } as SheetRow<C>;
    columns.forEach((column, position) => {
      const value = cellValue(cells[position]);
      if (value === undefined) return;
      if (options.numeric?.has(column)) row[column] = value as SheetRow<C>[C];
      else row[column] = (options.upperCase?.has(column) ? String(value).toUpperCase() : String(value)) as SheetRow<C>[C];
    });
    if (columns.some((column) => row[column] !== undefined)) rows.push(row);
  });
  if (rows.length === 0) throw new WorkbookError(options.emptyKey);
  return rows;
}

/** An import template's header: each column in the user's language, required ones marked with `*`. */
export function templateHeader<C extends string>(t: (key: string) => string, prefix: string, columns: readonly C[], required: ReadonlySet<C>) {
  return columns.map((column) => `${t(`${prefix}.columns.${column}`)}${required.has(column) ? " *" : ""}`);
}

/**
 * An export's file name dated with today in the operator's zone, the days the console shows
 * (docs/architecture.md "Time, money and units"), not UTC's: `Alarms-2026-12-02.xlsx`.
 */
export const datedFileName = (name: string, timeZone: string, now = Date.now()) => `${name}-${dayKey(localDate(now, timeZone))}.xlsx`;

/** Writes rows as an xlsx file, the first row as a bold header. */
export async function saveSheet(data: (string | number | null)[][], fileName: string, widths: number[]) {
  const { default: writeXlsxFile } = await import("write-excel-file/browser");
  const sheet: SheetData = data.map((row, index) =>
    row.map((value) => (index === 0 ? { value: value ?? "", fontWeight: "bold", backgroundColor: "#E8F5EC" } : value === null ? null : { value })),
  );
  await writeXlsxFile(sheet, { columns: widths.map((width) => ({ width })), stickyRowsCount: 1 }).toFile(fileName);
}
