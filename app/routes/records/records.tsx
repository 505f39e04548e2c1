import type { ColumnDef } from "@tanstack/react-table";
import { Download, Eye, X } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { RecordStatusBadge } from "~/components/records/record-status";
import { IdTagCell } from "~/components/records/remote-start";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";
import { CHARGE_RECORD_STATES } from "../../../domain/schemas/records";
import { exportRecords, EXPORT_LIMIT } from "./record-export";
import { loadRecords } from "./records.server";
import { partnerOf, RoamingBadge } from "./roaming";

/**
 * Finance › Charge records, and the sub-operator's bills of its devices (docs/rules/records.md
 * "Charge records"): every session with its state and money, filtered and paged on the server,
 * exported to xlsx page by page with progress.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRecords(args);
}

type ChargeRecord = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

const SUB_CHARGE_RECORDS = "/suboperators/chargingBill/chargeRecord";

/** Columns each sub-operator entry leaves out (docs/rules/console.md "Names"). */
type RecordView = "all" | "charging" | "money";
const HIDDEN_COLUMNS: Record<RecordView, ReadonlySet<string>> = {
  all: new Set(),
  charging: new Set(["totalCost"]),
  money: new Set(["chargingTime", "energyWh"]),
};

/** Where a record's page is, in the area the list is in. */
export function useRecordPaths() {
  const { pathname } = useLocation();
  const sub = pathname.startsWith("/suboperators/");
  return {
    sub,
    /** The sub-operator's two entries differ: its session bills show money, its charge records the charging. */
    view: (!sub ? "all" : pathname.startsWith(SUB_CHARGE_RECORDS) ? "charging" : "money") as RecordView,
    list: sub ? "/suboperators/chargingBill/bill" : "/financialManagement/chargeRecord",
    detail: (id: number) => (sub ? `/suboperators/chargingBill/billDetails/${id}` : `/financialManagement/chargeRecord/chargeRecordDetail/${id}`),
  };
}

export default function ChargeRecords() {
  const { page, stations, remoteTag } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, energy, duration, money, timeZone } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const paths = useRecordPaths();
  const api = useApi();
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const cancelled = useRef(false);

  const exportList = async () => {
    cancelled.current = false;
    setProgress({ done: 0, total: Math.min(page.total, EXPORT_LIMIT) });
    try {
      const rows = await exportRecords(api, t, params, timeZone, (done, total) => setProgress({ done, total }), () => cancelled.current);
      if (rows === undefined) return;
      toast.success(rows === 0 ? t("records.list.exportEmpty") : t("records.list.exported", { count: rows }));
    } finally {
      setProgress(undefined);
    }
  };

  const columns: ColumnDef<ChargeRecord>[] = [
    {
      accessorKey: "transactionId",
      header: t("records.fields.transactionId"),
      meta: { width: 120 },
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-1.5 font-mono text-xs">
          #{row.original.id}
          {row.original.roaming && <RoamingBadge />}
        </span>
      ),
    },
    { accessorKey: "stationName", header: t("records.fields.station"), meta: { priority: 4 }, cell: ({ row }) => row.original.stationName ?? "—" },
    {
      accessorKey: "serialNumber",
      header: t("records.fields.point"),
      meta: { priority: 2 },
      cell: ({ row }) => (
        <span className="font-mono text-xs">
          {row.original.roaming ? partnerOf(row.original.roaming) : `${row.original.serialNumber} · ${row.original.connectorId}`}
        </span>
      ),
    },
    {
      accessorKey: "idTag",
      header: t("records.fields.idTag"),
      meta: { priority: 3 },
      cell: ({ row }) => <IdTagCell idTag={row.original.idTag} remoteTag={remoteTag} />,
    },
    { accessorKey: "startAt", header: t("records.fields.startAt"), meta: { priority: 2 }, cell: ({ row }) => dateTime(row.original.startAt) },
    {
      accessorKey: "chargingTime",
      header: t("records.fields.duration"),
      meta: { priority: 4, align: "right" },
      cell: ({ row }) => (row.original.chargingTime === null ? "—" : duration(row.original.chargingTime)),
    },
    {
      accessorKey: "energyWh",
      header: t("records.fields.energy"),
      meta: { priority: 3, align: "right" },
      cell: ({ row }) => <span className="tabular-nums">{row.original.energyWh === null ? "—" : energy(row.original.energyWh)}</span>,
    },
    {
      accessorKey: "totalCost",
      header: t("records.fields.totalCost"),
      meta: { priority: 2, align: "right" },
      cell: ({ row }) =>
        row.original.totalCost === null ? (
          <span className="text-muted-foreground">{t("records.fields.notPriced")}</span>
        ) : (
          <span className="tabular-nums">{money(row.original.totalCost)}</span>
        ),
    },
    { accessorKey: "status", header: t("records.fields.status"), cell: ({ row }) => <RecordStatusBadge status={row.original.status} /> },
    actionsColumn<ChargeRecord>(t("records.fields.actions"), (record) => [{ label: t("records.fields.detail"), icon: Eye, to: paths.detail(record.id) }], 120),
  ];

  const title = t(!paths.sub ? "menu.finance.chargeRecord" : paths.view === "charging" ? "menu.sub.finance.chargeRecord" : "menu.sub.finance.bill");
  const shownColumns = columns.filter((c) => !HIDDEN_COLUMNS[paths.view].has((c as { accessorKey?: string }).accessorKey ?? c.id ?? ""));
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t(!paths.sub ? "records.list.description" : paths.view === "charging" ? "names.subChargeRecords" : "records.list.subDescription")} />
      <DataTableToolbar
        actions={
          progress ? (
            <div className="flex items-center gap-2" role="status" aria-live="polite">
              <progress className="h-2 w-32 accent-primary" max={Math.max(1, progress.total)} value={progress.done} aria-label={t("records.list.export")} />
              <span className="text-sm tabular-nums">{t("records.list.exporting", { done: progress.done, total: progress.total })}</span>
              <Button variant="outline" size="sm" onClick={() => (cancelled.current = true)}>
                <X aria-hidden />
                {t("records.list.cancel")}
              </Button>
            </div>
          ) : (
            <Button variant="outline" onClick={() => void exportList()} disabled={page.total === 0}>
              <Download aria-hidden />
              {t("records.list.export")}
            </Button>
          )
        }
      >
        <FilterText name="transactionId" label={t("records.fields.transactionId")} inputMode="numeric" />
        <FilterSelect name="stationId" label={t("records.fields.station")} all={t("records.list.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <FilterText name="pointId" label={t("records.list.pointId")} inputMode="numeric" />
        <FilterText name="idTag" label={t("records.fields.idTag")} />
        <FilterText name="customerId" label={t("records.fields.customer")} inputMode="numeric" />
        <FilterSelect name="status" label={t("records.fields.status")} all={t("records.list.allStatuses")} options={CHARGE_RECORD_STATES.map((s) => [s, t(`records.status.${s}`)] as const)} />
        <DateRangePicker />
      </DataTableToolbar>
      <DataTable columns={shownColumns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("records.list.empty")} label={title} />
    </div>
  );
}
