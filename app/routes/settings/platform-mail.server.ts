import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { getMailSettings, testMail, updateMailSettings } from "../../../workers/services/mail/mail-settings";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";

/**
 * The platform's own mail server (docs/rules/platform.md "The platform's menus"): the server that
 * mails the initial passwords of the operators it provisions, with its test send.
 */
export async function loadPlatformMail({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { mail: await getMailSettings(ctx) };
}

/** `{ intent: "mail" | "mailTest", values }` as JSON, as the mail form sends it. */
export async function savePlatformMail({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, values } = await actionJson<{ intent: "mail" | "mailTest"; values: unknown }>(request);
    const data = intent === "mailTest" ? await testMail(ctx, values) : await updateMailSettings(ctx, values);
    return { ok: true as const, intent, data };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
