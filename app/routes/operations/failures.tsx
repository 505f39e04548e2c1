import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { collectRows } from "~/components/export/xlsx";
import { datedFileName, saveSheet } from "~/lib/excel";
import { useFormat } from "~/components/format";
import { AlarmLevelBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { StationOptions } from "./parts";
import { useApi } from "~/lib/api";
import { failureList } from "./faults.server";

/**
 * Operation and maintenance › Operation failures: a period's alarms grouped by point and fault
 * code, repeated when they reach the code's count; the period through the lists' date-range picker
 * in the operator's time zone; filtered on the server, exported as xlsx with the same filter
 * (docs/rules/operations.md "Failures").
 */
export function loader(args: LoaderFunctionArgs) {
  return failureList(args);
}

type Failure = Awaited<ReturnType<typeof loader>>["page"]["records"][number];


export default function Failures() {
  const { page, stations, exportQuery, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, timeZone } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const api = useApi();
  const [exporting, setExporting] = useState<string>();

  const exportList = async () => {
    const rows = await collectRows(api, "/maintain-service/operation-failure", new URLSearchParams(exportQuery), (count) => setExporting(t("operations.exporting", { count })));
    await saveSheet(
      [
        [t("operations.lb.serialNumber"), t("operations.lb.station"), t("operations.fc.code"), t("operations.fc.name"), t("operations.fc.level"), t("operations.fl.occurrences"), t("operations.fl.open"), t("operations.fl.firstAt"), t("operations.fl.lastAt"), t("operations.fl.repeated")],
        ...rows.map((r) => [r.serialNumber, r.stationName, r.faultCode, r.faultName, r.level, r.occurrences, r.open, dateTime(r.firstAt), dateTime(r.lastAt), t(r.repeated ? "operations.fl.yes" : "operations.fl.no")]),
      ],
      datedFileName(t("operations.fl.file"), timeZone),
      [20, 22, 22, 24, 10, 12, 10, 20, 20, 10],
    );
    setExporting(undefined);
    toast.success(t("operations.exported", { count: rows.length }));
  };

  const columns: ColumnDef<Failure>[] = [
    { accessorKey: "serialNumber", header: t("operations.lb.serialNumber") },
    { accessorKey: "stationName", header: t("operations.lb.station"), meta: { priority: 3 } },
    { accessorKey: "faultCode", header: t("operations.fc.code"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.faultCode}</span> },
    { accessorKey: "faultName", header: t("operations.fc.name"), meta: { priority: 3 }, cell: ({ row }) => row.original.faultName ?? "—" },
    { accessorKey: "level", header: t("operations.fc.level"), meta: { priority: 2, width: 110 }, cell: ({ row }) => (row.original.level ? <AlarmLevelBadge level={row.original.level} /> : "—") },
    { accessorKey: "occurrences", header: t("operations.fl.occurrences"), meta: { width: 120 }, cell: ({ row }) => `${row.original.occurrences} / ${row.original.threshold}` },
    { accessorKey: "open", header: t("operations.fl.open"), meta: { priority: 2, width: 100 } },
    {
      accessorKey: "repeated",
      header: t("operations.fl.repeated"),
      meta: { width: 130 },
      cell: ({ row }) => <Badge variant={row.original.repeated ? "destructive" : "muted"}>{t(row.original.repeated ? "operations.fl.yes" : "operations.fl.no")}</Badge>,
    },
    { accessorKey: "lastAt", header: t("operations.fl.lastAt"), meta: { priority: 2, width: 180 }, cell: ({ row }) => dateTime(row.original.lastAt) },
    { accessorKey: "firstAt", header: t("operations.fl.firstAt"), meta: { priority: 4, width: 180 }, cell: ({ row }) => dateTime(row.original.firstAt) },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("menu.operation.operationFailure")}
        description={page.from && page.to ? t("operations.fl.period", { from: dateTime(page.from), to: dateTime(page.to) }) : undefined}
        actions={
          <Button variant="outline" onClick={exportList} disabled={exporting !== undefined}>
            <Download aria-hidden />
            {exporting ?? t("operations.export")}
          </Button>
        }
      />
      <DataTableToolbar>
        <FilterSelect name="stationId" label={t("operations.lb.station")}>
          <StationOptions stations={stations} empty={t("operations.lb.allStations")} />
        </FilterSelect>
        <SerialNumberPicker name="serialNumber" placeholder={t("operations.lb.serialNumber")} aria-label={t("operations.lb.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
        <FilterText name="faultCode" label={t("operations.fc.code")} />
        <FilterSelect
          name="repeated"
          label={t("operations.fl.repeated")}
          all={t("operations.fl.repeated")}
          options={[
            ["true", t("operations.fl.yes")],
            ["false", t("operations.fl.no")],
          ]}
        />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable
        columns={columns}
        page={page}
        onPageChange={onPageChange}
        getRowId={(r) => `${r.pointId}:${r.faultCode}`}
        emptyHint={t("operations.fl.empty")}
        label={t("menu.operation.operationFailure")}
      />
    </div>
  );
}
