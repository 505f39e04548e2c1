import { RotateCcw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { Bill } from "../../../workers/services/wallets/bills";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";

/** Whether a bill can be paid again: a failed card payment, or a session's failed debit from the balance. */
export const retryable = (b: Pick<Bill, "status" | "paymentMethod" | "type" | "transactionId">) =>
  b.status === "PayFail" && (b.paymentMethod !== "BALANCE" || (b.type === "Charging" && b.transactionId !== null));

/**
 * "Retry payment" for a failed bill, confirmed first (docs/rules/wallets.md "Bills"); it posts to
 * the screen's own action (`retryBillAction`), and the screen's data reloads after it.
 */
export function RetryBillButton({ bill, size = "sm" }: { bill: Pick<Bill, "id" | "cost" | "status" | "paymentMethod" | "type" | "transactionId">; size?: "sm" | "default" }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  const confirm = useConfirm();
  const fetcher = useFetcher<{ ok: true; status: Bill["status"] } | { ok: false; message: string; fields: Record<string, string> }>();
  useActionOutcome<{ status: Bill["status"] }>(fetcher, (data) => {
    if (data.status === "PayFail") toast.error(t("wallets.bills.retryFailed"));
    else toast.success(t(data.status === "PaySuccess" ? "wallets.bills.retried" : "wallets.bills.retryPaying"));
  });
  if (!retryable(bill)) return null;
  const retry = async () => {
    if (await confirm({ message: t("wallets.bills.retryConfirm", { id: bill.id, amount: money(bill.cost) }), confirmLabel: t("wallets.bills.retry") })) {
      fetcher.submit({ id: bill.id }, { method: "post" });
    }
  };
  return (
    <Button variant="outline" size={size} onClick={retry} disabled={fetcher.state !== "idle"}>
      <RotateCcw aria-hidden />
      {t("wallets.bills.retry")}
    </Button>
  );
}
