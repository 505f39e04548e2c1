import { ExcelImportDialog } from "~/components/import-dialog";
import { IMPORT_COLUMNS, readPointRows } from "./point-excel";

/** Import points from the Excel template (docs/rules/equipment.md "Import and export"). */
export function PointImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <ExcelImportDialog
      open={open}
      onOpenChange={onOpenChange}
      prefix="points.import"
      columns={IMPORT_COLUMNS}
      read={readPointRows}
      path="/station-service/point/import"
    />
  );
}
