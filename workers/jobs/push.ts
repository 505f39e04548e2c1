import { pushMessage } from "../../domain/schemas/push";
import { reportError } from "../http/report-error";
import { systemCtx } from "../services/context";
import { pushPrice } from "../services/pricing/price-push";

/** A charger offline or silent is tried again after this long (docs/rules/pricing.md "Price push"). */
const RETRY_DELAY_S = 60;

/**
 * The push queue's consumer: each message sends one charger what it should show, as the system
 * acting for the message's operator. An offline or silent charger is retried later by the queue;
 * an unreadable message is logged and acknowledged, since retrying cannot fix it
 * (docs/architecture.md "Jobs").
 */
export async function consumePush(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const parsed = pushMessage.safeParse(message.body);
    if (!parsed.success) {
      reportError("push", new Error("unreadable message"), { body: message.body });
      message.ack();
      continue;
    }
    const { operatorId, operatorCode } = parsed.data;
    try {
      const outcome = await pushPrice(systemCtx(env, { id: operatorId, code: operatorCode, sub: 0, parentId: null }, "push price"), parsed.data);
      if ("retry" in outcome) message.retry({ delaySeconds: RETRY_DELAY_S });
      else message.ack();
    } catch (error) {
      reportError("push", error, { pointId: parsed.data.pointId });
      message.retry({ delaySeconds: RETRY_DELAY_S });
    }
  }
}
