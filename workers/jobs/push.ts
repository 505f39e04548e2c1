import { pushMessage, type PushMessage } from "../../domain/schemas/push";
import { reportError } from "../http/report-error";
import { tenantHubName } from "../live/events";
import { systemCtx, type SystemCtx } from "../services/context";
import { deliverToPoint } from "../services/load-balancing/load-balancing";
import { pushPrice } from "../services/pricing/price-push";

/** A charger offline or silent is tried again after this long (docs/rules/pricing.md "Price push"). */
const RETRY_DELAY_S = 60;

/**
 * The push queue's consumer: each message sends one charger something nobody waits for, as the
 * system acting for the message's operator (docs/architecture.md "Jobs"): a point's price for its
 * display (docs/rules/pricing.md "Price push"), or a charging profile to set or clear, whose
 * progress the operator's live view follows (docs/rules/operations.md "Delivery"). The points of a
 * batch are reached side by side: each may wait for its charger's answer. An unreadable message
 * is logged and acknowledged, since retrying cannot fix it.
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
        const ctx = systemCtx(env, { id: body.operatorId, code: body.operatorCode, sub: 0, parentId: null }, body.kind === "price" ? "push price" : "load balancing");
        if (await deliver(ctx, env, body)) message.ack();
        else message.retry({ delaySeconds: RETRY_DELAY_S });
      } catch (error) {
        reportError("push", error, { kind: body.kind, pointId: body.pointId });
        message.retry({ delaySeconds: RETRY_DELAY_S });
      }
    }),
  );
}

/** Sends one push; answers false when the queue should try again later. */
async function deliver(ctx: SystemCtx, env: Env, body: PushMessage): Promise<boolean> {
  if (body.kind === "price") return !("retry" in (await pushPrice(ctx, body)));
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
  return true;
}
