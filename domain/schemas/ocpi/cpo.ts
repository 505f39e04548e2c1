import { z } from "zod";
import { pageQuery } from "../account-service";

/**
 * Bodies, queries and queue messages of our CPO side (docs/rules/ocpi.md "CPO role").
 */

/** The modules whose objects we push to eMSPs' receivers (OCPI 2.2.1 §8.2.2, §11.2.2). */
export const CPO_PUSH_MODULES = ["locations", "tariffs"] as const;
export type CpoPushModule = (typeof CPO_PUSH_MODULES)[number];

/** A push's state: waiting (or batched) for the queue, accepted by the partner, or refused and retried. */
export const CPO_PUSH_STATES = ["PENDING", "SENT", "FAILED"] as const;
export type CpoPushState = (typeof CPO_PUSH_STATES)[number];

const v = (key: string) => `ocpi.cpo.validation.${key}`;

/** PUT /ocpi-service/cpo/location/{stationId}: whether partners see the station. */
export const publishInput = z.strictObject({ publish: z.boolean({ error: v("publish") }) });

/** A sender's page query (OCPI 2.2.1 §4.1.3): offset, limit, date_from, date_to — as our tokens sender reads it. */
export { tokensQuery as senderQuery } from "./tokens";

/** The console's lists of what we publish, paged on the server, by name. */
export const cpoListQuery = pageQuery.extend({ q: z.string().trim().max(64, { error: v("filter") }).optional() });

/** A queue message: deliver one push row (its object as it is then) to its partner. */
export const ocpiCpoPush = z.object({
  kind: z.literal("ocpiCpoPush"),
  operatorId: z.number().int().positive(),
  operatorCode: z.string().min(1),
  pushId: z.number().int().positive(),
});
export type OcpiCpoPush = z.infer<typeof ocpiCpoPush>;
