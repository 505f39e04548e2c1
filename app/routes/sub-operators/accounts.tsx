import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader, useActionOutcome } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
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
  const fetcher = useFetcher<typeof action>();
  const { detail, edit, toggle } = useCommonRowActions();
  useActionOutcome<{ status: string }>(fetcher, (data) => toast.success(t(data.status === "VALID" ? "subOperators.enabled" : "subOperators.disabled")));

  const columns: ColumnDef<SubOperator>[] = [
    { accessorKey: "code", header: t("operators.code"), meta: { width: 140 }, cell: ({ row }) => <span className="font-medium">{row.original.code}</span> },
    { accessorKey: "name", header: t("operators.name") },
    { accessorKey: "contactName", header: t("operators.contactName"), meta: { priority: 3 }, cell: ({ row }) => row.original.contactName ?? "—" },
    { accessorKey: "status", header: t("common.status"), meta: { width: 120 }, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { accessorKey: "validity", header: t("operators.validity"), meta: { priority: 2, width: 140 }, cell: ({ row }) => <ValidityBadge validity={row.original.validity} /> },
    { accessorKey: "validUntil", header: t("operators.validUntil"), meta: { priority: 3, width: 130 }, cell: ({ row }) => dayOf(row.original.validUntil) },
    actionsColumn<SubOperator>(t("common.actions"), (record) => [
      detail(`/SubOperator/operatorAcount/accountDetail/${record.id}`),
      toggle(record.status === "VALID", () => fetcher.submit({ id: record.id, status: record.status === "VALID" ? "INVALID" : "VALID" }, { method: "post" })),
      edit(`/SubOperator/operatorAcount/accountEdit/${record.id}`),
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("subOperators.title")} addTo="/SubOperator/operatorAcount/accountAdd" addLabel={t("subOperators.add")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("operators.name")} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")}>
          <option value="VALID">{t("common.statusValues.VALID")}</option>
          <option value="INVALID">{t("common.statusValues.INVALID")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(s) => String(s.id)} emptyHint={t("subOperators.empty")} label={t("subOperators.title")} />
    </div>
  );
}
