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
import { Badge } from "~/components/ui/badge";
import { StatusBadge } from "~/components/status-badge";
import { deleteRoleAction, loadRoles } from "./roles.server";

/** Carrier system › Roles: list with server-side filters and paging (docs/rules/access.md "Roles and accounts"). */
export function loader(args: LoaderFunctionArgs) {
  return loadRoles(args);
}

export function action(args: ActionFunctionArgs) {
  return deleteRoleAction(args);
}

type Role = Awaited<ReturnType<typeof loader>>["records"][number];

export default function Roles() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { detail, edit } = useCommonRowActions();
  const deleteRow = useDeleteRowAction(t("roles.deleted"));

  const columns: ColumnDef<Role>[] = [
    { accessorKey: "name", header: t("roles.name") },
    { accessorKey: "code", header: t("roles.code"), meta: { priority: 2 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.code}</span> },
    {
      accessorKey: "type",
      meta: { priority: 2 },
      header: t("roles.type"),
      cell: ({ row }) => (
        <Badge variant={row.original.type === "SUPER" ? "default" : row.original.type === "MAINTAINER" ? "info" : "secondary"}>
          {t(`roles.types.${row.original.type}`)}
        </Badge>
      ),
    },
    {
      id: "menus",
      meta: { priority: 3 },
      header: t("roles.menus"),
      cell: ({ row }) =>
        row.original.type === "SUPER" ? t("common.all") : t("roles.menuCount", { count: row.original.menuCodes.length }),
    },
    {
      accessorKey: "status",
      header: t("common.status"),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    { accessorKey: "createdAt", header: t("common.createdAt"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    actionsColumn<Role>(
      t("common.actions"),
      (role) => [
        detail(`/carrierSystem/role/detail/${role.id}`),
        edit(`/carrierSystem/role/edit/${role.id}`),
        deleteRow({ id: role.id }),
      ],
      260,
    ),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("roles.title")} addTo="/carrierSystem/role/add" addLabel={t("roles.add")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("roles.name")} />
        <FilterSelect name="type" label={t("roles.type")} all={t("roles.type")} options={(["SUPER", "NORMAL", "MAINTAINER"] as const).map((type) => [type, t(`roles.types.${type}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("roles.empty")} label={t("roles.title")} />
    </div>
  );
}
