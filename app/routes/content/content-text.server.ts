import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { TextKind } from "../../../domain/schemas/content";
import { getDisclaimer, getPrivacyPolicy, publishedText, updateDisclaimer, updatePrivacyPolicy } from "../../../workers/services/content/texts";
import { actionError, publicCtx, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";

/** Which text a screen edits, from its menu URL. */
const kindOf = (request: Request): TextKind => (new URL(request.url).pathname.endsWith("/privacyPolicy") ? "PRIVACY_POLICY" : "DISCLAIMER");

/**
 * The text of the language chosen on the screen (`textLang`; the `lang` parameter is the
 * interface's language, docs/rules/console.md "Languages").
 */
const textLang = (request: Request) => new URL(request.url).searchParams.get("textLang") ?? undefined;

export async function loadContentText({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const kind = kindOf(request);
  const query = { lang: textLang(request) ?? ctx.lang };
  const text = kind === "DISCLAIMER" ? await getDisclaimer(ctx, query) : await getPrivacyPolicy(ctx, query);
  return { ...text, operatorCode: ctx.operator.code };
}

export async function saveContentText({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const kind = kindOf(request);
  try {
    const input = await actionJson<{ lang?: unknown; content?: unknown }>(request);
    const query = { lang: input.lang };
    const saved = kind === "DISCLAIMER" ? await updateDisclaimer(ctx, query, input) : await updatePrivacyPolicy(ctx, query, input);
    return { ok: true as const, updatedAt: saved.updatedAt };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/**
 * A public mobile page's text (docs/rules/content.md "Disclaimer and privacy policy"): the
 * operator by domain or `operatorCode`, the language by `lang`. No such operator is the 404 page.
 */
export async function loadPublishedText({ request, context }: LoaderFunctionArgs, kind: TextKind) {
  const ctx = publicCtx(request, context);
  const url = new URL(request.url);
  const text = await publishedText(ctx, {
    kind,
    host: url.host,
    operatorCode: url.searchParams.get("operatorCode") ?? undefined,
    lang: url.searchParams.get("lang") ?? undefined,
  });
  const headers = { "Cache-Control": "no-store" };
  if (!text) return data({ text: null, lang: ctx.lang }, { status: 404, headers });
  return data({ text, lang: ctx.lang }, { headers });
}

