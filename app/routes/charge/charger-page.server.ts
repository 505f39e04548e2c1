import { data, type LoaderFunctionArgs } from "react-router";
import { acceptedLanguage } from "../../../domain/accept-language";
import { NotFound } from "../../../domain/errors";
import { LANGUAGE_COOKIE, parseLanguage, type Language } from "../../../domain/languages";
import { readCookie } from "../../../workers/http/cookies";
import { publicCharger } from "../../../workers/services/public-charger/charger";
import { publicCtx } from "../../lib/ctx.server";

/**
 * The page's language (docs/rules/public-charger.md "The charger page"): `lang` asked for, else the
 * one chosen before (the cookie), else the browser's, else the operator's default.
 */
function pageLanguage(request: Request, operatorDefault: Language): Language {
  const asked = parseLanguage(new URL(request.url).searchParams.get("lang"));
  return asked ?? parseLanguage(readCookie(request, LANGUAGE_COOKIE)) ?? acceptedLanguage(request.headers.get("Accept-Language")) ?? operatorDefault;
}

/** The charger by its serial number; an unknown one is the not-found page with HTTP 404 at the same address. */
export async function loadChargerPage({ request, context, params }: LoaderFunctionArgs) {
  const ctx = publicCtx(request, context);
  const headers = { "Cache-Control": "no-store" };
  try {
    const charger = await publicCharger(ctx, params.serialNumber);
    return data({ charger, lang: pageLanguage(request, charger.defaultLanguage) }, { headers });
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    return data({ charger: null, lang: pageLanguage(request, ctx.lang) }, { status: 404, headers });
  }
}
