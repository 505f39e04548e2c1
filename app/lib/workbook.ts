import type { SheetData } from "write-excel-file/browser";

/**
 * Writes rows as an .xlsx file the browser downloads (docs/architecture.md "Toolchain": Excel files
 * are built in the browser). The first row is the header; `null` leaves a cell empty. The writer
 * is loaded only when a file is saved.
 */
export async function saveWorkbook(data: (string | number | null)[][], fileName: string, widths: number[]) {
  const { default: writeXlsxFile } = await import("write-excel-file/browser");
  const sheet: SheetData = data.map((row, index) =>
    row.map((value) => (index === 0 ? { value: value ?? "", fontWeight: "bold", backgroundColor: "#E8F5EC" } : value === null ? null : { value })),
  );
  await writeXlsxFile(sheet, { columns: widths.map((width) => ({ width })), stickyRowsCount: 1 }).toFile(fileName);
}
