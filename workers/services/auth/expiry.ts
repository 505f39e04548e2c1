import { purgeExpiredSessions } from "../../auth/session";
import { verb } from "../verb";
import { purgeExpiredCaptchas } from "./captcha";
import { purgeOldLoginAttempts } from "./login";

/** Housekeeping of every operator's expired sessions, captchas and old login failures, in one batch. */
export const purgeExpired = verb({ actors: ["system"] }, async (ctx) => {
  await ctx.db.batch([purgeExpiredSessions(ctx.db, ctx.now()), purgeExpiredCaptchas(ctx), purgeOldLoginAttempts(ctx)]);
});
