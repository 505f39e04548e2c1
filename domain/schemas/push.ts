import { z } from "zod";
import { localListPush } from "./driver-services";
import { ocpiPullPush, ocpiTokenPush } from "./ocpi/sync";
import { ocpiCpoPush } from "./ocpi/cpo";
import { ocpiCpoDelivery } from "./ocpi/cpo-sessions";
import { chargingProfilePush } from "./operations";

/**
 * A push job: one thing to send one charger without making anyone wait (docs/rules/pricing.md
 * "Price push"). It names the operator, so the consumer acts as the system for that operator
 * (docs/architecture.md "Jobs").
 */
export const pricePush = z.object({
  kind: z.literal("price"),
  operatorId: z.number().int().positive(),
  operatorCode: z.string().min(1),
  pointId: z.number().int().positive(),
});
export type PricePush = z.infer<typeof pricePush>;

/**
 * Every kind of push job, told apart by `kind`: a point's price, a charging profile to set or
 * clear, an offline-list item, a page of an OCPI pull, one of our tokens to an OCPI partner, a
 * roaming session or CDR to its eMSP, a location or tariff we publish to an eMSP.
 */
export const pushMessage = z.discriminatedUnion("kind", [pricePush, chargingProfilePush, localListPush, ocpiPullPush, ocpiTokenPush, ocpiCpoDelivery, ocpiCpoPush]);
export type PushMessage = z.infer<typeof pushMessage>;
