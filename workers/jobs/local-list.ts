import { pushMessage } from "../../domain/schemas/driver-services";
import { reportError } from "../http/report-error";
import { systemCtx } from "../services/context";
import { deliverPushItem } from "../services/driver-services/local-list-delivery";

/**
 * The push queue's consumer: each message delivers one offline-list item to its charger with
 * SendLocalList, as the system acting for the message's operator (docs/rules/driver-services.md
 * "Offline lists"). Messages are handled one after another and the queue runs one batch at a time
 * (wrangler.toml), so a point's list version is never raised by two deliveries at once. Only a
 * PENDING item is sent, so a message delivered twice changes nothing.
 */
export async function consumePushes(batch: MessageBatch<unknown>, env: Env) {
  for (const message of batch.messages) {
    const parsed = pushMessage.safeParse(message.body);
    if (!parsed.success) {
      reportError("push", new Error("unreadable message"), { body: message.body });
      message.ack();
      continue;
    }
    const { itemId, operatorId, operatorCode } = parsed.data;
    try {
      await deliverPushItem(systemCtx(env, { id: operatorId, code: operatorCode, sub: 0, parentId: null }, "local list push"), itemId);
      message.ack();
    } catch (error) {
      reportError("push", error, { itemId });
      message.retry();
    }
  }
}
