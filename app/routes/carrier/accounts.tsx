import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader, useActionOutcome } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { toast } from "~/components/ui/toast";
import { loadAccounts, setAccountStatusAction } from "./accounts.server";

/** Carrier system › Accounts: list, filters, enable and disable (docs/rules/access.md "Roles and accounts"). */
export function loader(args: LoaderFunctionArgs) {
  return loadAccounts(args);
}

export function action(args: ActionFunctionArgs) {
  return setAccountStatusAction(args);
}

type Account = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Accounts() {
  const { page, roles } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const fetcher = useFetcher<typeof action>();
  const { detail, edit, toggle } = useCommonRowActions();

  useActionOutcome<{ status: string }>(fetcher, (data) =>
    toast.success(t(data.status === "VALID" ? "accounts.enabled" : "accounts.disabled")),
  );

  const columns: ColumnDef<Account>[] = [
    { accessorKey: "username", header: t("accounts.username"), cell: ({ row }) => <span className="font-medium">{row.original.username}</span> },
    { accessorKey: "name", meta: { priority: 2 }, header: t("accounts.name") },
    { accessorKey: "roleName", header: t("accounts.role"), meta: { priority: 2 }, cell: ({ row }) => row.original.roleName ?? "—" },
    { accessorKey: "email", header: t("accounts.email"), meta: { priority: 3 }, cell: ({ row }) => row.original.email ?? "—" },
    {
      accessorKey: "status",
      header: t("common.status"),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    { accessorKey: "lastLoginAt", header: t("accounts.lastLogin"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.lastLoginAt) || "—" },
    actionsColumn<Account>(t("common.actions"), (record) => [
      detail(`/carrierSystem/carrierAcount/detail/${record.id}`),
      toggle(record.status === "VALID", () => fetcher.submit({ id: record.id, status: record.status === "VALID" ? "INVALID" : "VALID" }, { method: "post" })),
      edit(`/carrierSystem/carrierAcount/edit/${record.id}`),
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("accounts.title")} addTo="/carrierSystem/carrierAcount/add" addLabel={t("accounts.add")} />
      <DataTableToolbar>
        <FilterText name="username" label={t("accounts.username")} />
        <FilterSelect name="roleId" label={t("accounts.role")} all={t("accounts.role")} options={roles.map((role) => [role.id, role.name] as const)} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")}>
          <option value="VALID">{t("common.statusValues.VALID")}</option>
          <option value="INVALID">{t("common.statusValues.INVALID")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(a) => String(a.id)} emptyHint={t("accounts.empty")} label={t("accounts.title")} />
    </div>
  );
}
