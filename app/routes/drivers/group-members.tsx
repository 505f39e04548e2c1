import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { PAY_WAYS } from "../../../domain/schemas/drivers";
import { DataTable } from "~/components/data-table/data-table";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { loadGroupMembers } from "./groups.server";
import { GroupFilter } from "./pickers";

/** User management › Group list: every group's members, and whose balance each charges on (docs/rules/drivers.md "Customer groups"). */
export function loader(args: LoaderFunctionArgs) {
  return loadGroupMembers(args);
}

type Member = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function GroupMembers() {
  const { page, group } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money } = useFormat();
  const { onPageChange } = useUrlPaging();
  const columns: ColumnDef<Member>[] = [
    { accessorKey: "groupName", header: t("drivers.groups.fields.name"), cell: ({ row }) => <span className="font-medium">{row.original.groupName}</span> },
    { accessorKey: "groupCode", header: t("drivers.groups.fields.code"), meta: { priority: 3 }, cell: ({ row }) => <span className="font-mono">{row.original.groupCode}</span> },
    {
      accessorKey: "name",
      header: t("drivers.groups.member"),
      cell: ({ row }) => (
        <Link className="text-primary hover:underline" to={`/userManagement/userProfileManagement/customerDetail/${row.original.customerId}`}>
          {row.original.name}
          {row.original.leader && ` (${t("drivers.groups.fields.leader")})`}
        </Link>
      ),
    },
    { accessorKey: "payWay", header: t("drivers.customers.fields.payWay"), meta: { priority: 2 }, cell: ({ row }) => t(`drivers.customers.payWays.${row.original.payWay}`) },
    { accessorKey: "paysFrom", header: t("drivers.customers.paysFrom"), meta: { priority: 2 }, cell: ({ row }) => row.original.paysFrom ?? "—" },
    { accessorKey: "balance", header: t("drivers.customers.fields.balance"), meta: { priority: 3 }, cell: ({ row }) => money(row.original.balance) },
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("drivers.groups.listTitle")} />
      <DataTableToolbar>
        <GroupFilter current={group} label={t("drivers.groups.fields.name")} noneLabel={t("drivers.groups.allGroups")} />
        <FilterText name="name" label={t("drivers.groups.member")} />
        <FilterSelect name="payWay" label={t("drivers.customers.fields.payWay")} all={t("drivers.customers.fields.payWay")} options={PAY_WAYS.map((p) => [p, t(`drivers.customers.payWays.${p}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(m) => String(m.customerId)} emptyHint={t("drivers.groups.membersEmpty")} label={t("drivers.groups.listTitle")} />
    </div>
  );
}
