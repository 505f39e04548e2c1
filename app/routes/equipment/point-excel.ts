import type { TFunction } from "i18next";
import { readSheetRows, saveSheet, templateHeader } from "~/lib/excel";

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

/** Reads the first sheet of an .xlsx file into rows numbered as the sheet numbers its lines. */
export const readPointRows = (file: File): Promise<ImportRow[]> =>
  // Visibility keeps its spelling (Public, Private, PrivateHidden).
  readSheetRows(file, IMPORT_COLUMNS, { numeric: NUMERIC, upperCase: UPPER_CASE, prefix: "points.import", emptyKey: "points.validation.importEmpty" });

/** The import template: the columns in the user's language and one example row. */
export async function downloadTemplate(t: TFunction, example: { stationName: string }) {
  await saveSheet(
    [
      templateHeader(t, "points.import", IMPORT_COLUMNS, REQUIRED),
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
  await saveSheet(
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
        // The standard's one name, as every screen shows it (docs/rules/console.md "Names").
        p.connectors.map((c) => `${t(`points.standards.${c.standard}`)} ${c.power} kW`).join(", "),
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
