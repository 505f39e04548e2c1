import { billingMessage } from "../../domain/schemas/billing";
import { reportError } from "../http/report-error";
import { systemCtx } from "../services/context";
import { billTransaction } from "../services/billing/billing";

/**
 * The billing queue's consumer: each message prices one stopped transaction through the billing
 * verb, as the system acting for the message's operator. The verb is idempotent, so a message
 * delivered twice changes nothing; a failure is retried (docs/architecture.md "Jobs").
 */
export async function consumeBilling(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const parsed = billingMessage.safeParse(message.body);
    if (!parsed.success) {
      reportError("billing", new Error("unreadable message"), { body: message.body });
      message.ack();
      continue;
    }
    const { transactionId, operatorId, operatorCode } = parsed.data;
    try {
      await billTransaction(systemCtx(env, { id: operatorId, code: operatorCode, sub: 0, parentId: null }, "billing"), transactionId);
      message.ack();
    } catch (error) {
      reportError("billing", error, { transactionId });
      message.retry();
    }
  }
}
