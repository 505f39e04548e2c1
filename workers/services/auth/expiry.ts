import { purgeExpiredSessions } from "../../auth/session";
import { purgeIdempotencyKeys } from "../idempotency";
import { verb } from "../verb";
import { purgeExpiredCaptchas } from "./captcha";
import { purgeOldLoginAttempts } from "./login";

/** Housekeeping of every operator's expired sessions, captchas, old login failures and idempotency keys, in one batch. */
export const purgeExpired = verb({ actors: ["system"] }, async (ctx) => {
  await ctx.db.batch([purgeExpiredSessions(ctx.db, ctx.now()), purgeExpiredCaptchas(ctx), purgeOldLoginAttempts(ctx), purgeIdempotencyKeys(ctx)]);
});
