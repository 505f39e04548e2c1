import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { HeaderLink } from "~/components/page-actions";
import { BillStatusBadge, useBillRemark } from "./bill-parts";
import { RetryBillButton, useBillRetry } from "./bill-retry";
import { retryBillAction } from "./bill-retry.server";
import { loadBill } from "./wallets.server";

/** One bill (docs/rules/wallets.md "Bills"): what moved, the balances and levels around it, how it was paid. */
export function loader(args: LoaderFunctionArgs) {
  return loadBill(args);
}

/** "Retry payment" of a failed bill (docs/rules/wallets.md "Bills"). */
export function action(args: ActionFunctionArgs) {
  return retryBillAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (bill) => `#${bill.id}` };

export default function BillDetail() {
  const bill = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime } = useFormat();
  const remark = useBillRemark();
  const retry = useBillRetry();
  const level = (value: string | null) => (value ? t(`drivers.customers.levels.${value}`) : "—");
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`${t("wallets.bills.detail")} #${bill.id}`}
        description={t(`wallets.bills.types.${bill.type}`)}
        actions={
          <>
            <RetryBillButton bill={bill} retry={retry} />
            <HeaderLink to="/financialManagement/billManagement" label={t("common.back")} variant="outline" />
          </>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <DetailList
            items={[
              [
                t("wallets.bills.fields.customer"),
                <Link key="customer" className="text-primary hover:underline" to={`/userManagement/userProfileManagement/customerDetail/${bill.customerId}`}>
                  {bill.customerName ?? bill.customerId}
                </Link>,
              ],
              [t("wallets.bills.fields.type"), t(`wallets.bills.types.${bill.type}`)],
              [t("wallets.bills.fields.status"), <BillStatusBadge key="status" status={bill.status} />],
              [t("wallets.bills.fields.cost"), <span key="cost" className="tabular-nums">{money(bill.cost)}</span>],
              [t("wallets.bills.fields.balanceBefore"), money(bill.balanceBefore)],
              [t("wallets.bills.fields.balanceAfter"), money(bill.balanceAfter)],
              [t("wallets.bills.fields.memberLevelBefore"), level(bill.memberLevelBefore)],
              [t("wallets.bills.fields.memberLevelAfter"), level(bill.memberLevelAfter)],
              [t("wallets.bills.fields.paymentMethod"), bill.paymentMethod],
              [t("wallets.bills.fields.transactionNumber"), <span key="number" className="font-mono text-xs">{bill.transactionNumber ?? "—"}</span>],
              [t("wallets.bills.fields.remark"), remark(bill)],
              [t("wallets.bills.fields.createdAt"), dateTime(bill.createdAt)],
            ]}
          />
          {bill.status === "PayFail" && <p className="mt-4 text-sm text-destructive">{t("wallets.bills.payFailRetryHint")}</p>}
        </CardContent>
      </Card>
    </div>
  );
}
