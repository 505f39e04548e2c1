import { FileSpreadsheet, Upload } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi, type ApiPathTo } from "~/lib/api";
import { WorkbookError } from "~/lib/excel";

interface Problem {
  line: number;
  column: string;
  message: string;
}

/** `"<line>.<field>"` → message, as the import answers a refused file, sorted by line. */
function problemsOf(fields: Record<string, string>): Problem[] {
  return Object.entries(fields)
    .map(([key, message]) => {
      const [line, ...path] = key.split(".");
      return { line: Number(line), column: path.join("."), message };
    })
    .sort((a, b) => a.line - b.line || a.column.localeCompare(b.column));
}

export interface ExcelImportProps<Row> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The catalogue prefix of the dialog's texts (`points.import`, `drivers.import`…). */
  prefix: string;
  /** The template's columns, named `<prefix>.columns.<column>`. */
  columns: readonly string[];
  /** Reads the file's rows in the browser; throws WorkbookError with a catalogue key. */
  read: (file: File) => Promise<Row[]>;
  /** The import endpoint: all rows or none, bad cells answered as `"<line>.<field>"`. */
  path: ApiPathTo<"post", { imported: number }>;
}

/**
 * Import from an Excel template (docs/rules/equipment.md "Import and export",
 * docs/rules/drivers.md "Card import"): read in the browser, sent as rows, checked by the server;
 * a bad file lists every bad cell by line and imports nothing.
 */
export function ExcelImportDialog<Row>({ open, onOpenChange, prefix, columns, read, path }: ExcelImportProps<Row>) {
  const { t } = useTranslation();
  const api = useApi();
  const revalidator = useRevalidator();
  const inputId = useId();
  const [fileName, setFileName] = useState<string>();
  const [rows, setRows] = useState<Row[]>([]);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [readError, setReadError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setFileName(undefined);
    setRows([]);
    setProblems([]);
    setReadError(undefined);
  };

  const choose = async (file: File | undefined) => {
    reset();
    if (!file) return;
    setFileName(file.name);
    try {
      setRows(await read(file));
    } catch (error) {
      setReadError(t(error instanceof WorkbookError ? error.message : `${prefix}.unreadable`));
    }
  };

  const submit = async () => {
    setBusy(true);
    setProblems([]);
    try {
      const result = await api.call("post", path, { body: { rows } });
      toast.success(t(`${prefix}.done`, { count: result.imported }));
      reset();
      onOpenChange(false);
      await revalidator.revalidate();
    } catch (error) {
      if (error instanceof ApiError) setProblems(problemsOf(error.fields));
    } finally {
      setBusy(false);
    }
  };

  const columnName = (column: string) =>
    columns.includes(column) ? t(`${prefix}.columns.${column}`) : column || "—";

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t(`${prefix}.title`)}</DialogTitle>
          <DialogDescription>{t(`${prefix}.description`)}</DialogDescription>
        </DialogHeader>
        <label
          htmlFor={inputId}
          className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed px-6 py-8 text-center transition-colors hover:border-primary hover:bg-primary/5"
        >
          <FileSpreadsheet className="size-8 text-primary" aria-hidden />
          <span className="text-sm font-medium">{fileName ?? t(`${prefix}.choose`)}</span>
          <span className="text-xs text-muted-foreground">{t(`${prefix}.accepts`)}</span>
          <input
            id={inputId}
            type="file"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="sr-only"
            aria-label={t(`${prefix}.choose`)}
            onChange={(event) => void choose(event.target.files?.[0])}
          />
        </label>
        {readError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {readError}
          </p>
        )}
        {rows.length > 0 && problems.length === 0 && <p className="text-sm text-muted-foreground">{t(`${prefix}.ready`, { count: rows.length })}</p>}
        {problems.length > 0 && (
          <div className="flex flex-col gap-2">
            <p role="alert" className="text-sm font-medium text-destructive">
              {t(`${prefix}.rejected`)}
            </p>
            <div className="max-h-72 overflow-auto rounded-md border">
              <Table aria-label={t(`${prefix}.report`)}>
                <TableHeader>
                  <TableRow>
                    <TableHead className="w-20">{t(`${prefix}.line`)}</TableHead>
                    <TableHead className="w-44">{t(`${prefix}.column`)}</TableHead>
                    <TableHead>{t(`${prefix}.problem`)}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {problems.map((p) => (
                    <TableRow key={`${p.line}.${p.column}`}>
                      <TableCell className="tabular-nums">{p.line}</TableCell>
                      <TableCell>{columnName(p.column)}</TableCell>
                      <TableCell className="whitespace-normal text-destructive">{p.message}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t("common.cancel")}
          </Button>
          <Button onClick={() => void submit()} disabled={rows.length === 0 || busy}>
            <Upload aria-hidden />
            {t(`${prefix}.submit`, { count: rows.length })}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
