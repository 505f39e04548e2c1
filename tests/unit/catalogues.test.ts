import wranglerToml from "../../wrangler.toml?raw";
import devVars from "../../.dev.vars?raw";
import { describe, expect, it } from "vitest";
import { CATALOGUES, flatKeys } from "../../domain/i18n/catalogues";
import { LANGUAGES } from "../../domain/languages";
import { flattenCatalogue } from "../../tenants/menu-catalogue";

const english = CATALOGUES.en;
/** Plural forms English has no use for (Polish `_few`, `_many`) are the language's own, beside its `_one` and `_other`. */
const OWN_PLURALS = /_(zero|two|few|many)$/;
const englishKeys = flatKeys(english).sort();
const lookup = (tree: Record<string, unknown>, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

describe("the six catalogues", () => {
  it.each(LANGUAGES.filter((l) => l !== "en"))("%s has exactly the English keys", (language) => {
    const keys = flatKeys(CATALOGUES[language]).sort();
    expect(englishKeys.filter((k) => !keys.includes(k))).toEqual([]);
    expect(keys.filter((k) => !englishKeys.includes(k) && !(OWN_PLURALS.test(k) && keys.includes(k.replace(OWN_PLURALS, "_other"))))).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== "en"))("%s is translated, not an English copy", (language) => {
    const same = englishKeys.filter((k) => lookup(CATALOGUES[language], k) === lookup(english, k));
    // A few words are the same in several languages (EMSP, CDRs, OK…); most must differ.
    expect(same.length / englishKeys.length).toBeLessThan(0.1);
  });

  it("names every menu title and page of the catalogue", () => {
    for (const { entry } of flattenCatalogue()) {
      expect(lookup(english, entry.titleKey), entry.titleKey).toEqual(expect.any(String));
      for (const page of entry.pages ?? []) expect(lookup(english, page.titleKey), page.titleKey).toEqual(expect.any(String));
    }
  });

  it("keeps the same {{placeholders}} in every language", () => {
    for (const key of englishKeys) {
      const wanted = String(lookup(english, key)).match(/\{\{\w+\}\}/g)?.sort() ?? [];
      for (const language of LANGUAGES) {
        const found = String(lookup(CATALOGUES[language], key)).match(/\{\{\w+\}\}/g)?.sort() ?? [];
        expect(found, `${language}: ${key}`).toEqual(wanted);
      }
    }
  });
});

describe("deployed configuration", () => {
  it("never carries the development captcha", () => {
    expect(wranglerToml).not.toMatch(/DEV_CAPTCHA/);
    expect(devVars).toMatch(/^DEV_CAPTCHA=1234$/m);
  });
});
