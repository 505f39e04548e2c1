import type { ColumnDef } from "@tanstack/react-table";
import { PlugZap } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterText } from "~/components/data-table/filter-text";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { useStationActions } from "./station-actions";
import { loadStations, stationAction } from "./stations.server";
import { ConnectorQuota } from "./station-quota";

/** Equipment › Locations: highest rank first, filtered and paged on the server (docs/rules/equipment.md "Stations"). */
export function loader(args: LoaderFunctionArgs) {
  return loadStations(args);
}

export function action(args: ActionFunctionArgs) {
  return stationAction(args);
}

type Station = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

const BASE = "/equipmentManagement/station";
const STATUS_VALUES = ["VALID", "INVALID"] as const;

export default function Stations() {
  const { page, quota } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { toggleStatus, removeStation, busy } = useStationActions();
  const { detail, edit } = useCommonRowActions();

  // Memoised: TanStack renders each cell function as a component, so new functions on every
  // render would remount the cells (and close an open row menu).
  const columns = useMemo<ColumnDef<Station>[]>(
    () => [
      {
        accessorKey: "rank",
        header: t("stations.fields.rank"),
        meta: { priority: 3, width: 80, align: "right" },
        cell: ({ row }) => <span className="tabular-nums">{row.original.rank}</span>,
      },
      {
        accessorKey: "name",
        header: t("stations.fields.name"),
        meta: { width: 320 },
        cell: ({ row }) => (
          <div className="flex min-w-0 items-center gap-3">
            <div className="flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted/40">
              {row.original.logoUrl ? (
                <img src={row.original.logoUrl} alt="" className="size-9 object-contain" />
              ) : (
                <span className="text-xs font-semibold text-muted-foreground">{row.original.name.slice(0, 2).toUpperCase()}</span>
              )}
            </div>
            <div className="min-w-0">
              <Link to={`${BASE}/stationDetail/${row.original.id}`} className="block truncate font-medium hover:underline">
                {row.original.name}
              </Link>
              <p className="truncate text-xs text-muted-foreground">{row.original.address}</p>
            </div>
          </div>
        ),
      },
      { accessorKey: "status", header: t("common.status"), meta: { width: 110 }, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: "equipment",
        header: t("stations.fields.points"),
        meta: { priority: 2, width: 160 },
        cell: ({ row }) => (
          <div className="flex flex-col text-sm">
            <span className="tabular-nums">{row.original.pointCount}</span>
            <span className="text-xs text-muted-foreground tabular-nums">
              AC {row.original.connectors.ac} · DC {row.original.connectors.dc}
            </span>
          </div>
        ),
      },
      {
        accessorKey: "parkingFee",
        header: t("stations.fields.parkingFee"),
        meta: { priority: 3, width: 140 },
        cell: ({ row }) =>
          row.original.parkingFee && row.original.parkingFeeAmount !== null ? (
            <span className="tabular-nums">{money(row.original.parkingFeeAmount)}</span>
          ) : (
            <span className="text-muted-foreground">{t("stations.parking.free")}</span>
          ),
      },
      actionsColumn<Station>(t("common.actions"), (station) => [
        detail(`${BASE}/stationDetail/${station.id}`),
        { ...toggleStatus(station), disabled: busy },
        edit(`${BASE}/stationAdd?id=${station.id}`),
        { label: t("stations.startCharging"), icon: PlugZap, to: `${BASE}/startPoint?stationId=${station.id}` },
        removeStation(station),
      ]),
    ],
    [t, money, detail, edit, toggleStatus, removeStation, busy],
  );

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("stations.title")} addTo={`${BASE}/stationAdd`} addLabel={t("stations.add")} />
      <ConnectorQuota quota={quota} />
      <DataTableToolbar>
        <FilterText name="name" label={t("stations.fields.name")} />
        <FilterText name="address" label={t("stations.fields.address")} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")} options={STATUS_VALUES.map((v) => [v, t(`common.statusValues.${v}`)] as const)} />
        <FilterSelect name="parkingFee" label={t("stations.fields.parkingFee")} all={t("stations.fields.parkingFee")} options={[["false", t("stations.parking.free")], ["true", t("stations.parking.paid")]]} />
      </DataTableToolbar>
      <DataTable
        columns={columns}
        page={page}
        onPageChange={onPageChange}
        getRowId={(s) => String(s.id)}
        emptyHint={t("stations.empty")}
        label={t("stations.title")}
      />
    </div>
  );
}
