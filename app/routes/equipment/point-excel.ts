import type { TFunction } from "i18next";
import { saveXlsx } from "~/components/export/xlsx";

/**
 * Excel files of the points list: the import accepts Excel files only, the export builds an xlsx
 * file (docs/rules/equipment.md "Import and export"). The browser reads and writes the workbooks — `read-excel-file` and
 * `write-excel-file`, loaded only when used — and the server validates the rows
 * (POST /station-service/point/import, all or nothing).
 */

/** The template's columns, in order; the import reads cells by position under one header row. */
export const IMPORT_COLUMNS = [
  "stationName",
  "serialNumber",
  "name",
  "pointNo",
  "type",
  "ratedPower",
  "connectorCount",
  "standard",
  "chargeSpeed",
  "privateType",
  "code",
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

const REQUIRED: ReadonlySet<ImportColumn> = new Set(["stationName", "serialNumber", "name", "pointNo", "type", "ratedPower", "connectorCount"]);

/** Columns read as numbers; every other column is text, even when the sheet holds a number there. */
const NUMERIC: ReadonlySet<ImportColumn> = new Set(["ratedPower", "connectorCount"]);
/** Codes written in capitals whatever case the sheet uses. */
const UPPER_CASE: ReadonlySet<ImportColumn> = new Set(["type", "standard", "chargeSpeed"]);

export type ImportRow = Partial<Record<ImportColumn, string | number>> & { line: number };

/** What the sheet says in a cell, as the API takes it: trimmed text, numbers as numbers, empty as absent. */
function cellValue(value: unknown): string | number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number") return value;
  if (value instanceof Date) return value.toISOString();
  const text = String(value).trim();
  return text === "" ? undefined : text;
}

export class WorkbookError extends Error {}

/** Reads the first sheet of an .xlsx file into rows numbered as the sheet numbers its lines. */
export async function readPointRows(file: File): Promise<ImportRow[]> {
  if (!/\.xlsx$/i.test(file.name)) throw new WorkbookError("points.import.excelOnly");
  const { readSheet } = await import("read-excel-file/browser");
  let sheet: unknown[][];
  try {
    sheet = (await readSheet(file)) as unknown[][];
  } catch {
    throw new WorkbookError("points.import.unreadable");
  }
  const rows: ImportRow[] = [];
  sheet.slice(1).forEach((cells, index) => {
    const row: ImportRow = { line: index + 2 };
    IMPORT_COLUMNS.forEach((column, position) => {
      const value = cellValue(cells[position]);
      if (value === undefined) return;
      if (NUMERIC.has(column)) row[column] = value;
      else row[column] = UPPER_CASE.has(column) ? String(value).toUpperCase() : String(value);
    });
    // Visibility keeps its spelling (Public, Private, PrivateHidden); blank lines are skipped.
    if (IMPORT_COLUMNS.some((column) => row[column] !== undefined)) rows.push(row);
  });
  if (rows.length === 0) throw new WorkbookError("points.validation.importEmpty");
  return rows;
}

const header = (t: TFunction, column: ImportColumn) =>
  `${t(`points.import.columns.${column}`)}${REQUIRED.has(column) ? " *" : ""}`;

/** The import template: the columns in the user's language and one example row. */
export async function downloadTemplate(t: TFunction, example: { stationName: string }) {
  await saveXlsx(
    [
      IMPORT_COLUMNS.map((column) => header(t, column)),
      [example.stationName, "PL-CP-0001", t("points.import.exampleName"), "01", "AC", 22, 2, "IEC2", "SLOW", "Public", ""],
    ],
    `${t("points.import.templateFile")}.xlsx`,
    [24, 20, 24, 12, 10, 16, 12, 18, 16, 16, 12],
  );
}

export interface ExportedPoint {
  serialNumber: string;
  name: string;
  pointNo: string;
  code: string | null;
  stationName: string | null;
  type: string;
  ratedPower: number;
  connectorCount: number;
  connectors: { standard: string; power: number }[];
  privateType: string;
  status: string;
  online: boolean;
  vendor: string | null;
  model: string | null;
  firmwareVersion: string | null;
}

/** The points list as an xlsx file, as filtered on the screen. */
export async function exportPoints(t: TFunction, points: ExportedPoint[], fileName: string) {
  const columns = [
    "serialNumber",
    "name",
    "pointNo",
    "code",
    "station",
    "type",
    "ratedPower",
    "connectorCount",
    "standards",
    "privateType",
    "status",
    "online",
    "vendor",
    "model",
    "firmwareVersion",
  ] as const;
  await saveXlsx(
    [
      columns.map((column) => t(`points.fields.${column}`)),
      ...points.map((p) => [
        p.serialNumber,
        p.name,
        p.pointNo,
        p.code,
        p.stationName,
        t(`points.types.${p.type}`),
        p.ratedPower,
        p.connectorCount,
        p.connectors.map((c) => `${c.standard} ${c.power} kW`).join(", "),
        t(`points.privateTypes.${p.privateType}`),
        t(`common.statusValues.${p.status}`),
        t(p.online ? "points.online" : "points.offline"),
        p.vendor,
        p.model,
        p.firmwareVersion,
      ]),
    ],
    fileName,
    [20, 24, 10, 10, 22, 10, 14, 12, 28, 14, 12, 10, 16, 16, 16],
  );
}
