import type { ColumnDef } from "@tanstack/react-table";
import { Wallet } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { RECHARGE_WAYS } from "../../../domain/schemas/wallets";
import type { Recharge } from "../../../workers/services/wallets/recharges";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { RechargeDialog } from "./recharge-dialog";
import { CustomerFilter, WalletExport } from "./wallet-filters";
import { loadRecharges, rechargeAction } from "./wallets.server";

/** User recharge (docs/rules/wallets.md "Recharges"): the recharge records, and top-ups and deductions by hand. */
export function loader(args: LoaderFunctionArgs) {
  return loadRecharges(args);
}

export function action(args: ActionFunctionArgs) {
  return rechargeAction(args);
}

export default function UserRecharge() {
  const { page, filterError, customer, minimumRecharge, rechargePresets } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { search } = useLocation();
  const [recharging, setRecharging] = useState(false);
  const signed = (minor: number) => (minor > 0 ? `+${money(minor)}` : money(minor));

  const columns: ColumnDef<Recharge>[] = [
    { accessorKey: "createdAt", header: t("wallets.recharge.fields.createdAt"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { accessorKey: "transactionCode", header: t("wallets.recharge.fields.transactionCode"), meta: { priority: 3 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.transactionCode}</span> },
    {
      accessorKey: "customerName",
      header: t("wallets.recharge.fields.customer"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-medium">{row.original.customerName}</span>
          <span className="text-xs text-muted-foreground">{row.original.email}</span>
        </div>
      ),
    },
    { accessorKey: "way", header: t("wallets.recharge.fields.way"), meta: { priority: 2 }, cell: ({ row }) => t(`wallets.recharge.ways.${row.original.way}`) },
    { accessorKey: "amount", header: t("wallets.recharge.fields.amount"), cell: ({ row }) => <span className="tabular-nums">{signed(row.original.amount)}</span> },
    { accessorKey: "balanceBefore", header: t("wallets.recharge.fields.balanceBefore"), meta: { priority: 3 }, cell: ({ row }) => <span className="tabular-nums">{money(row.original.balanceBefore)}</span> },
    { accessorKey: "balanceAfter", header: t("wallets.recharge.fields.balanceAfter"), meta: { priority: 2 }, cell: ({ row }) => <span className="tabular-nums">{money(row.original.balanceAfter)}</span> },
    { accessorKey: "thirdPartyCode", header: t("wallets.recharge.fields.thirdPartyCode"), meta: { priority: 3 }, cell: ({ row }) => row.original.thirdPartyCode ?? "—" },
    { accessorKey: "administrator", header: t("wallets.recharge.fields.administrator"), meta: { priority: 3 }, cell: ({ row }) => row.original.administrator ?? "—" },
    { accessorKey: "remark", header: t("wallets.recharge.remark"), meta: { priority: 3 }, cell: ({ row }) => row.original.remark ?? "—" },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("wallets.recharge.title")}
        actions={
          <Button onClick={() => setRecharging(true)}>
            <Wallet aria-hidden />
            {t("wallets.recharge.open")}
          </Button>
        }
      />
      <DataTableToolbar
        actions={
          <WalletExport
            path="/finance-service/recharge"
            query={search}
            file={t("wallets.recharge.file")}
            headers={["createdAt", "transactionCode", "customer", "email", "way", "amount", "balanceBefore", "balanceAfter", "thirdPartyCode", "administrator"].map((k) => t(`wallets.recharge.fields.${k}`))}
            cells={(r) => [dateTime(r.createdAt), r.transactionCode, r.customerName, r.email, t(`wallets.recharge.ways.${r.way}`), signed(r.amount), money(r.balanceBefore), money(r.balanceAfter), r.thirdPartyCode, r.administrator]}
            widths={[20, 30, 24, 28, 14, 14, 14, 14, 20, 16]}
          />
        }
      >
        <CustomerFilter current={customer} />
        <FilterSelect name="way" label={t("wallets.recharge.fields.way")} all={t("wallets.recharge.fields.way")} options={RECHARGE_WAYS.map((w) => [w, t(`wallets.recharge.ways.${w}`)] as const)} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("wallets.recharge.empty")} label={t("wallets.recharge.title")} />
      <RechargeDialog open={recharging} onClose={() => setRecharging(false)} minimumRecharge={minimumRecharge} presets={rechargePresets} />
    </div>
  );
}
