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
import { StatusToggle } from "~/components/status-toggle";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
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
  const [params] = useSearchParams();
  const fetcher = useFetcher<typeof action>();

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
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 320 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <RowLink to={`/carrierSystem/carrierAcount/detail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
          <RowLink to={`/carrierSystem/carrierAcount/edit/${row.original.id}`} icon={Pencil} label={t("common.edit")} />
          <StatusToggle id={row.original.id} status={row.original.status} fetcher={fetcher} />
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("accounts.title")} addTo="/carrierSystem/carrierAcount/add" addLabel={t("accounts.add")} />
      <DataTableToolbar>
        <Input name="username" placeholder={t("accounts.username")} aria-label={t("accounts.username")} defaultValue={params.get("username") ?? ""} />
        <NativeSelect name="roleId" aria-label={t("accounts.role")} defaultValue={params.get("roleId") ?? ""}>
          <option value="">{t("accounts.role")}</option>
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.name}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect name="status" aria-label={t("common.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("common.status")}</option>
          <option value="VALID">{t("common.statusValues.VALID")}</option>
          <option value="INVALID">{t("common.statusValues.INVALID")}</option>
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(a) => String(a.id)} emptyHint={t("accounts.empty")} label={t("accounts.title")} />
    </div>
  );
}
