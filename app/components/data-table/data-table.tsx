import { Fragment, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  useReactTable,
  type Cell,
  type ColumnDef,
  type ExpandedState,
  type RowData,
  type RowSelectionState,
} from "@tanstack/react-table";
import { ChevronRight, Inbox, LoaderCircle } from "lucide-react";
import type { Page } from "../../../domain/paging";
import { Checkbox } from "~/components/ui/checkbox";
import { Skeleton } from "~/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { cn } from "~/lib/cn";
import { DataTablePagination } from "./pagination";
import { useColumnFit, type FitColumn } from "./use-column-fit";
import { TABLE_HEIGHT_OFFSET, useTableHeight } from "./use-table-height";

declare module "@tanstack/react-table" {
  // Presentation hints a column may carry; the table reads them when drawing cells. The type
  // parameters are TanStack's own, required to merge with its declaration.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Fixed width in px (otherwise the column grows from its minimum width). */
    width?: number;
    align?: "left" | "center" | "right";
    className?: string;
    /**
     * 1 (the default): always in the row, as the record's name, its status and its actions
     * must be. 2, 3…: moves into the row's expandable details when the table is too narrow,
     * the highest number first.
     */
    priority?: number;
  }
}

/** The row actions column: pinned to the right edge, so it stays in view. */
const ACTIONS_COLUMN_ID = "actions";

/** Default minimum column width 150 px, selection column 55 px (docs/rules/console.md "Tables"). */
const MIN_COLUMN_WIDTH = 150;
const SELECT_COLUMN_WIDTH = 55;
const EXPAND_COLUMN_WIDTH = 44;
/** Keeps room for the empty and loading states when the window is very short. */
const MIN_BODY_HEIGHT = 240;

export interface DataTableProps<T> {
  // `any`: columns of different value types share one list, as TanStack's own examples type them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  /** The API's list answer; undefined while nothing has loaded yet. */
  page: Page<T> | undefined;
  onPageChange: (current: number, size: number) => void;
  loading?: boolean;
  selectable?: boolean;
  /** Called with the selected records of the current page whenever the selection changes. */
  onSelectionChange?: (rows: T[]) => void;
  /** Stable row ids keep selection and expansion attached to records; defaults to the row index. */
  getRowId?: (row: T, index: number) => string;
  renderExpanded?: (row: T) => ReactNode;
  minColumnWidth?: number;
  /** Pixels taken by everything around the table body (210, one variant adds 125; docs/rules/console.md "Tables"). */
  heightOffset?: number;
  emptyHint?: ReactNode;
  /** Accessible name of the table. */
  label?: string;
  className?: string;
}

