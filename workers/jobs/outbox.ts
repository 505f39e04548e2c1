import { outboxMessage, retryDelayS, type OutboxMessage } from "../../domain/schemas/outbox";
import { reportError } from "../http/report-error";
import { invoiceChargeRecord, pushChargeRecord } from "../services/billing/deliveries";
import { systemCtx } from "../services/context";
import { deliverQueuedMail } from "../services/mail/mail";
import { mailReceipt } from "../services/mail/receipts";
import { authoriseSession, captureSession } from "../services/payments/capture";
import { MailRefused } from "../services/mail/transport";

/**
 * The outbox queue's consumer (docs/rules/settings.md "The outbox queue"): mails, bill pushes and
 * invoice requests, each as the system acting for the message's operator. A receiver that refuses
 * or cannot be reached is retried later with a growing delay, up to the queue's `max_retries`; the
 * record keeps the last error. An unreadable message is logged and dropped (retrying cannot fix it).
 */

async function handle(message: OutboxMessage, env: Env): Promise<{ retry: boolean; why?: string }> {
  const ctx = systemCtx(env, message, `outbox ${message.kind}`);
  switch (message.kind) {
    case "mail":
      try {
        await deliverQueuedMail(ctx, message.sealed);
        return { retry: false };
      } catch (error) {
        if (error instanceof MailRefused) return { retry: true, why: error.message };
        throw error;
      }
    case "billPush": {
      const outcome = await pushChargeRecord(ctx, message.transactionId);
      return outcome.done ? { retry: false } : { retry: true, why: outcome.error };
    }
    case "authorise": {
      const outcome = await authoriseSession(ctx, message.transactionId);
      return { retry: outcome.reason === "PENDING" };
    }
    case "capture": {
      const outcome = await captureSession(ctx, message.transactionId);
      return outcome.done ? { retry: false } : { retry: true, why: outcome.error };
    }
    case "receipt": {
      const outcome = await mailReceipt(ctx, message.transactionId);
      return outcome.done ? { retry: false } : { retry: true, why: outcome.error };
    }
    case "invoice": {
      const outcome = await invoiceChargeRecord(ctx, message.transactionId);
      return outcome.done ? { retry: false } : { retry: true, why: outcome.error };
    }
  }
}

export async function consumeOutbox(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const parsed = outboxMessage.safeParse(message.body);
    if (!parsed.success) {
      reportError("outbox", new Error("unreadable message"), { body: message.body });
      message.ack();
      continue;
    }
    try {
      const { retry, why } = await handle(parsed.data, env);
      if (!retry) {
        message.ack();
        continue;
      }
      // An expected refusal (the receiver said no, or was down): a warning, not an error.
      console.warn(JSON.stringify({ level: "warn", where: "outbox", kind: parsed.data.kind, attempts: message.attempts, why }));
      message.retry({ delaySeconds: retryDelayS(message.attempts) });
    } catch (error) {
      reportError("outbox", error, { kind: parsed.data.kind });
      message.retry({ delaySeconds: retryDelayS(message.attempts) });
    }
  }
}
