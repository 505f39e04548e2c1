import type { ColumnDef } from "@tanstack/react-table";
import { Eye, Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader, RowLink, useActionOutcome } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { StatusToggle } from "~/components/status-toggle";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { dayOf, ValidityBadge } from "../platform/platform-badges";
import { loadSubOperators, subOperatorStatusAction } from "./sub-operators.server";

/** Sub-operator management › Accounts: list, filters, enable and disable (docs/rules/platform.md "Sub-operators"). */
export function loader(args: LoaderFunctionArgs) {
  return loadSubOperators(args);
}

export function action(args: ActionFunctionArgs) {
  return subOperatorStatusAction(args);
}

type SubOperator = Awaited<ReturnType<typeof loader>>["records"][number];

export default function SubOperatorAccounts() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome<{ status: string }>(fetcher, (data) => toast.success(t(data.status === "VALID" ? "subOperators.enabled" : "subOperators.disabled")));

  const columns: ColumnDef<SubOperator>[] = [
    { accessorKey: "code", header: t("operators.code"), meta: { width: 140 }, cell: ({ row }) => <span className="font-medium">{row.original.code}</span> },
    { accessorKey: "name", header: t("operators.name") },
    { accessorKey: "contactName", header: t("operators.contactName"), meta: { priority: 3 }, cell: ({ row }) => row.original.contactName ?? "—" },
    { accessorKey: "status", header: t("common.status"), meta: { width: 120 }, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { accessorKey: "validity", header: t("operators.validity"), meta: { priority: 2, width: 140 }, cell: ({ row }) => <ValidityBadge validity={row.original.validity} /> },
    { accessorKey: "validUntil", header: t("operators.validUntil"), meta: { priority: 3, width: 130 }, cell: ({ row }) => dayOf(row.original.validUntil) },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 320 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <RowLink to={`/SubOperator/operatorAcount/accountDetail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
          <RowLink to={`/SubOperator/operatorAcount/accountEdit/${row.original.id}`} icon={Pencil} label={t("common.edit")} />
          <StatusToggle id={row.original.id} status={row.original.status} fetcher={fetcher} />
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("subOperators.title")} addTo="/SubOperator/operatorAcount/accountAdd" addLabel={t("subOperators.add")} />
      <DataTableToolbar>
        <Input name="name" placeholder={t("operators.name")} aria-label={t("operators.name")} defaultValue={params.get("name") ?? ""} />
        <NativeSelect name="status" aria-label={t("common.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("common.status")}</option>
          <option value="VALID">{t("common.statusValues.VALID")}</option>
          <option value="INVALID">{t("common.statusValues.INVALID")}</option>
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(s) => String(s.id)} emptyHint={t("subOperators.empty")} label={t("subOperators.title")} />
    </div>
  );
}
