import type { ActionFunctionArgs } from "react-router";
import { retryRecord } from "../../../workers/services/billing/record-actions";
import { retryBillPayment } from "../../../workers/services/payments/payments";
import { billDetail } from "../../../workers/services/wallets/bills";
import { once } from "../../../workers/services/idempotency";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";

/**
 * "Retry payment" on the bill screens (docs/rules/wallets.md "Bills"): a failed card payment is
 * asked for again by the payments' retry (docs/rules/payments.md "Retries"); a session's failed
 * debit from the balance by the charge record's retry (docs/rules/billing.md "Record actions").
 * Each verb checks its own menu; a retry runs once per idempotency key (docs/rules/input.md
 * "Idempotency keys").
 */
export async function retryBillAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const bill = await billDetail(ctx, bodyId(form.get("id")));
    const retry = async () => {
      if (bill.paymentMethod === "BALANCE" && bill.type === "Charging" && bill.transactionId !== null) await retryRecord(ctx, bill.transactionId);
      else await retryBillPayment(ctx, bill.id);
      return { ok: true as const, status: (await billDetail(ctx, bill.id)).status };
    };
    return (await once(ctx, request, { id: bill.id }, retry)).value;
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
