/** The six console languages (docs/architecture.md "Languages"). English is the default. */
export const LANGUAGES = ["zh", "en", "zh_TW", "pl", "pt_BR", "de"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_COOKIE = "lang";

/** Native names for the language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  zh: "简体中文",
  en: "English",
  zh_TW: "繁體中文",
  pl: "Polski",
  pt_BR: "Português (Brasil)",
  de: "Deutsch",
};

/** Reads a language tag as clients send it (`pt-BR`, `pt_BR`, `zh-tw`, `de-DE`…). */
export function parseLanguage(value: string | null | undefined): Language | undefined {
  if (!value) return undefined;
  const tag = value.trim().replace("-", "_").toLowerCase();
  const exact = LANGUAGES.find((l) => l.toLowerCase() === tag);
  if (exact) return exact;
  if (tag === "zh_hant" || tag === "zh_hk") return "zh_TW";
  if (tag.startsWith("pt")) return "pt_BR";
  const base = tag.split("_")[0];
  return LANGUAGES.find((l) => l === base);
}

/**
 * i18next wants BCP-47-ish names only for formatting; our keys keep the product's spelling
 * (docs/architecture.md "Languages").
 */
export function intlLocale(language: Language): string {
  return language.replace("_", "-");
}
