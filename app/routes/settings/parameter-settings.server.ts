import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { getMailSettings, testMail, updateMailSettings } from "../../../workers/services/mail/mail-settings";
import { getInvoiceSystem, updateInvoiceSystem } from "../../../workers/services/settings/invoice-system";
import { getParameterSettings, updateParameterSettings } from "../../../workers/services/settings/parameter-settings";
import { getRetention, updateRetention } from "../../../workers/services/retention/settings";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";

/**
 * The parameter-settings screen (docs/rules/settings.md "The console screen"): the operator's whole
 * document with its mail server and invoice system, or a sub-operator's part.
 */
export async function loadParameterSettings({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const settings = await getParameterSettings(ctx);
  if (ctx.actor.sub) return { sub: true as const, settings };
  const [mail, invoice, retention] = await Promise.all([getMailSettings(ctx), getInvoiceSystem(ctx), getRetention(ctx)]);
  return { sub: false as const, settings, mail, invoice, retention };
}

type Intent = "settings" | "mail" | "mailTest" | "invoice" | "retention";

/** One action for the screen's forms: `{ intent, values }` as JSON. */
export async function saveParameterSettings({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, values } = await actionJson<{ intent: Intent; values: unknown }>(request);
    const run: Record<Intent, () => Promise<unknown>> = {
      settings: () => updateParameterSettings(ctx, values),
      mail: () => updateMailSettings(ctx, values),
      mailTest: () => testMail(ctx, values),
      invoice: () => updateInvoiceSystem(ctx, values),
      retention: () => updateRetention(ctx, values),
    };
    if (!(intent in run)) throw new Error(`unknown intent ${String(intent)}`);
    return { ok: true as const, intent, data: await run[intent]() };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
