import { z } from "zod";
import { route } from "../app";
import { adHocStartInput } from "../../../domain/schemas/ad-hoc";
import { idempotencyKeyOf } from "../../services/idempotency";
import { adHocOffer, followAdHoc, startAdHoc, stopAdHoc } from "../../services/payments/ad-hoc";

/**
 * Ad-hoc payment on a charger's public page (docs/rules/payments.md "Ad-hoc payment"): no login;
 * the serial number names the charger, an unguessable handle the session.
 */
const tag = "Public service: ad-hoc payment";
const serialParam = z.object({ serialNumber: z.string().min(1).max(64) });
const handleParam = z.object({ handle: z.string().max(64) });

export const routes = [
  route(
    { method: "get", path: "/public-service/charger/{serialNumber}/ad-hoc", summary: "Whether the charger takes ad-hoc payment, the hold, and how the page takes the card", tag, verb: adHocOffer, params: serialParam },
    (ctx, { params }) => adHocOffer(ctx, params.serialNumber),
  ),
  route(
    {
      method: "post",
      path: "/public-service/charger/{serialNumber}/ad-hoc",
      summary: "Hold a card for an ad-hoc session on a connector: { clientSecret, handle }; a repeated Idempotency-Key answers the first result",
      tag,
      verb: startAdHoc,
      params: serialParam,
      body: adHocStartInput,
    },
    (ctx, { params, body }, c) => startAdHoc(ctx, params.serialNumber, body, idempotencyKeyOf(c.req.raw)),
  ),
  route(
    { method: "get", path: "/public-service/ad-hoc/{handle}", summary: "An ad-hoc session as its page follows it", tag, verb: followAdHoc, params: handleParam },
    (ctx, { params }) => followAdHoc(ctx, params.handle),
  ),
  route(
    { method: "post", path: "/public-service/ad-hoc/{handle}/stop", summary: "Stop an ad-hoc session (a session not started yet is given up and its hold released)", tag, verb: stopAdHoc, params: handleParam },
    (ctx, { params }) => stopAdHoc(ctx, params.handle),
  ),
];
