import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { listFeedback, replyFeedback } from "../../../workers/services/content/feedback";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** A page of feedback; a filter the verb refuses gives an empty page with its message. */
export async function loadFeedback({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    return { page: await listFeedback(ctx, searchParamsObject(request)), filterError: null };
  } catch (error) {
    const empty = { records: [], total: 0, current: 1, size: 10 } as Awaited<ReturnType<typeof listFeedback>>;
    return { page: empty, filterError: refusal(error, ctx.lang).body.msg };
  }
}

/** Replies to the posted feedback (PROCESSED). */
export async function replyFeedbackAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    await replyFeedback(ctx, bodyId(form.get("id")), { reply: form.get("reply") ?? undefined });
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
