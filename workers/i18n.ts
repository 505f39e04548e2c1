import type { TFunction } from "i18next";
import { createI18n } from "../domain/i18n/i18n";
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_COOKIE, parseLanguage, type Language } from "../domain/languages";
import { readCookie } from "./http/cookies";

/** Server messages use the console's catalogues; one translator per language, made once. */
const translators = new Map<Language, TFunction>();

export function translator(language: Language): TFunction {
  let t = translators.get(language);
  if (!t) {
    t = createI18n(language).t;
    translators.set(language, t);
  }
  return t;
}

/**
 * The `lang` query parameter, else the language cookie, else English
 * (docs/architecture.md "Languages"). (No Accept-Language: the console always says which language
 * it wants.)
 */
export function requestLanguage(request: Request): Language {
  const url = new URL(request.url);
  return (
    parseLanguage(url.searchParams.get("lang")) ??
    parseLanguage(readCookie(request, LANGUAGE_COOKIE)) ??
    DEFAULT_LANGUAGE
  );
}

export { LANGUAGES };
