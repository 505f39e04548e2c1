import type { ColumnDef } from "@tanstack/react-table";
import { Eye, MoreHorizontal, Pencil, PlugZap, Trash2 } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader, RowLink } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { StatusToggle, useStationActions } from "./station-actions";
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

export default function Stations() {
  const { page, quota } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const { toggle, remove, busy } = useStationActions();

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
      {
        id: "actions",
        header: t("common.actions"),
        meta: { width: 250 },
        cell: ({ row }) => (
          <div className="flex items-center gap-1">
            <RowLink to={`${BASE}/stationDetail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
            <StatusToggle station={row.original} onChangeStatus={toggle} busy={busy} variant="ghost" size="sm" />
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon-sm" aria-label={t("common.actions")}>
                  <MoreHorizontal aria-hidden />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem asChild>
                  <Link to={`${BASE}/stationAdd?id=${row.original.id}`}>
                    <Pencil aria-hidden />
                    {t("common.edit")}
                  </Link>
                </DropdownMenuItem>
                <DropdownMenuItem asChild>
                  <Link to={`${BASE}/startPoint?stationId=${row.original.id}`}>
                    <PlugZap aria-hidden />
                    {t("stations.startCharging")}
                  </Link>
                </DropdownMenuItem>
                <DropdownMenuItem variant="destructive" onSelect={() => remove(row.original)}>
                  <Trash2 aria-hidden />
                  {t("common.delete")}
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        ),
      },
    ],
    [t, money, toggle, remove, busy],
  );

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("stations.title")} addTo={`${BASE}/stationAdd`} addLabel={t("stations.add")} />
      <ConnectorQuota quota={quota} />
      <DataTableToolbar>
        <Input name="name" placeholder={t("stations.fields.name")} aria-label={t("stations.fields.name")} defaultValue={params.get("name") ?? ""} />
        <Input name="address" placeholder={t("stations.fields.address")} aria-label={t("stations.fields.address")} defaultValue={params.get("address") ?? ""} />
        <NativeSelect name="status" aria-label={t("common.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("common.status")}</option>
          <option value="VALID">{t("common.statusValues.VALID")}</option>
          <option value="INVALID">{t("common.statusValues.INVALID")}</option>
        </NativeSelect>
        <NativeSelect name="parkingFee" aria-label={t("stations.fields.parkingFee")} defaultValue={params.get("parkingFee") ?? ""}>
          <option value="">{t("stations.fields.parkingFee")}</option>
          <option value="false">{t("stations.parking.free")}</option>
          <option value="true">{t("stations.parking.paid")}</option>
        </NativeSelect>
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
