import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { CHARGEABLE_TYPES } from "../../../domain/schemas/driver-services";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions, useDeleteRowAction } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { orDash, useFormat } from "~/components/format";
import { ListHeader } from "~/components/page-actions";
import { PushStatus } from "./push-status";
import { deleteOfflineListAction, loadOfflineLists } from "./offline-lists.server";

/** User management › Offline lists (docs/rules/driver-services.md "Offline lists"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOfflineLists(args);
}

export function action(args: ActionFunctionArgs) {
  return deleteOfflineListAction(args);
}

type OfflineList = Awaited<ReturnType<typeof loader>>["records"][number];

export default function OfflineLists() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { detail, edit } = useCommonRowActions();
  const deleteRow = useDeleteRowAction(t("driverServices.lists.deleted"));

  const columns: ColumnDef<OfflineList>[] = [
    { accessorKey: "name", header: t("driverServices.lists.name") },
    { accessorKey: "chargeableType", header: t("driverServices.lists.chargeableType"), cell: ({ row }) => t(`driverServices.lists.types.${row.original.chargeableType}`) },
    { accessorKey: "userCount", header: t("driverServices.lists.userCount"), meta: { priority: 2 } },
    { accessorKey: "pushedStationCount", header: t("driverServices.lists.stationCount"), meta: { priority: 3 } },
    { accessorKey: "pushedPointCount", header: t("driverServices.lists.pointCount"), meta: { priority: 2 } },
    { accessorKey: "lastPushAt", header: t("driverServices.lists.lastPushAt"), meta: { priority: 3 }, cell: ({ row }) => orDash(row.original.lastPushAt, dateTime) },
    { accessorKey: "sendStatus", header: t("driverServices.lists.sendStatus"), cell: ({ row }) => <PushStatus status={row.original.sendStatus} /> },
    { accessorKey: "effectiveTime", header: t("driverServices.lists.effectiveTime"), meta: { priority: 3 }, cell: ({ row }) => orDash(row.original.effectiveTime, dateTime) },
    actionsColumn<OfflineList>(
      t("common.actions"),
      (list) => [
        detail(`/userManagement/offlineUserList/detail/${list.id}`),
        edit(`/userManagement/offlineUserList/edit/${list.id}`),
        deleteRow({ id: list.id }),
      ],
      260,
    ),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("driverServices.lists.title")} addTo="/userManagement/offlineUserList/add" addLabel={t("driverServices.lists.add")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("driverServices.lists.name")} />
        <FilterSelect name="chargeableType" label={t("driverServices.lists.chargeableType")} all={t("driverServices.lists.chargeableType")} options={CHARGEABLE_TYPES.map((type) => [type, t(`driverServices.lists.types.${type}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("driverServices.lists.empty")} label={t("driverServices.lists.title")} />
    </div>
  );
}
