import { count, desc, eq } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { feedback } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { feedbackListQuery, feedbackReplyInput } from "../../../domain/schemas/content";
import { owned } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { verb } from "../verb";

/**
 * Drivers' feedback (docs/rules/content.md "Feedback"): UNPROCESSED until someone replies, then
 * PROCESSED with the reply, who replied and when. Operators and sub-operators each see their own.
 */
const MENUS = ["carrier.feedback", "sub.system.feedback"];

type Row = typeof feedback.$inferSelect;

const present = (r: Row) => ({
  id: r.id,
  creator: r.creator,
  customerId: r.customerId,
  content: r.content,
  status: r.status,
  reply: r.reply,
  processedBy: r.processedBy,
  processedAt: r.processedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/** Feedback newest first, by status and creator. */
export const listFeedback = verb({ menu: MENUS }, async (ctx, raw: unknown) => {
  const q = feedbackListQuery.parse(raw);
  const where = owned(ctx, feedback, q.status ? eq(feedback.status, q.status) : undefined, containingIf(feedback.creator, q.creator));
  return pageOf(
    q,
    async ({ limit, offset }) => (await ctx.db.select().from(feedback).where(where).orderBy(desc(feedback.createdAt), desc(feedback.id)).limit(limit).offset(offset)).map(present),
    async () => (await ctx.db.select({ total: count() }).from(feedback).where(where))[0].total,
  );
});

export const getFeedback = verb({ menu: MENUS }, async (ctx, id: number) => {
  const [row] = await ctx.db.select().from(feedback).where(owned(ctx, feedback, eq(feedback.id, id))).limit(1);
  if (!row) throw new NotFound("content.errors.feedbackNotFound");
  return present(row);
});

/**
 * Answers an unprocessed feedback (PROCESSED). The update is conditional on the status, so two
 * people replying at once cannot both succeed; a processed one is 409.
 */
export const replyFeedback = verb({ menu: MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { reply } = feedbackReplyInput.parse(raw);
  const before = await getFeedback(ctx, id);
  if (before.status !== "UNPROCESSED") throw new Conflict("content.errors.feedbackProcessed");
  const processedAt = new Date(ctx.now());
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(feedback)
      .set({ status: "PROCESSED", reply, processedBy: ctx.actor.username, processedAt })
      .where(owned(ctx, feedback, eq(feedback.id, id), eq(feedback.status, "UNPROCESSED")))
      .returning(),
    auditRow(ctx, { table: "feedback", module: "feedback", type: "UPDATE", oldData: { id, status: before.status }, newData: { id, status: "PROCESSED", reply } }),
  ]);
  if (!updated[0]) throw new Conflict("content.errors.feedbackProcessed");
  return present(updated[0]);
});
