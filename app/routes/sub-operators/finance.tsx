import type { ColumnDef } from "@tanstack/react-table";
import { ArrowLeft, ChartColumn } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { HeaderLink } from "~/components/page-actions";
import { StatementView } from "../statements/statement-view";
import { loadFinance } from "./sub-operators.server";

/**
 * Sub-operator management › Finance: each sub-operator's billed sessions, energy and revenue in a
 * period, and one sub-operator's statement on the devices assigned to it (docs/rules/statements.md
 * "Sub-operators").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadFinance(args);
}

type Data = Awaited<ReturnType<typeof loader>>;
type Row = NonNullable<Data["list"]>["records"][number];

const PATH = "/SubOperator/operatorFinance";

export default function SubOperatorFinance() {
  const { list, statement } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (statement) {
    const sub = statement.statement?.subOperator;
    return (
      <StatementView
        page={statement}
        subOperatorId={Number(statement.query.subOperatorId)}
        title={sub ? t("statements.subOperatorTitle", { name: `${sub.code} ${sub.name}` }) : t("subFinance.title")}
        actions={
          <HeaderLink to={PATH} icon={ArrowLeft} label={t("subFinance.title")} variant="outline" />
        }
      />
    );
  }
  return <FinanceList page={list!} />;
}

function FinanceList({ page }: { page: NonNullable<Data["list"]> }) {
  const { t } = useTranslation();
  const { energy, money, number } = useFormat();
  const { onPageChange } = useUrlPaging();
  const columns: ColumnDef<Row>[] = [
    { accessorKey: "code", header: t("operators.code"), meta: { width: 140 }, cell: ({ row }) => <span className="font-medium">{row.original.code}</span> },
    { accessorKey: "name", header: t("operators.name") },
    { accessorKey: "status", header: t("common.status"), meta: { priority: 2, width: 120 }, cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { accessorKey: "sessions", header: t("subFinance.sessions"), meta: { width: 120 }, cell: ({ row }) => number(row.original.sessions, 0) },
    { accessorKey: "energyWh", header: t("subFinance.energy"), meta: { width: 150 }, cell: ({ row }) => energy(row.original.energyWh) },
    { accessorKey: "electricCost", header: t("statements.columns.electricity"), meta: { priority: 3, width: 140 }, cell: ({ row }) => money(row.original.electricCost) },
    { accessorKey: "serviceCost", header: t("statements.columns.service"), meta: { priority: 3, width: 140 }, cell: ({ row }) => money(row.original.serviceCost) },
    {
      accessorKey: "revenue",
      header: t("subFinance.revenue"),
      meta: { width: 150 },
      cell: ({ row }) => (row.original.revenue === null ? t("subFinance.notPriced") : money(row.original.revenue)),
    },
    actionsColumn<Row>(t("records.fields.actions"), (record) => [{ label: t("statements.openStatement"), icon: ChartColumn, to: `${PATH}?subOperatorId=${record.id}` }], 120),
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("subFinance.title")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("operators.name")} />
        <DateRangePicker daysOnly />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("subFinance.empty")} label={t("subFinance.title")} />
    </div>
  );
}
