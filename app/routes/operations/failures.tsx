import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { collectRows } from "~/components/export/xlsx";
import { saveSheet } from "~/lib/excel";
import { useFormat } from "~/components/format";
import { AlarmLevelBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { StationOptions } from "./parts";
import { useApi } from "~/lib/api";
import { failureList } from "./faults.server";
import { instantOf } from "~/lib/datetime-local";

/**
 * Operation and maintenance › Operation failures: a period's alarms grouped by point and fault
 * code, repeated when they reach the code's count; filtered on the server, exported as xlsx
 * (docs/rules/operations.md "Failures").
 */
export function loader(args: LoaderFunctionArgs) {
  return failureList(args);
}

type Failure = Awaited<ReturnType<typeof loader>>["page"]["records"][number];


export default function Failures() {
  const { page, stations } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params, setParams] = useSearchParams();
  const api = useApi();
  const [exporting, setExporting] = useState<string>();
  const [range, setRange] = useState({ from: "", to: "" });

  const exportList = async () => {
    const rows = await collectRows<Failure>(api, "/maintain-service/operation-failure", params, (count) => setExporting(t("operations.exporting", { count })));
    await saveSheet(
      [
        [t("operations.lb.serialNumber"), t("operations.lb.station"), t("operations.fc.code"), t("operations.fc.name"), t("operations.fc.level"), t("operations.fl.occurrences"), t("operations.fl.open"), t("operations.fl.firstAt"), t("operations.fl.lastAt"), t("operations.fl.repeated")],
        ...rows.map((r) => [r.serialNumber, r.stationName, r.faultCode, r.faultName, r.level, r.occurrences, r.open, dateTime(r.firstAt), dateTime(r.lastAt), t(r.repeated ? "operations.fl.yes" : "operations.fl.no")]),
      ],
      `${t("operations.fl.file")}-${new Date().toISOString().slice(0, 10)}.xlsx`,
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
        description={t("operations.fl.period", { from: dateTime(page.from), to: dateTime(page.to) })}
        actions={
          <Button variant="outline" onClick={exportList} disabled={exporting !== undefined}>
            <Download aria-hidden />
            {exporting ?? t("operations.export")}
          </Button>
        }
      />
      <DataTableToolbar>
        <NativeSelect name="stationId" aria-label={t("operations.lb.station")} defaultValue={params.get("stationId") ?? ""}>
          <StationOptions stations={stations} empty={t("operations.lb.allStations")} />
        </NativeSelect>
        <Input name="serialNumber" placeholder={t("operations.lb.serialNumber")} aria-label={t("operations.lb.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
        <Input name="faultCode" placeholder={t("operations.fc.code")} aria-label={t("operations.fc.code")} defaultValue={params.get("faultCode") ?? ""} />
        <NativeSelect name="repeated" aria-label={t("operations.fl.repeated")} defaultValue={params.get("repeated") ?? ""}>
          <option value="">{t("operations.fl.repeated")}</option>
          <option value="true">{t("operations.fl.yes")}</option>
          <option value="false">{t("operations.fl.no")}</option>
        </NativeSelect>
      </DataTableToolbar>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const next = new URLSearchParams(params);
          next.delete("current");
          for (const key of ["from", "to"] as const) {
            if (range[key]) next.set(key, instantOf(range[key])!);
            else next.delete(key);
          }
          setParams(next);
        }}
      >
        <Input type="datetime-local" aria-label={t("operations.fl.from")} className="w-auto" value={range.from} onChange={(e) => setRange({ ...range, from: e.target.value })} />
        <Input type="datetime-local" aria-label={t("operations.fl.to")} className="w-auto" value={range.to} onChange={(e) => setRange({ ...range, to: e.target.value })} />
        <Button type="submit" variant="outline">
          {t("operations.fl.applyPeriod")}
        </Button>
      </form>
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
