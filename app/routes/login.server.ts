import { data, redirect, type AppLoadContext } from "react-router";
import { NotFound } from "../../domain/errors";
import { parseLanguage, LANGUAGE_COOKIE } from "../../domain/languages";
import { firstLeafUrl } from "../../tenants/permissions";
import { rePasswordPath } from "../../tenants/route-guard";
import { COOKIE_MAX_AGE, readCookie, serializeCookie } from "../../workers/http/cookies";
import { issueCaptcha } from "../../workers/services/auth/captcha";
import { login } from "../../workers/services/auth/login";
import { loginInfo } from "../../workers/services/operators/public-info";
import { contextFromToken } from "../../workers/services/context";
import { actionError, applyGuard, operatorCookie, operatorOfHost, optionalCtx, publicCtx, sessionCookie } from "../lib/ctx.server";
import { actionForm } from "../lib/input.server";

/**
 * The login page of one operator (`/{operatorCode}/login`, or the root of its own domain;
 * docs/rules/sessions.md "Login"); an operator that is unknown or not valid has none (404). The
 * operator's default language presets the language cookie on a first visit.
 */
export async function loginPage(request: Request, context: AppLoadContext, code: string) {
  await applyGuard(request, context, await optionalCtx(request, context));
  const base = publicCtx(request, context);
  const info = await loginInfo(base, code).catch((error: unknown) => {
    throw error instanceof NotFound ? data(null, { status: 404 }) : error;
  });
  const headers = new Headers();
  headers.append("Set-Cookie", operatorCookie(info.operatorCode));
  let lang = base.lang;
  if (!readCookie(request, LANGUAGE_COOKIE) && !new URL(request.url).searchParams.has("lang")) {
    lang = parseLanguage(info.defaultLanguage) ?? lang;
    headers.append("Set-Cookie", serializeCookie(LANGUAGE_COOKIE, lang, { maxAge: COOKIE_MAX_AGE }));
  }
  return data({ operator: info, captcha: await issueCaptcha(base), lang }, { headers });
}

export async function loginAction(request: Request, context: AppLoadContext, code: string) {
  const form = Object.fromEntries(await actionForm(request));
  const base = publicCtx(request, context, { ...form, password: undefined });
  try {
    const result = await login(base, { ...form, operatorCode: code }, await operatorOfHost(request, context));
    const headers = new Headers();
    headers.append("Set-Cookie", sessionCookie(request, context, result.accessToken, new Date(result.expiresAt)));
    headers.append("Set-Cookie", operatorCookie(code));
    const { actor } = await contextFromToken(base, result.accessToken);
    const target = actor.mustChangePassword
      ? rePasswordPath(actor.sub)
      : (firstLeafUrl(actor.menu) ?? `/404?msg=${actor.sub === 1 ? "guard.operatorNoMenu" : "guard.noMenu"}`);
    return redirect(target, { headers });
  } catch (error) {
    return actionError(error, base.lang);
  }
}
