import type { Language } from "../languages";
import type { Tree } from "./merge";

/**
 * Catalogues one language at a time (docs/rules/console.md "Languages"): the browser fetches its
 * page's language only, a sixth of the six (about 55 of 340 KB compressed), since every catalogue
 * has every key (tests/unit/catalogues.test.ts). The server renders with all six at hand: its
 * entry provides them (`provideCatalogues`) before any page renders.
 */
const IMPORTS: Record<Language, () => Promise<{ default: Tree }>> = {
  zh: () => import("./languages/zh"),
  en: () => import("./languages/en"),
  zh_TW: () => import("./languages/zh_TW"),
  pl: () => import("./languages/pl"),
  pt_BR: () => import("./languages/pt_BR"),
  de: () => import("./languages/de"),
};

const loaded = new Map<Language, Tree>();
const loading = new Map<Language, Promise<Tree>>();

/** The language's catalogue when it is at hand, to render with at once. */
export const loadedCatalogue = (language: Language): Tree | undefined => loaded.get(language);

/** The language's catalogue, fetched once; the same promise for every caller, as React's `use` wants. */
export function loadCatalogue(language: Language): Promise<Tree> {
  let promise = loading.get(language);
  if (!promise) {
    promise = IMPORTS[language]().then(({ default: catalogue }) => {
      loaded.set(language, catalogue);
      return catalogue;
    });
    loading.set(language, promise);
    // A failed fetch (the network dropped) is tried again by the next caller.
    promise.catch(() => loading.delete(language));
  }
  return promise;
}

/** The server's catalogues, all at hand before it renders a page. */
export function provideCatalogues(catalogues: Record<Language, Tree>) {
  for (const [language, catalogue] of Object.entries(catalogues) as [Language, Tree][]) {
    loaded.set(language, catalogue);
    loading.set(language, Promise.resolve(catalogue));
  }
}
