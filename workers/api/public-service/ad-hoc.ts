import { z } from "zod";
import { route } from "../app";
import { resource } from "../resource";
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
const charger = resource(tag, "/public-service/charger", serialParam);
const adHoc = resource(tag, "/public-service/ad-hoc", handleParam);

export const routes = [
  charger.get("/{serialNumber}/ad-hoc", "Whether the charger takes ad-hoc payment, the hold, and how the page takes the card", adHocOffer),
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
  adHoc.detail("An ad-hoc session as its page follows it", followAdHoc),
  adHoc.post("/{handle}/stop", "Stop an ad-hoc session (a session not started yet is given up and its hold released)", stopAdHoc),
];
