import { pushMessage, type PushMessage } from "../../domain/schemas/push";
import { reportError } from "../http/report-error";
import { tenantHubName } from "../live/events";
import { systemCtx, type SystemCtx } from "../services/context";
import { deliverToPoint } from "../services/load-balancing/load-balancing";
import { deliverPushItem } from "../services/driver-services/local-list-delivery";
import { pushPrice } from "../services/pricing/price-push";
import { sendFirstPages } from "../services/ocpi/pull-queue";
import { pullPage } from "../services/ocpi/pulls";
import { deliverTokenPush } from "../services/ocpi/token-push";
import { deliverCpoPush } from "../services/ocpi/cpo-delivery";
import { deliverCpoSession } from "../services/ocpi/cpo/sessions";
import { deliverCpoCdr } from "../services/ocpi/cpo/cdrs";

/** Who the system acts as, per kind of push (the operation log's actor). */
const ACTOR: Record<PushMessage["kind"], string> = {
  price: "push price",
  chargingProfile: "load balancing",
  localList: "local list push",
  ocpiPull: "ocpi pull",
  ocpiToken: "ocpi token push",
  ocpiCpoDelivery: "ocpi cpo push",
  ocpiCpoPush: "ocpi cpo publish",
};

/** A charger offline or silent is tried again after this long (docs/rules/pricing.md "Price push"). */
const RETRY_DELAY_S = 60;

/**
 * The push queue's consumer: each message sends one charger something nobody waits for, as the
 * system acting for the message's operator (docs/architecture.md "Jobs"): a point's price for its
 * display (docs/rules/pricing.md "Price push"), or a charging profile to set or clear, whose
 * progress the operator's live view follows (docs/rules/operations.md "Delivery"), or an
 * offline-list item (docs/rules/driver-services.md "Offline lists"); or, for OCPI partners, a page
 * of a pull or one of our tokens (docs/rules/ocpi.md "Pulls", "Token pushes"). The points of a batch are
 * reached side by side, each may wait for its charger's answer, except offline-list items: they go
 * one after another, and the queue runs one batch at a time (wrangler.toml), so a point's list
 * version is never raised by two deliveries at once. An unreadable message is logged and
 * acknowledged, since retrying cannot fix it.
 */
export async function consumePush(batch: MessageBatch<unknown>, env: Env) {
  const inOrder = batch.messages.filter((m) => (m.body as { kind?: unknown } | null)?.kind === "localList");
  const sideBySide = batch.messages.filter((m) => !inOrder.includes(m));
  for (const message of inOrder) await handle(message, env);
  await Promise.all(sideBySide.map((message) => handle(message, env)));
}

/** One message: acknowledged once sent (or unreadable), retried later otherwise. */
async function handle(message: Message<unknown>, env: Env) {
  const parsed = pushMessage.safeParse(message.body);
  if (!parsed.success) {
    reportError("push", new Error("unreadable message"), { body: message.body });
    return message.ack();
  }
  const body = parsed.data;
  try {
    const ctx = systemCtx(env, body, ACTOR[body.kind]);
    if (await deliver(ctx, env, body)) message.ack();
    else message.retry({ delaySeconds: RETRY_DELAY_S });
  } catch (error) {
    reportError("push", error, { body });
    message.retry({ delaySeconds: RETRY_DELAY_S });
  }
}

/** Sends one push; answers false when the queue should try again later. */
async function deliver(ctx: SystemCtx, env: Env, body: PushMessage): Promise<boolean> {
  if (body.kind === "price") return !("retry" in (await pushPrice(ctx, body)));
  if (body.kind === "localList") {
    await deliverPushItem(ctx, body.itemId);
    return true;
  }
  // OCPI (docs/rules/ocpi.md "Pulls", "Token pushes"): a pull goes on page by page, one message each.
  if (body.kind === "ocpiToken") return deliverTokenPush(ctx, body.pushId);
  // A location or tariff we publish; it retries itself with backoff (docs/rules/ocpi.md "Pushes of what we publish").
  if (body.kind === "ocpiCpoPush") return deliverCpoPush(ctx, body.pushId);
  // A roaming session or CDR at our chargers to its eMSP (docs/rules/ocpi.md "Sessions and CDRs we send").
  if (body.kind === "ocpiCpoDelivery") return body.object === "session" ? deliverCpoSession(ctx, body.id) : deliverCpoCdr(ctx, body.id);
  if (body.kind === "ocpiPull") {
    const next = await pullPage(ctx, body);
    if (next) await env.PUSH.send({ ...body, url: next });
    // The pull ended: the modules queued behind it (a hub's objects behind its parties) start.
    else if (body.then?.length) await sendFirstPages(ctx, body.platformId, body.then);
    return true;
  }
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
