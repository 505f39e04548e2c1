import type { ColumnDef } from "@tanstack/react-table";
import { Eye } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { OPERATION_TYPES } from "../../../domain/schemas/content";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { loadOperationLogs } from "./operation-log.server";

/** The operation log: every change of the operator, newest first (docs/rules/content.md "Operation log"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOperationLogs(args);
}

type LogRow = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function OperationLog() {
  const { page, facets, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();

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
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 110 },
      cell: ({ row }) => (
        <Button asChild variant="outline" size="sm">
          <Link to={`/carrierSystem/operationLog/detail/${row.original.id}`}>
            <Eye aria-hidden />
            {t("common.detail")}
            {/* The visible text starts the accessible name (WCAG 2.5.3); the row's id completes it. */}
            <span className="sr-only"> {t("content.log.openDetail", { id: row.original.id })}</span>
          </Link>
        </Button>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.carrier.operationLog")} description={t("content.log.description")} />
      <DataTableToolbar>
        <NativeSelect name="module" aria-label={t("content.log.module")} defaultValue={params.get("module") ?? ""}>
          <option value="">{t("content.log.allModules")}</option>
          {facets.modules.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect name="tableName" aria-label={t("content.log.tableName")} defaultValue={params.get("tableName") ?? ""}>
          <option value="">{t("content.log.allTables")}</option>
          {facets.tables.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect name="operationType" aria-label={t("content.log.operationType")} defaultValue={params.get("operationType") ?? ""}>
          <option value="">{t("content.log.allTypes")}</option>
          {OPERATION_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`content.log.types.${type}`)}
            </option>
          ))}
        </NativeSelect>
        <Input name="account" placeholder={t("content.log.account")} aria-label={t("content.log.account")} defaultValue={params.get("account") ?? ""} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("content.log.empty")} label={t("menu.carrier.operationLog")} />
    </div>
  );
}
