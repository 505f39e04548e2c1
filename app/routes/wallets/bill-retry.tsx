import { RotateCcw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { Bill } from "../../../workers/services/wallets/bills";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { useIdempotentSubmit } from "~/lib/idempotency";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";

/** Whether a bill can be paid again: a failed card payment, or a session's failed debit from the balance. */
export const retryable = (b: Pick<Bill, "status" | "paymentMethod" | "type" | "transactionId">) =>
  b.status === "PayFail" && (b.paymentMethod !== "BALANCE" || (b.type === "Charging" && b.transactionId !== null));

type RetryBill = Pick<Bill, "id" | "cost" | "status" | "paymentMethod" | "type" | "transactionId">;

/**
 * "Retry payment" of a screen (docs/rules/wallets.md "Bills"): confirmed first, posted to the
 * screen's own action (`retryBillAction`), its outcome toasted; the screen's data reloads after
 * it. One per screen, so that a row redrawn meanwhile loses nothing.
 */
export function useBillRetry() {
  const { t } = useTranslation();
  const { money } = useFormat();
  const confirm = useConfirm();
  const fetcher = useFetcher<{ ok: true; status: Bill["status"] } | { ok: false; message: string; fields: Record<string, string> }>();
  const submitOnce = useIdempotentSubmit(fetcher);
  useActionOutcome<{ status: Bill["status"] }>(fetcher, (data) => {
    if (data.status === "PayFail") toast.error(t("wallets.bills.retryFailed"));
    else toast.success(t(data.status === "PaySuccess" ? "wallets.bills.retried" : "wallets.bills.retryPaying"));
  });
  const retry = async (bill: RetryBill) => {
    if (await confirm({ message: t("wallets.bills.retryConfirm", { id: bill.id, amount: money(bill.cost) }), confirmLabel: t("wallets.bills.retry") })) {
      submitOnce({ id: bill.id }, { method: "post" });
    }
  };
  return { retry, busy: fetcher.state !== "idle" };
}

/** The button of a failed bill; nothing for a bill that cannot be retried. A table row has it among its `RowActions`. */
export function RetryBillButton({ bill, retry }: { bill: RetryBill; retry: ReturnType<typeof useBillRetry> }) {
  const { t } = useTranslation();
  if (!retryable(bill)) return null;
  return (
    <Button variant="outline" onClick={() => retry.retry(bill)} disabled={retry.busy}>
      <RotateCcw aria-hidden />
      {t("wallets.bills.retry")}
    </Button>
  );
}
