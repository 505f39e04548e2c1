import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { OPERATION_TYPES } from "../../../domain/schemas/content";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { loadOperationLogs } from "./operation-log.server";

/** The operation log: every change of the operator, newest first (docs/rules/content.md "Operation log"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOperationLogs(args);
}

type LogRow = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function OperationLog() {
  const { page, facets, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { detail } = useCommonRowActions();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();

  const columns: ColumnDef<LogRow>[] = [
    { accessorKey: "createdAt", header: t("content.log.time"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { accessorKey: "account", header: t("content.log.account"), cell: ({ row }) => row.original.account ?? "—" },
    { accessorKey: "operationType", header: t("content.log.operationType"), meta: { width: 120 }, cell: ({ row }) => t(`content.log.types.${row.original.operationType}`) },
    { accessorKey: "module", header: t("content.log.module"), meta: { priority: 2 } },
    { accessorKey: "tableName", header: t("content.log.tableName"), meta: { priority: 2 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.tableName}</span> },
    {
      accessorKey: "url",
      header: t("content.log.url"),
      meta: { priority: 3 },
      cell: ({ row }) => (
        <span className="block max-w-72 truncate font-mono text-xs" title={row.original.url ?? ""}>
          {row.original.url ?? "—"}
        </span>
      ),
    },
    { accessorKey: "ip", header: t("content.log.ip"), meta: { priority: 4 }, cell: ({ row }) => row.original.ip ?? "—" },
    actionsColumn<LogRow>(t("common.actions"), (entry) => [{ ...detail(`/carrierSystem/operationLog/detail/${entry.id}`), name: `${t("common.detail")} ${t("content.log.openDetail", { id: entry.id })}` }], 110),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.carrier.operationLog")} description={t("content.log.description")} />
      <DataTableToolbar>
        <FilterSelect name="module" label={t("content.log.module")} all={t("content.log.allModules")} options={facets.modules.map((m) => [m, m] as const)} />
        <FilterSelect name="tableName" label={t("content.log.tableName")} all={t("content.log.allTables")} options={facets.tables.map((m) => [m, m] as const)} />
        <FilterSelect name="operationType" label={t("content.log.operationType")} all={t("content.log.allTypes")} options={OPERATION_TYPES.map((type) => [type, t(`content.log.types.${type}`)] as const)} />
        <FilterText name="account" label={t("content.log.account")} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("content.log.empty")} label={t("menu.carrier.operationLog")} />
    </div>
  );
}
