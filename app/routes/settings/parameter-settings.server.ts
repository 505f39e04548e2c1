import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { getMailSettings, testMail, updateMailSettings } from "../../../workers/services/mail/mail-settings";
import { getInvoiceSystem, updateInvoiceSystem } from "../../../workers/services/settings/invoice-system";
import { getParameterSettings, removeCertificate, updateParameterSettings, uploadCertificate } from "../../../workers/services/settings/parameter-settings";
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
  const [mail, invoice] = await Promise.all([getMailSettings(ctx), getInvoiceSystem(ctx)]);
  return { sub: false as const, settings, mail, invoice };
}

type Intent = "settings" | "mail" | "mailTest" | "invoice" | "certificate" | "removeCertificate";

/** One action for the screen's forms: `{ intent, values }` as JSON, or a certificate as multipart. */
export async function saveParameterSettings({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
      const form = await request.formData();
      const certificate = await uploadCertificate(ctx, form.get("kind"), async () => form.get("file"));
      return { ok: true as const, intent: "certificate" as Intent, data: certificate };
    }
    const { intent, values } = await actionJson<{ intent: Intent; values: unknown }>(request);
    const run: Record<Exclude<Intent, "certificate">, () => Promise<unknown>> = {
      settings: () => updateParameterSettings(ctx, values),
      mail: () => updateMailSettings(ctx, values),
      mailTest: () => testMail(ctx, values),
      invoice: () => updateInvoiceSystem(ctx, values),
      removeCertificate: () => removeCertificate(ctx, (values as { kind?: unknown } | null)?.kind),
    };
    if (!(intent in run)) throw new Error(`unknown intent ${String(intent)}`);
    return { ok: true as const, intent, data: await run[intent as Exclude<Intent, "certificate">]() };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
