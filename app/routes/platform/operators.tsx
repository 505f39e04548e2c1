import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { EDITIONS, VALIDITIES } from "../../../domain/schemas/platform";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader, useActionOutcome } from "~/components/page-actions";
import { toast } from "~/components/ui/toast";
import { loadOperators, operatorStatusAction } from "./operators.server";
import { dayOf, ValidityBadge } from "./platform-badges";

/** Platform › Operators: list, filters, enable and disable (docs/rules/platform.md "Operators"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOperators(args);
}

export function action(args: ActionFunctionArgs) {
  return operatorStatusAction(args);
}

type Operator = Awaited<ReturnType<typeof loader>>["records"][number];

export default function Operators() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const fetcher = useFetcher<typeof action>();
  const { detail, edit, toggle } = useCommonRowActions();
  useActionOutcome<{ status: string }>(fetcher, (data) => toast.success(t(data.status === "VALID" ? "operators.enabled" : "operators.disabled")));

  const columns: ColumnDef<Operator>[] = [
    { accessorKey: "code", header: t("operators.code"), meta: { width: 130 }, cell: ({ row }) => <span className="font-medium">{row.original.code}</span> },
    { accessorKey: "name", header: t("operators.name") },
    { accessorKey: "edition", header: t("operators.edition"), meta: { priority: 2, width: 120 }, cell: ({ row }) => t(`operators.editions.${row.original.edition}`) },
    { accessorKey: "validity", header: t("operators.validity"), meta: { width: 140 }, cell: ({ row }) => <ValidityBadge validity={row.original.validity} /> },
    { accessorKey: "validUntil", header: t("operators.validUntil"), meta: { priority: 3, width: 130 }, cell: ({ row }) => dayOf(row.original.validUntil) },
    {
      id: "authorized",
      header: t("operators.authorized"),
      meta: { priority: 3 },
      cell: ({ row }) => `${row.original.authorizedAcConnectors} / ${row.original.authorizedDcConnectors}`,
    },
    actionsColumn<Operator>(t("common.actions"), (record) => [
      detail(`/platform/operator/detail/${record.id}`),
      toggle(record.status === "VALID", () => fetcher.submit({ id: record.id, status: record.status === "VALID" ? "INVALID" : "VALID" }, { method: "post" })),
      edit(`/platform/operator/edit/${record.id}`),
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("operators.title")} addTo="/platform/operator/add" addLabel={t("operators.add")} />
      <DataTableToolbar>
        <FilterText name="code" label={t("operators.code")} />
        <FilterText name="name" label={t("operators.name")} />
        <FilterSelect name="edition" label={t("operators.edition")} all={t("operators.edition")} options={EDITIONS.map((e) => [e, t(`operators.editions.${e}`)] as const)} />
        <FilterSelect name="validity" label={t("operators.validity")} all={t("operators.validity")} options={VALIDITIES.map((v) => [v, t(`operators.validities.${v}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(o) => String(o.id)} emptyHint={t("operators.empty")} label={t("operators.title")} />
    </div>
  );
}
