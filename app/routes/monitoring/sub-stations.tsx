import type { ColumnDef } from "@tanstack/react-table";
import { Eye } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { loadSubStations } from "./sub-operator.server";

/** Sub-operator › Locations: the locations of the devices assigned to it (docs/rules/monitoring.md "Sub-operator views"). */
export function loader(args: LoaderFunctionArgs) {
  return loadSubStations(args);
}

type Station = Awaited<ReturnType<typeof loader>>["records"][number];

export default function SubStations() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();

  const columns: ColumnDef<Station>[] = [
    { accessorKey: "name", header: t("monitoring.common.name"), cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
    { accessorKey: "address", header: t("monitoring.common.address"), meta: { priority: 3 }, cell: ({ row }) => row.original.address || "—" },
    {
      id: "points",
      meta: { priority: 2 },
      header: t("monitoring.sub.pointsOfStation"),
      cell: ({ row }) => t("monitoring.sub.pointsOnline", { online: row.original.onlinePoints, total: row.original.points }),
    },
    { accessorKey: "businessHours", header: t("monitoring.sub.businessHours"), meta: { priority: 3 }, cell: ({ row }) => row.original.businessHours || "—" },
    { accessorKey: "status", header: t("monitoring.common.status"), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    actionsColumn<Station>(t("monitoring.common.actions"), (record) => [{ label: t("monitoring.common.detail"), icon: Eye, to: `/suboperators/station/${record.id}` }], 120),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.sub.equipment.station")} description={t("monitoring.sub.stationsDescription")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("monitoring.common.name")} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("monitoring.sub.stationsEmpty")} label={t("menu.sub.equipment.station")} />
    </div>
  );
}
