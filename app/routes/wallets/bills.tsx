import type { ColumnDef } from "@tanstack/react-table";
import { Eye } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { BILL_STATUSES, BILL_TYPES } from "../../../domain/schemas/bills";
import type { Bill } from "../../../workers/services/wallets/bills";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { RowLink } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { NativeSelect } from "~/components/ui/native-select";
import { BillStatusBadge, useBillRemark, useLevelChange } from "./bill-parts";
import { RetryBillButton, useBillRetry } from "./bill-retry";
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
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const remark = useBillRemark();
  const levels = useLevelChange();
  const retry = useBillRetry();
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
          {
            id: "actions",
            header: t("common.actions"),
            meta: { width: 150 },
            cell: ({ row }) => (
              <div className="flex items-center gap-1">
                <RowLink to={`${BILLS_URL}/billDetail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
                <RetryBillButton bill={row.original} retry={retry} compact />
              </div>
            ),
          } satisfies ColumnDef<Bill>,
        ]
      : []),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} />
      <DataTableToolbar
        actions={
          <WalletExport<Bill>
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
        <NativeSelect name="type" aria-label={t("wallets.bills.fields.type")} defaultValue={params.get("type") ?? ""}>
          <option value="">{t("wallets.bills.fields.type")}</option>
          {BILL_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`wallets.bills.types.${type}`)}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect name="status" aria-label={t("wallets.bills.fields.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("wallets.bills.fields.status")}</option>
          {BILL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`wallets.bills.statuses.${s}`)}
            </option>
          ))}
        </NativeSelect>
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(b) => String(b.id)} emptyHint={t("wallets.bills.empty")} label={title} />
    </div>
  );
}
