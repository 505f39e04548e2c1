import type { ColumnDef } from "@tanstack/react-table";
import { Eye, Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader, RowLink, useActionOutcome } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { DeleteRowButton, StationOptions } from "./parts";
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
  const [params] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("operations.lb.deleted")));

  const columns: ColumnDef<Config>[] = [
    { accessorKey: "name", header: t("operations.lb.name") },
    { accessorKey: "stationName", header: t("operations.lb.station"), meta: { priority: 2 } },
    { accessorKey: "powerLimit", header: t("operations.lb.powerLimit"), meta: { width: 130 }, cell: ({ row }) => power(row.original.powerLimit) },
    { accessorKey: "stackLevel", header: t("operations.lb.stackLevel"), meta: { priority: 3, width: 120 }, cell: ({ row }) => t(`operations.lb.stackLevels.${row.original.stackLevel}`) },
    { accessorKey: "repeat", header: t("operations.lb.repeat"), meta: { priority: 3, width: 120 }, cell: ({ row }) => t(`operations.lb.repeats.${row.original.repeat}`) },
    { accessorKey: "pointCount", header: t("operations.lb.pointCount"), meta: { priority: 2, width: 110 } },
    { accessorKey: "status", header: t("common.status"), meta: { width: 120 }, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { accessorKey: "deliveredAt", header: t("operations.lb.deliveredAt"), meta: { priority: 3 }, cell: ({ row }) => (row.original.deliveredAt ? dateTime(row.original.deliveredAt) : "—") },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 300 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <RowLink to={`/equipmentManagement/loadingBalance/detail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
          <RowLink to={`/equipmentManagement/loadingBalance/edit/${row.original.id}`} icon={Pencil} label={t("common.edit")} />
          <DeleteRowButton message={t("operations.lb.confirmDelete")} onConfirmed={() => fetcher.submit({ id: row.original.id, intent: "delete" }, { method: "post" })} />
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("menu.equipment.loadingBalance")} addTo="/equipmentManagement/loadingBalance/add" addLabel={t("operations.lb.add")} />
      <DataTableToolbar>
        <Input name="name" placeholder={t("operations.lb.name")} aria-label={t("operations.lb.name")} defaultValue={params.get("name") ?? ""} />
        <NativeSelect name="stationId" aria-label={t("operations.lb.station")} defaultValue={params.get("stationId") ?? ""}>
          <StationOptions stations={stations} empty={t("operations.lb.allStations")} />
        </NativeSelect>
        <NativeSelect name="status" aria-label={t("common.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("common.status")}</option>
          <option value="VALID">{t("operations.lb.enabled")}</option>
          <option value="INVALID">{t("operations.lb.disabled")}</option>
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("operations.lb.empty")} label={t("menu.equipment.loadingBalance")} />
    </div>
  );
}
