import i18next, { type i18n } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../languages";
import { CATALOGUES } from "./catalogues";

/** One i18next instance per language choice; used by SSR, the browser and the worker alike. */
export function createI18n(language: Language): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: CATALOGUES[l] }])),
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
