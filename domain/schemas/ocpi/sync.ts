import { z } from "zod";
import { recordId } from "../numbers";

/**
 * Bodies and queue messages of pulls and token pushes (docs/rules/ocpi.md "Pulls", "Token
 * pushes").
 */
/**
 * The modules we pull from a partner's senders (OCPI 2.2.1 §8.2.1, §9.2.1, §10.2.1, §11.2.1), and
 * from a hub the parties behind it (§17.2.1), read before the others.
 */
export const PULL_MODULES = ["hubclientinfo", "locations", "sessions", "cdrs", "tariffs"] as const;
export type PullModule = (typeof PULL_MODULES)[number];

/** A pull's state: `QUEUED` waiting for the queue, `RUNNING` page by page, then `DONE` or `FAILED`. */
export const PULL_STATES = ["QUEUED", "RUNNING", "DONE", "FAILED"] as const;

/** A token push's state: waiting for the queue, accepted by the partner, or refused (and retried). */
export const TOKEN_PUSH_STATES = ["PENDING", "SENT", "FAILED"] as const;

const v = (key: string) => `ocpi.validation.${key}`;

/** POST /ocpi-service/platform/{id}/pull: the modules to pull, all the partner offers when left out. */
export const pullInput = z.strictObject({
  modules: z
    .array(z.enum(PULL_MODULES, { error: v("module") }), { error: v("module") })
    .min(1, { error: v("module") })
    .max(PULL_MODULES.length, { error: v("module") })
    .optional(),
});
export type PullInput = z.infer<typeof pullInput>;

/** POST /ocpi-service/token/push: one platform or all, some tokens (by uid) or all. */
export const tokenPushInput = z.strictObject({
  platformId: recordId(v("platform")).optional(),
  uids: z
    .array(z.string({ error: v("uid") }).trim().min(1, { error: v("uid") }).max(36, { error: v("uid") }), { error: v("uid") })
    .min(1, { error: v("uid") })
    .max(100, { error: v("uid") })
    .optional(),
});
export type TokenPushInput = z.infer<typeof tokenPushInput>;

const operatorOf = { operatorId: recordId(), operatorCode: z.string().min(1).max(20) };

/**
 * One page of a pull: the first (no `url`) starts it, each next page's message carries the
 * partner's `Link`; `then`, the modules queued behind this one, whose first pages are sent when it
 * ends (a hub's parties before their objects).
 */
export const ocpiPullPush = z.object({
  kind: z.literal("ocpiPull"),
  ...operatorOf,
  platformId: recordId(),
  module: z.enum(PULL_MODULES),
  url: z.url().max(2000).optional(),
  then: z.array(z.enum(PULL_MODULES)).max(PULL_MODULES.length).optional(),
});
export type OcpiPullPush = z.infer<typeof ocpiPullPush>;

/** One token to one partner. */
export const ocpiTokenPush = z.object({ kind: z.literal("ocpiToken"), ...operatorOf, pushId: recordId() });
export type OcpiTokenPush = z.infer<typeof ocpiTokenPush>;
