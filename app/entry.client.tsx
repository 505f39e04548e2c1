import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { loadCatalogue } from "../domain/i18n/load";
import { DEFAULT_LANGUAGE, parseLanguage, type Language } from "../domain/languages";

/** The languages the server wrote the page in: the document's, and a public page's own (its `main`, app/routes/charge/charger-page.tsx). */
function pageLanguages(): Set<Language> {
  const own = parseLanguage(document.querySelector("main[lang]")?.getAttribute("lang"));
  return new Set([parseLanguage(document.documentElement.lang) ?? DEFAULT_LANGUAGE, ...(own ? [own] : [])]);
}

// React Router's own entry, once the page's catalogues are at hand: hydration never waits for
// one (app/lib/use-i18n.ts), and one that failed to load is fetched again by the render.
void Promise.allSettled([...pageLanguages()].map(loadCatalogue)).then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
