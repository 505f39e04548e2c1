import { data, redirect, type AppLoadContext } from "react-router";
import { AppError } from "../../domain/errors";
import type { Language } from "../../domain/languages";
import { guard, type GuardDecision } from "../../tenants/route-guard";
import { COOKIE_MAX_AGE, OPERATOR_COOKIE, isHttps, readCookie, serializeCookie } from "../../workers/http/cookies";
import { errorBody } from "../../workers/http/error-envelope";
import { assertSameOrigin, isSafeMethod } from "../../workers/http/same-origin";
import { requestLanguage } from "../../workers/i18n";
import { contextFromToken, publicCtxOf, type PublicCtx, type UserCtx } from "../../workers/services/context";
import { domainOperator } from "../../workers/services/operators/public-info";

/**
 * The console's door to the service verbs: loaders and actions build the same context the API
 * builds, from the session cookie, and call verbs directly (docs/architecture.md "One door").
 */
export function publicCtx(request: Request, context: AppLoadContext, body?: unknown): PublicCtx {
  return publicCtxOf(request, context.cloudflare.env, body);
}

export function sessionCookie(request: Request, context: AppLoadContext, token: string, expiresAt?: Date) {
  return serializeCookie(context.cloudflare.env.SESSION_COOKIE, token, {
    httpOnly: true,
    secure: isHttps(request),
    sameSite: "Lax",
    maxAge: expiresAt ? Math.floor((expiresAt.getTime() - Date.now()) / 1000) : 0,
  });
}

export function operatorCookie(code: string) {
  return serializeCookie(OPERATOR_COOKIE, code, { maxAge: COOKIE_MAX_AGE });
}

/** The code of the operator whose login page this browser used last. */
export function rememberedOperator(request: Request) {
  return readCookie(request, OPERATOR_COOKIE);
}

/** The operator whose own domain the request came through, if any. */
export function operatorOfHost(request: Request, context: AppLoadContext) {
  return domainOperator(publicCtx(request, context), new URL(request.url).host);
}

/** The tenant context of the logged-in user, or null (an ended session counts as none). */
export async function optionalCtx(request: Request, context: AppLoadContext): Promise<UserCtx | null> {
  const token = readCookie(request, context.cloudflare.env.SESSION_COOKIE);
  if (!token) return null;
  try {
    return await contextFromToken(publicCtx(request, context), token);
  } catch {
    return null;
  }
}

/**
 * Runs the console's route guard for a path (docs/rules/console.md "Route guard"); a redirect is
 * thrown, carrying the message key.
 */
export async function applyGuard(request: Request, context: AppLoadContext, ctx: UserCtx | null) {
  const decision: GuardDecision = guard({
    path: new URL(request.url).pathname,
    user: ctx ? { sub: ctx.actor.sub, mustChangePassword: ctx.actor.mustChangePassword, menu: ctx.actor.menu } : null,
    operatorDomain: Boolean(await operatorOfHost(request, context)),
    storedOperatorCode: rememberedOperator(request),
  });
  if (decision.kind === "redirect") {
    // A cookie that names no live session is cleared on the way, as a 401 clears the login, and
    // the login page says the sign-in expired (docs/rules/sessions.md "Session messages").
    const ended = !ctx && Boolean(readCookie(request, context.cloudflare.env.SESSION_COOKIE));
    const messageKey = ended ? "errors.sessionExpired" : decision.messageKey;
    const target = messageKey ? `${decision.to}?msg=${messageKey}` : decision.to;
    const headers = new Headers();
    if (ended) headers.append("Set-Cookie", sessionCookie(request, context, ""));
    throw redirect(target, { headers });
  }
}

/** A console action that changes anything comes from the console's own origin, or is refused (403). */
export function requireConsoleOrigin(request: Request) {
  if (isSafeMethod(request.method)) return;
  try {
    assertSameOrigin(request);
  } catch (error) {
    throw data(errorBody(error, requestLanguage(request)).body, { status: 403 });
  }
}

/** First line of every console loader and action: the session, or off to the login page. */
export async function requireCtx(request: Request, context: AppLoadContext): Promise<UserCtx> {
  requireConsoleOrigin(request);
  const ctx = await optionalCtx(request, context);
  await applyGuard(request, context, ctx);
  if (!ctx) throw redirect("/homePage");
  return ctx;
}

/** A verb's refusal (a typed error or a failed parse) as the API would answer it; anything else is rethrown. */
export function refusal(error: unknown, lang: Language) {
  if (!(error instanceof AppError) && !(error instanceof Error && error.name === "ZodError")) throw error;
  return errorBody(error, lang);
}

/** A verb's error as action data: the message and each field's message, translated. */
export function actionError(error: unknown, lang: Language) {
  const { status, body } = refusal(error, lang);
  return data({ ok: false as const, message: body.msg, fields: (body.data as { fields?: Record<string, string> } | null)?.fields ?? {} }, { status });
}
