import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { Page } from "../../../domain/paging";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { dayOf, PackageStateBadge } from "./platform-badges";

interface PackageView {
  id: number;
  operatorCode: string | null;
  operatorName: string | null;
  type: "default" | "temporary" | "regular";
  status: "ineffective" | "effective" | "expired" | "void";
  acPrice: string;
  dcPrice: string;
  currency: string;
  currencyDecimals: number;
  acConnectors: number;
  dcConnectors: number;
  beginAt: string;
  endAt: string;
  remark: string | null;
}

interface Bill {
  id: number;
  day: string;
  acConnectors: number;
  dcConnectors: number;
  amount: number;
  currency: string;
  recorded: boolean;
  settled: boolean;
}

/**
 * A price package and its daily bills (docs/rules/platform.md "Daily billing"): the platform's
 * detail page sets the recorded and settled flags; the operator's authorizationBillingDetail only
 * reads them.
 */
export function PackageBills({ pkg, bills, editable, title }: { pkg: PackageView; bills: Page<Bill>; editable: boolean; title: string }) {
  const { t } = useTranslation();
  const { number } = useFormat();
  const { onPageChange } = useUrlPaging();
  const fetcher = useFetcher<{ ok: true } | { ok: false; message: string; fields: Record<string, string> }>();
  useActionOutcome(fetcher, () => toast.success(t("packages.billSaved")));
  const money = (minor: number) => `${number(minor / 10 ** pkg.currencyDecimals, pkg.currencyDecimals)} ${pkg.currency}`;
  const flagCell = (bill: Bill, flag: "recorded" | "settled") => {
    const on = bill[flag];
    const badge = <Badge variant={on ? "success" : "muted"}>{t(`packages.${flag}Values.${on}`)}</Badge>;
    if (!editable) return badge;
    const label = t(flag === "recorded" ? (on ? "packages.markNotRecorded" : "packages.markRecorded") : on ? "packages.markNotSettled" : "packages.markSettled");
    return (
      <div className="flex items-center gap-2">
        {badge}
        <Button variant="ghost" size="sm" onClick={() => fetcher.submit({ id: bill.id, flag, value: String(!on) }, { method: "post" })}>
          {label}
        </Button>
      </div>
    );
  };
  const columns: ColumnDef<Bill>[] = [
    { accessorKey: "day", header: t("packages.day"), meta: { width: 130 }, cell: ({ row }) => <span className="font-medium">{row.original.day}</span> },
    { id: "connectors", header: t("packages.connectors"), meta: { priority: 2, width: 140 }, cell: ({ row }) => `${row.original.acConnectors} / ${row.original.dcConnectors}` },
    { accessorKey: "amount", header: t("packages.amount"), meta: { width: 150 }, cell: ({ row }) => money(row.original.amount) },
    { id: "recorded", header: t("packages.recorded"), meta: { width: editable ? 280 : 150 }, cell: ({ row }) => flagCell(row.original, "recorded") },
    { id: "settled", header: t("packages.settled"), meta: { width: editable ? 280 : 150 }, cell: ({ row }) => flagCell(row.original, "settled") },
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={pkg.operatorCode ? `${pkg.operatorCode} · ${pkg.operatorName}` : undefined} />
      <FactsCard
        items={[
          [t("packages.type"), t(`packages.types.${pkg.type}`)],
          [t("packages.state"), <PackageStateBadge state={pkg.status} />],
          [t("packages.acPrice"), `${pkg.acPrice} ${pkg.currency}`],
          [t("packages.dcPrice"), `${pkg.dcPrice} ${pkg.currency}`],
          [t("packages.connectors"), `${pkg.acConnectors} / ${pkg.dcConnectors}`],
          [t("packages.beginAt"), dayOf(pkg.beginAt)],
          [t("packages.endAt"), dayOf(pkg.endAt)],
          [t("packages.remark"), pkg.remark ?? "—"],
        ]}
      />
      <h2 className="text-base font-semibold">{t("packages.bills")}</h2>
      <DataTableToolbar>
        <FilterSelect name="recorded" label={t("packages.recorded")} all={t("packages.recorded")}>
          <option value="true">{t("packages.recordedValues.true")}</option>
          <option value="false">{t("packages.recordedValues.false")}</option>
        </FilterSelect>
        <FilterSelect name="settled" label={t("packages.settled")} all={t("packages.settled")}>
          <option value="true">{t("packages.settledValues.true")}</option>
          <option value="false">{t("packages.settledValues.false")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={bills} onPageChange={onPageChange} getRowId={(b) => String(b.id)} emptyHint={t("packages.billsEmpty")} label={t("packages.bills")} heightOffset={520} />
    </div>
  );
}
