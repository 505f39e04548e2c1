import { pushMessage } from "../../domain/schemas/operations";
import { reportError } from "../http/report-error";
import { tenantHubName } from "../live/events";
import { systemCtx } from "../services/context";
import { deliverToPoint } from "../services/load-balancing/load-balancing";

/**
 * The push queue's consumer: each message delivers one charging profile (or its clearing) to one
 * point, as the system acting for the message's operator, and tells the operator's live view how
 * it went, so the configuration's detail screen moves as the chargers answer
 * (docs/rules/operations.md "Delivery"). The points of a batch are reached side by side: each may
 * wait for its charger's answer. An unreadable message is acknowledged (retrying cannot fix it).
 */
export async function consumePush(batch: MessageBatch<unknown>, env: Env) {
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = pushMessage.safeParse(message.body);
      if (!parsed.success) {
        reportError("push", new Error("unreadable message"), { body: message.body });
        return message.ack();
      }
      const body = parsed.data;
      try {
        const ctx = systemCtx(env, { id: body.operatorId, code: body.operatorCode, sub: 0, parentId: null }, "load balancing");
        const outcome = await deliverToPoint(ctx, body);
        if (outcome && body.tracked) {
          await env.TENANT_HUB.getByName(tenantHubName(body.operatorId)).publish({
            type: "delivery",
            pointId: outcome.pointId,
            serialNumber: outcome.serialNumber,
            loadBalancingId: body.loadBalancingId,
            delivery: outcome.delivery,
            at: Date.now(),
          });
        }
        message.ack();
      } catch (error) {
        reportError("push", error, { loadBalancingId: body.loadBalancingId, pointId: body.pointId });
        message.retry();
      }
    }),
  );
}
