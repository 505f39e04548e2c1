import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions, useDeleteRowAction } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader } from "~/components/page-actions";
import { deleteGroupAction, loadGroups } from "./groups.server";

/** User management › Customer groups (docs/rules/drivers.md "Customer groups"). */
export function loader(args: LoaderFunctionArgs) {
  return loadGroups(args);
}

export function action(args: ActionFunctionArgs) {
  return deleteGroupAction(args);
}

type Group = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Groups() {
  const { page } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const { detail, edit } = useCommonRowActions();
  const deleteRow = useDeleteRowAction(t("drivers.groups.deleted"));

  const columns: ColumnDef<Group>[] = [
    { accessorKey: "name", header: t("drivers.groups.fields.name"), cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
    { accessorKey: "code", header: t("drivers.groups.fields.code"), cell: ({ row }) => <span className="font-mono">{row.original.code}</span> },
    { accessorKey: "leaderName", header: t("drivers.groups.fields.leader"), meta: { priority: 2 }, cell: ({ row }) => row.original.leaderName ?? "—" },
    { accessorKey: "memberCount", header: t("drivers.groups.fields.memberCount"), meta: { priority: 2 } },
    { accessorKey: "deductionEmail", header: t("drivers.groups.fields.deductionEmail"), meta: { priority: 3 }, cell: ({ row }) => row.original.deductionEmail ?? "—" },
    actionsColumn<Group>(
      t("common.actions"),
      (group) => [
        detail(`/userManagement/userGroupManagement/groupDetail/${group.id}`),
        edit(`/userManagement/userGroupManagement/groupEdit/${group.id}`),
        deleteRow({ id: group.id }, { message: t("drivers.groups.confirmDelete", { name: group.name }) }),
      ],
      260,
    ),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("drivers.groups.title")} addTo="/userManagement/userGroupManagement/group" addLabel={t("drivers.groups.add")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("drivers.groups.fields.name")} />
        <FilterText name="code" label={t("drivers.groups.fields.code")} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(g) => String(g.id)} emptyHint={t("drivers.groups.empty")} label={t("drivers.groups.title")} />
    </div>
  );
}
