import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { closeSuspectSession, listSuspectSessions, suspectSessionReading } from "../../../workers/services/monitoring/suspect-sessions";
import { once } from "../../../workers/services/idempotency";
import { admits } from "../../../workers/services/verb";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/**
 * Suspect sessions (docs/rules/monitoring.md "Suspect sessions"): a page of them; with `close=<id>`
 * also the reading the close form offers (the charger's last sample). A filter the verb refuses
 * gives an empty page with its message.
 */
export async function loadSuspectSessions({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const raw = searchParamsObject(request);
  const mayClose = admits(closeSuspectSession.access, ctx);
  const closeId = Number(raw.close);
  const closing = mayClose && Number.isSafeInteger(closeId) && closeId > 0 ? await suspectSessionReading(ctx, closeId).catch(() => null) : null;
  const { close: _close, ...filter } = raw;
  try {
    return { page: await listSuspectSessions(ctx, filter), filterError: null, mayClose, closing };
  } catch (error) {
    const empty = { records: [], total: 0, current: 1, size: 10 };
    return { page: empty as Awaited<ReturnType<typeof listSuspectSessions>>, filterError: refusal(error, ctx.lang).body.msg, mayClose, closing };
  }
}

/** Closes the posted session with the reading typed for it, once per idempotency key (docs/rules/input.md "Idempotency keys"). */
export async function closeSuspectAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const transactionId = bodyId(form.get("transactionId"));
    const body = { meterStop: form.get("meterStop") ?? undefined };
    const close = async () => ({ ok: true as const, transactionId: (await closeSuspectSession(ctx, transactionId, body)).transactionId });
    return (await once(ctx, request, { transactionId, ...body }, close)).value;
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
