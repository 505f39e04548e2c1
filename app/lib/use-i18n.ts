import type { i18n } from "i18next";
import { use, useMemo } from "react";
import { loadCatalogue, loadedCatalogue } from "../../domain/i18n/load";
import { i18nInstance } from "../../domain/i18n/instance";
import type { Language } from "../../domain/languages";

/**
 * The page's i18next instance, with its language's catalogue only (domain/i18n/load.ts). The
 * page's own languages are at hand before it hydrates (app/entry.client.tsx); a navigation to a
 * page in another language suspends until its catalogue is, keeping the page before it meanwhile.
 */
export function useI18n(language: Language): i18n {
  const catalogue = loadedCatalogue(language) ?? use(loadCatalogue(language));
  return useMemo(() => i18nInstance(language, { [language]: catalogue }), [language, catalogue]);
}
