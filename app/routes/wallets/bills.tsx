import type { ColumnDef } from "@tanstack/react-table";
import { RotateCcw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { BILL_STATUSES, BILL_TYPES } from "../../../domain/schemas/bills";
import type { Bill } from "../../../workers/services/wallets/bills";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { BillStatusBadge, useBillRemark, useLevelChange } from "./bill-parts";
import { retryable, useBillRetry } from "./bill-retry";
import { retryBillAction } from "./bill-retry.server";
import { CustomerFilter, WalletExport } from "./wallet-filters";
import { loadBills } from "./wallets.server";

/**
 * Bills (`/financialManagement/billManagement`, with each bill's page) and expense records
 * (`/financialManagement/expenseRecord`, watch only): every movement of a balance, filtered and
 * exported (docs/rules/wallets.md "Bills").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadBills(args);
}

/** "Retry payment" of a failed bill's row (docs/rules/wallets.md "Bills"). */
export function action(args: ActionFunctionArgs) {
  return retryBillAction(args);
}

export const BILLS_URL = "/financialManagement/billManagement";

export default function Bills() {
  const { page, filterError, customer } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { pathname, search } = useLocation();
  const remark = useBillRemark();
  const levels = useLevelChange();
  const retry = useBillRetry();
  const { detail } = useCommonRowActions();
  const managing = pathname.startsWith(BILLS_URL);
  const title = t(managing ? "wallets.bills.title" : "wallets.bills.expenseTitle");

  const columns: ColumnDef<Bill>[] = [
    { accessorKey: "createdAt", header: t("wallets.bills.fields.createdAt"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    {
      accessorKey: "customerName",
      header: t("wallets.bills.fields.customer"),
      // A long name or e-mail address wraps rather than widen the table past a 1280 px screen.
      meta: { className: "whitespace-normal" },
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-medium">{row.original.customerName}</span>
          <span className="text-xs [overflow-wrap:anywhere] text-muted-foreground">{row.original.email}</span>
        </div>
      ),
    },
    {
      accessorKey: "type",
      header: t("wallets.bills.fields.type"),
      // Folds into the row's details first on a 1280 px screen (docs/rules/console.md "Tables").
      meta: { priority: 2 },
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span>{t(`wallets.bills.types.${row.original.type}`)}</span>
          <span className="text-xs text-muted-foreground">{levels(row.original)}</span>
        </div>
      ),
    },
    { accessorKey: "cost", header: t("wallets.bills.fields.cost"), cell: ({ row }) => <span className="tabular-nums">{money(row.original.cost)}</span> },
    { accessorKey: "balanceBefore", header: t("wallets.bills.fields.balanceBefore"), meta: { priority: 3 }, cell: ({ row }) => <span className="tabular-nums">{money(row.original.balanceBefore)}</span> },
    { accessorKey: "balanceAfter", header: t("wallets.bills.fields.balanceAfter"), meta: { priority: 2 }, cell: ({ row }) => <span className="tabular-nums">{money(row.original.balanceAfter)}</span> },
    { accessorKey: "paymentMethod", header: t("wallets.bills.fields.paymentMethod"), meta: { priority: 3 } },
    { accessorKey: "status", header: t("wallets.bills.fields.status"), cell: ({ row }) => <BillStatusBadge status={row.original.status} /> },
    { accessorKey: "remark", header: t("wallets.bills.fields.remark"), meta: { priority: 3 }, cell: ({ row }) => remark(row.original) },
    ...(managing
      ? [
          actionsColumn<Bill>(t("common.actions"), (bill) => [
            detail(`${BILLS_URL}/billDetail/${bill.id}`),
            retryable(bill) && { label: t("wallets.bills.retry"), icon: RotateCcw, onSelect: () => retry.retry(bill), disabled: retry.busy },
          ]),
        ]
      : []),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} />
      <DataTableToolbar
        actions={
          <WalletExport
            path="/finance-service/bill"
            query={search}
            file={t("wallets.bills.file")}
            headers={["id", "createdAt", "customer", "type", "cost", "balanceBefore", "balanceAfter", "memberLevelBefore", "memberLevelAfter", "paymentMethod", "status", "remark", "transactionNumber"].map((k) =>
              t(`wallets.bills.fields.${k}`),
            )}
            cells={(b) => [
              b.id,
              dateTime(b.createdAt),
              b.customerName,
              t(`wallets.bills.types.${b.type}`),
              money(b.cost),
              money(b.balanceBefore),
              money(b.balanceAfter),
              b.memberLevelBefore,
              b.memberLevelAfter,
              b.paymentMethod,
              t(`wallets.bills.statuses.${b.status}`),
              remark(b),
              b.transactionNumber,
            ]}
            widths={[10, 20, 24, 14, 14, 14, 14, 12, 12, 14, 16, 20, 30]}
          />
        }
      >
        <CustomerFilter current={customer} />
        <FilterSelect name="type" label={t("wallets.bills.fields.type")} all={t("wallets.bills.fields.type")} options={BILL_TYPES.map((type) => [type, t(`wallets.bills.types.${type}`)] as const)} />
        <FilterSelect name="status" label={t("wallets.bills.fields.status")} all={t("wallets.bills.fields.status")} options={BILL_STATUSES.map((s) => [s, t(`wallets.bills.statuses.${s}`)] as const)} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(b) => String(b.id)} emptyHint={t("wallets.bills.empty")} label={title} />
    </div>
  );
}
