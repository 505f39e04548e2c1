import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/components/format";
import { RecordStatusBadge } from "~/components/records/record-status";
import type { ChargeRecord } from "./types";
import { RefreshButton, TabTable } from "./tab-table";
import { useApiPage } from "./use-api-page";

/** The charge record tab: the point's transactions, newest first, paged on the server (docs/rules/equipment.md "Point pages"). */
export function RecordsTab({ pointId }: { pointId: number }) {
  const { t } = useTranslation();
  const { dateTime, energy, duration, money } = useFormat();
  const list = useApiPage("/station-service/charge/record", { query: { pointId } });

  const columns: ColumnDef<ChargeRecord>[] = [
    { accessorKey: "transactionId", header: t("points.records.transactionId"), meta: { width: 110 }, cell: ({ row }) => <span className="font-mono">{row.original.transactionId}</span> },
    { accessorKey: "connectorId", header: t("points.connector"), meta: { priority: 2, width: 100, align: "center" } },
    { accessorKey: "idTag", header: t("points.records.idTag"), meta: { priority: 3 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.idTag}</span> },
    { accessorKey: "startAt", header: t("points.records.startAt"), meta: { priority: 2 }, cell: ({ row }) => dateTime(row.original.startAt) },
    { accessorKey: "stopAt", header: t("points.records.stopAt"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.stopAt) || "—" },
    {
      accessorKey: "energyWh",
      header: t("points.records.energy"),
      meta: { priority: 2, align: "right" },
      cell: ({ row }) => <span className="tabular-nums">{row.original.energyWh === null ? "—" : energy(row.original.energyWh)}</span>,
    },
    {
      accessorKey: "chargingTime",
      header: t("points.records.duration"),
      meta: { priority: 3, align: "right" },
      cell: ({ row }) => (row.original.chargingTime === null ? "—" : duration(row.original.chargingTime)),
    },
    {
      accessorKey: "status",
      header: t("common.status"),
      cell: ({ row }) => <RecordStatusBadge status={row.original.status} />,
    },
    { accessorKey: "stopReason", header: t("points.records.stopReason"), meta: { priority: 4 }, cell: ({ row }) => row.original.stopReason ?? row.original.abnormalReason ?? "—" },
    {
      id: "cost",
      header: t("points.records.cost"),
      meta: { priority: 4, align: "right" },
      cell: ({ row }) =>
        row.original.totalCost === null ? <span className="text-muted-foreground">{t("points.report.notPriced")}</span> : <span className="tabular-nums">{money(row.original.totalCost)}</span>,
    },
  ];

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <RefreshButton list={list} />
      </div>
      <TabTable list={list} columns={columns} emptyHint={t("points.records.empty")} label={t("points.tabs.records")} heightOffset={420} />
    </div>
  );
}
