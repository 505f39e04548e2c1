import { eq, lt } from "drizzle-orm";
import { captchaChallenges } from "../../../db/schema";
import { Invalid } from "../../../domain/errors";
import { generateToken, tokenId } from "../../auth/tokens";
import { randomCaptchaText, renderCaptcha } from "../../auth/captcha-image";
import type { PublicCtx } from "../context";
import { verb } from "../verb";

/** Captchas are single-use and live two minutes (docs/rules/sessions.md "Captcha"). */
export const CAPTCHA_TTL_MS = 2 * 60 * 1000;

const answerHash = (captchaId: string, answer: string) => tokenId(`${captchaId}:${answer.trim().toUpperCase()}`);

/** Stores a challenge for a known text; issueCaptcha draws the text at random. */
export async function storeCaptcha(ctx: PublicCtx, text: string) {
  const captchaId = generateToken();
  await ctx.db.insert(captchaChallenges).values({
    id: captchaId,
    answerHash: answerHash(captchaId, text),
    expiresAt: new Date(ctx.now() + CAPTCHA_TTL_MS),
  });
  return captchaId;
}

export const issueCaptcha = verb({ actors: ["public"] }, async (ctx) => {
  const text = randomCaptchaText();
  return { captchaId: await storeCaptcha(ctx, text), image: renderCaptcha(text) };
});

/**
 * Consumes a captcha: whatever the answer, the challenge is gone afterwards. In local
 * development only, DEV_CAPTCHA (from `.dev.vars`) also answers a challenge that exists.
 */
export async function consumeCaptcha(ctx: PublicCtx, captchaId: string, answer: string) {
  const [challenge] = await ctx.db.delete(captchaChallenges).where(eq(captchaChallenges.id, captchaId)).returning();
  const live = challenge && challenge.expiresAt.getTime() > ctx.now();
  const devAnswer = (ctx.env as { DEV_CAPTCHA?: string }).DEV_CAPTCHA;
  const correct =
    live && ((devAnswer && answer.trim() === devAnswer) || challenge.answerHash === answerHash(captchaId, answer));
  if (!correct) throw new Invalid("errors.captcha");
}

export function purgeExpiredCaptchas(ctx: Pick<PublicCtx, "db" | "now">) {
  return ctx.db.delete(captchaChallenges).where(lt(captchaChallenges.expiresAt, new Date(ctx.now())));
}
