import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions, useDeleteRowAction } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { loadBalancingAction, loadBalancingList } from "./load-balancing.server";

/** Equipment › Load balancing: configurations per location (docs/rules/operations.md "Load balancing"). */
export function loader(args: LoaderFunctionArgs) {
  return loadBalancingList(args);
}

export function action(args: ActionFunctionArgs) {
  return loadBalancingAction(args);
}

type Config = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function LoadBalancing() {
  const { page, stations } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, power } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { detail, edit } = useCommonRowActions();
  const deleteRow = useDeleteRowAction(t("operations.lb.deleted"));

  const columns: ColumnDef<Config>[] = [
    { accessorKey: "name", header: t("operations.lb.name") },
    { accessorKey: "stationName", header: t("operations.lb.station"), meta: { priority: 2 } },
    { accessorKey: "powerLimit", header: t("operations.lb.powerLimit"), meta: { width: 130 }, cell: ({ row }) => power(row.original.powerLimit) },
    { accessorKey: "stackLevel", header: t("operations.lb.stackLevel"), meta: { priority: 3, width: 120 }, cell: ({ row }) => t(`operations.lb.stackLevels.${row.original.stackLevel}`) },
    { accessorKey: "repeat", header: t("operations.lb.repeat"), meta: { priority: 3, width: 120 }, cell: ({ row }) => t(`operations.lb.repeats.${row.original.repeat}`) },
    { accessorKey: "pointCount", header: t("operations.lb.pointCount"), meta: { priority: 2, width: 110 } },
    { accessorKey: "status", header: t("common.status"), meta: { width: 120 }, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { accessorKey: "deliveredAt", header: t("operations.lb.deliveredAt"), meta: { priority: 3 }, cell: ({ row }) => (row.original.deliveredAt ? dateTime(row.original.deliveredAt) : "—") },
    actionsColumn<Config>(t("common.actions"), (config) => [
      detail(`/equipmentManagement/loadingBalance/detail/${config.id}`),
      edit(`/equipmentManagement/loadingBalance/edit/${config.id}`),
      deleteRow({ id: config.id, intent: "delete" }, { message: t("operations.lb.confirmDelete") }),
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("menu.equipment.loadingBalance")} addTo="/equipmentManagement/loadingBalance/add" addLabel={t("operations.lb.add")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("operations.lb.name")} />
        <FilterSelect name="stationId" label={t("operations.lb.station")} all={t("operations.lb.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")}>
          <option value="VALID">{t("operations.lb.enabled")}</option>
          <option value="INVALID">{t("operations.lb.disabled")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("operations.lb.empty")} label={t("menu.equipment.loadingBalance")} />
    </div>
  );
}