export function DataTable<T>({
  columns,
  page,
  onPageChange,
  loading = false,
  selectable = false,
  onSelectionChange,
  getRowId,
  renderExpanded,
  minColumnWidth = MIN_COLUMN_WIDTH,
  heightOffset = TABLE_HEIGHT_OFFSET,
  emptyHint,
  label,
  className,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const bodyHeight = useTableHeight(heightOffset);
  const records = useMemo(() => page?.records ?? [], [page?.records]);
  const box = useRef<HTMLDivElement>(null);

  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [expanded, setExpanded] = useState<ExpandedState>({});
  // A new page of records starts with nothing selected or expanded (React's "reset state on prop change").
  const [shownRecords, setShownRecords] = useState(records);
  if (shownRecords !== records) {
    setShownRecords(records);
    setRowSelection({});
    setExpanded({});
  }

  const fitColumns = useMemo<FitColumn[]>(
    () => [
      ...(selectable ? [{ id: "select", width: SELECT_COLUMN_WIDTH, priority: 1 }] : []),
      ...(renderExpanded ? [{ id: "expand", width: EXPAND_COLUMN_WIDTH, priority: 1 }] : []),
      ...columns.map((column) => ({
        id: columnId(column),
        width: column.meta?.width ?? column.minSize ?? minColumnWidth,
        priority: column.meta?.priority ?? 1,
      })),
    ],
    [columns, selectable, renderExpanded, minColumnWidth],
  );
  const hidden = useColumnFit(box, fitColumns, renderExpanded ? 0 : EXPAND_COLUMN_WIDTH, records);
  const expandable = Boolean(renderExpanded) || hidden.size > 0;
  const columnVisibility = useMemo(() => Object.fromEntries([...hidden].map((id) => [id, false])), [hidden]);

  const allColumns = useMemo(() => {
    const leading: ColumnDef<T>[] = [];
    if (selectable) leading.push(selectColumn<T>(t("ui.table.selectAll"), t("ui.table.selectRow")));
    if (expandable) leading.push(expandColumn<T>(t("ui.table.expand"), t("ui.table.collapse")));
    return [...leading, ...columns];
  }, [columns, selectable, expandable, t]);

  const table = useReactTable({
    data: records,
    columns: allColumns,
    defaultColumn: { minSize: minColumnWidth },
    state: { rowSelection, expanded, columnVisibility },
    getRowId,
    enableRowSelection: selectable,
    onRowSelectionChange: setRowSelection,
    getRowCanExpand: () => expandable,
    onExpandedChange: setExpanded,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    manualPagination: true,
  });

  const announceSelection = useEffectEvent((selection: RowSelectionState) => {
    onSelectionChange?.(table.getRowModel().rows.filter((row) => selection[row.id]).map((row) => row.original));
  });
  useEffect(() => announceSelection(rowSelection), [rowSelection]);

  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  const firstLoad = loading && rows.length === 0;

  return (
    <div className={cn("flex min-w-0 flex-col gap-3", className)}>
      {/* Focusable, so that a keyboard can scroll a table wider or taller than its frame. */}
      <div
        ref={box}
        role="region"
        aria-label={label}
        tabIndex={0}
        className="relative overflow-auto rounded-lg border bg-card outline-none focus-visible:ring-2 focus-visible:ring-ring"
        style={{ maxHeight: bodyHeight === undefined ? undefined : Math.max(bodyHeight, MIN_BODY_HEIGHT) }}
        aria-busy={loading}
      >
        <Table aria-label={label}>
          <TableHeader>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id} className="hover:bg-transparent">
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  return (
                    <TableHead
                      key={header.id}
                      colSpan={header.colSpan}
                      className={cn("sticky top-0 z-10", header.column.id === ACTIONS_COLUMN_ID && PINNED_HEAD, alignClass(meta?.align), meta?.className)}
                      style={columnStyle(header.column.columnDef.minSize, meta?.width)}
                    >
                      {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {firstLoad ? (
              <LoadingRows columnCount={columnCount} />
            ) : rows.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={columnCount} className="border-b-0">
                  <EmptyState title={t("ui.table.empty")} hint={emptyHint} />
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row) => (
                <Fragment key={row.id}>
                  <TableRow data-state={row.getIsSelected() ? "selected" : undefined} className="group/row">
                    {row.getVisibleCells().map((cell) => {
                      const meta = cell.column.columnDef.meta;
                      return (
                        <TableCell
                          key={cell.id}
                          className={cn("whitespace-nowrap", cell.column.id === ACTIONS_COLUMN_ID && PINNED_CELL, alignClass(meta?.align), meta?.className)}
                        >
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </TableCell>
                      );
                    })}
                  </TableRow>
                  {row.getIsExpanded() && (
                    <TableRow className="bg-muted/30 hover:bg-muted/30">
                      <TableCell colSpan={columnCount} className="px-6 py-4">
                        <div className="flex flex-col gap-4">
                          <RowDetails cells={row.getAllCells().filter((cell) => hidden.has(cell.column.id))} />
                          {renderExpanded?.(row.original)}
                        </div>
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              ))
            )}
          </TableBody>
        </Table>
        {loading && !firstLoad && (
          <div role="status" className="absolute inset-0 z-20 flex items-center justify-center bg-background/50">
            <LoaderCircle className="size-6 animate-spin text-primary" aria-hidden />
            <span className="sr-only">{t("ui.table.loading")}</span>
          </div>
        )}
      </div>
      {page && (
        <DataTablePagination total={page.total} current={page.current} size={page.size} onPageChange={onPageChange} />
      )}
    </div>
  );
}

/** The actions column stays at the right edge while the rest scrolls under it. */
const PINNED_HEAD = "right-0 z-20 shadow-[inset_1px_0_0_var(--border)]";
const PINNED_CELL = "sticky right-0 z-[1] bg-card shadow-[inset_1px_0_0_var(--border)] group-hover/row:bg-[color-mix(in_oklab,var(--muted)_50%,var(--card))]";

/** TanStack's id of a column: its id, else its accessor key. */
function columnId<T>(column: ColumnDef<T, unknown>): string {
  if (column.id) return column.id;
  return "accessorKey" in column && typeof column.accessorKey === "string" ? column.accessorKey : "";
}

/** The columns that left the row for lack of width, each under its heading. */
function RowDetails<T>({ cells }: { cells: Cell<T, unknown>[] }) {
  if (cells.length === 0) return null;
  return (
    <dl className="grid gap-x-8 gap-y-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="row-details">
      {cells.map((cell) => {
        const header = cell.column.columnDef.header;
        return (
          <div key={cell.id} className="flex min-w-0 flex-col gap-1">
            <dt className="text-xs font-medium text-muted-foreground">{typeof header === "string" ? header : cell.column.id}</dt>
            <dd className="min-w-0 text-sm break-words">{flexRender(cell.column.columnDef.cell, cell.getContext())}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function columnStyle(minSize: number | undefined, width: number | undefined) {
  return width === undefined ? { minWidth: minSize } : { width, minWidth: width, maxWidth: width };
}

function alignClass(align: "left" | "center" | "right" | undefined) {
  return align === "right" ? "text-right" : align === "center" ? "text-center" : undefined;
}

function selectColumn<T>(selectAllLabel: string, selectRowLabel: string): ColumnDef<T> {
  return {
    id: "select",
    size: SELECT_COLUMN_WIDTH,
    minSize: SELECT_COLUMN_WIDTH,
    meta: { width: SELECT_COLUMN_WIDTH, align: "center" },
    header: ({ table }) => (
      <Checkbox
        checked={table.getIsAllPageRowsSelected() ? true : table.getIsSomePageRowsSelected() ? "indeterminate" : false}
        onCheckedChange={(value) => table.toggleAllPageRowsSelected(value === true)}
        disabled={table.getRowModel().rows.length === 0}
        aria-label={selectAllLabel}
        className="align-middle"
      />
    ),
    cell: ({ row }) => (
      <Checkbox
        checked={row.getIsSelected()}
        onCheckedChange={(value) => row.toggleSelected(value === true)}
        disabled={!row.getCanSelect()}
        aria-label={selectRowLabel}
        className="align-middle"
      />
    ),
  };
}

function expandColumn<T>(expandLabel: string, collapseLabel: string): ColumnDef<T> {
  return {
    id: "expand",
    size: EXPAND_COLUMN_WIDTH,
    minSize: EXPAND_COLUMN_WIDTH,
    meta: { width: EXPAND_COLUMN_WIDTH, align: "center" },
    header: () => null,
    cell: ({ row }) => (
      <button
        type="button"
        onClick={row.getToggleExpandedHandler()}
        aria-expanded={row.getIsExpanded()}
        aria-label={row.getIsExpanded() ? collapseLabel : expandLabel}
        className="inline-flex size-7 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/30 focus-visible:outline-none"
      >
        <ChevronRight className={cn("size-4 transition-transform", row.getIsExpanded() && "rotate-90")} aria-hidden />
      </button>
    ),
  };
}

function LoadingRows({ columnCount }: { columnCount: number }) {
  return Array.from({ length: 6 }, (_, index) => (
    <TableRow key={index} className="hover:bg-transparent">
      {Array.from({ length: columnCount }, (_, cell) => (
        <TableCell key={cell}>
          <Skeleton className="h-4 w-full max-w-40" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

function EmptyState({ title, hint }: { title: string; hint?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 py-14 text-center">
      <span className="flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Inbox className="size-5" aria-hidden />
      </span>
      <p className="text-sm font-medium">{title}</p>
      {hint && <div className="max-w-sm text-sm text-muted-foreground">{hint}</div>}
    </div>
  );
}
