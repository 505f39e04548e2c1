import type { i18n } from "i18next";
import type { Language } from "../languages";
import { CATALOGUES } from "./catalogues";
import { i18nInstance } from "./instance";

/** An i18next instance with all six catalogues: the worker's server messages, and tests. */
export function createI18n(language: Language): i18n {
  return i18nInstance(language, CATALOGUES);
}
