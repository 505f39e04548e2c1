import { and, count, eq, gt } from "drizzle-orm";
import { chargeRecords, feedback, operators, points } from "../../../db/schema";
import { NotFound, TooManyAttempts } from "../../../domain/errors";
import { inService } from "../../../domain/operator-validity";
import { publicFeedbackInput } from "../../../domain/schemas/content";
import { acrossTenants, ownedBy, ownedRow } from "../../../tenants/scope";
import { UNKNOWN_CLIENT } from "../../http/client";
import type { PublicCtx } from "../context";
import { verb } from "../verb";

/**
 * Feedback a driver sends from a charger's public page or a receipt (docs/rules/content.md
 * "Feedback"): no login and no captcha on either path, so it is bounded instead: at most
 * `PER_CLIENT` a minute from one client and `PER_SUBJECT` an hour about one charger or one
 * receipt, then 429. It lands in the operator's feedback list, unprocessed, as any other.
 */
export const PER_CLIENT = 5;
export const PER_SUBJECT = 20;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The operator, point and session a feedback is about; 404 for what names nothing public. */
async function subjectOf(ctx: PublicCtx, about: { serialNumber?: string; receiptToken?: string }) {
  if (about.serialNumber !== undefined) {
    const [found] = await ctx.db
      .select({ pointId: points.id, operator: operators })
      .from(points)
      .innerJoin(operators, eq(operators.id, points.operatorId))
      .where(acrossTenants("a serial number names one point across the platform: its page's feedback goes to its operator", eq(points.serialNumber, about.serialNumber)))
      .limit(1);
    if (!found || found.operator.kind === "PLATFORM" || !inService(found.operator, ctx.now())) throw new NotFound("content.errors.feedbackSubject");
    return {
      operatorId: found.operator.id,
      pointId: found.pointId,
      transactionId: null,
      customerId: null,
    };
  }
  const [found] = await ctx.db
    .select({ record: chargeRecords, operator: operators })
    .from(chargeRecords)
    .innerJoin(operators, eq(operators.id, chargeRecords.operatorId))
    .where(acrossTenants("a receipt token names one record across the platform: its feedback goes to its operator", eq(chargeRecords.receiptToken, about.receiptToken!)))
    .limit(1);
  if (!found || !inService(found.operator, ctx.now())) throw new NotFound("content.errors.feedbackSubject");
  return {
    operatorId: found.operator.id,
    pointId: found.record.pointId,
    transactionId: found.record.transactionId,
    customerId: found.record.customerId,
  };
}

/** POST /public-service/feedback: `{id}` of the new feedback. */
export const sendPublicFeedback = verb({ actors: ["public"] }, async (ctx: PublicCtx, raw: unknown) => {
  const input = publicFeedbackInput.parse(raw);
  const subject = await subjectOf(ctx, input);
  const client = ctx.request.ip;
  const now = ctx.now();
  const aboutIt = subject.transactionId !== null ? eq(feedback.transactionId, subject.transactionId) : eq(feedback.pointId, subject.pointId);
  const [[bySubject], [byClient]] = await ctx.db.batch([
    ctx.db
      .select({ n: count() })
      .from(feedback)
      .where(ownedBy(subject.operatorId, feedback, aboutIt, gt(feedback.createdAt, new Date(now - HOUR_MS)))),
    ctx.db
      .select({ n: count() })
      .from(feedback)
      .where(
        acrossTenants("one client sending feedback to many operators is still one client", and(eq(feedback.client, client), gt(feedback.createdAt, new Date(now - MINUTE_MS)))),
      ),
  ]);
  // Where nothing vouches for the client's address every client is one (workers/http/client.ts): only the subject counts.
  if (bySubject.n >= PER_SUBJECT)
    throw new TooManyAttempts("content.errors.feedbackTooMany", {
      minutes: 60,
    });
  if (client !== UNKNOWN_CLIENT && byClient.n >= PER_CLIENT)
    throw new TooManyAttempts("content.errors.feedbackTooMany", {
      minutes: 1,
    });
  const [created] = await ctx.db
    .insert(feedback)
    .values(
      // The subject's operator, found by its public serial number or receipt token above.
      ownedRow(
        { operator: { id: subject.operatorId } },
        {
          customerId: subject.customerId,
          creator: input.contact || "—",
          content: input.content,
          pointId: subject.pointId,
          transactionId: subject.transactionId,
          contact: input.contact || null,
          client,
          createdAt: new Date(now),
        },
      ),
    )
    .returning({ id: feedback.id });
  return { id: created.id };
});
