import { billingMessage, cdrBillingMessage } from "../../domain/schemas/billing";
import { reportError } from "../http/report-error";
import { systemCtx } from "../services/context";
import { billTransaction } from "../services/billing/billing";
import { billCdr } from "../services/ocpi/cdr-billing";

/**
 * The billing queue's consumer: each message prices one stopped transaction through the billing
 * verb, or bills one partner's CDR (docs/rules/ocpi.md "CDRs billed to the wallet"), as the system
 * acting for the message's operator. The verbs are idempotent, so a message delivered twice
 * changes nothing; a failure is retried (docs/architecture.md "Jobs").
 */
export async function consumeBilling(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const cdr = cdrBillingMessage.safeParse(message.body);
    const parsed = cdr.success ? cdr : billingMessage.safeParse(message.body);
    if (!parsed.success) {
      reportError("billing", new Error("unreadable message"), { body: message.body });
      message.ack();
      continue;
    }
    const { operatorId, operatorCode } = parsed.data;
    const ctx = systemCtx(env, { operatorId, operatorCode }, "billing");
    try {
      if ("cdrRowId" in parsed.data) await billCdr(ctx, parsed.data.cdrRowId);
      else await billTransaction(ctx, parsed.data.transactionId);
      message.ack();
    } catch (error) {
      reportError("billing", error, { ...parsed.data });
      message.retry();
    }
  }
}
