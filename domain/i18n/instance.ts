import i18next, { type i18n } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../languages";
import type { Tree } from "./merge";

/**
 * One i18next instance per language choice, with the catalogues at hand: all six on the server
 * (domain/i18n/i18n.ts), the page's own in the browser (app/lib/use-i18n.ts).
 */
export function i18nInstance(language: Language, catalogues: Partial<Record<Language, Tree>>): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources: Object.fromEntries(Object.entries(catalogues).map(([l, catalogue]) => [l, { translation: catalogue }])),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
