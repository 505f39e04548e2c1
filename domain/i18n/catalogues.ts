import type { Language } from "../languages";
import type { Tree } from "./merge";
import de from "./languages/de";
import en from "./languages/en";
import pl from "./languages/pl";
import pt_BR from "./languages/pt_BR";
import zh from "./languages/zh";
import zh_TW from "./languages/zh_TW";

/**
 * The six catalogues, one folder per language, one JSON file per part of the console
 * (domain/i18n/merge.ts), all at once: the worker's server messages and the server's rendering
 * use them. The browser loads its page's language alone (domain/i18n/load.ts).
 */
export const CATALOGUES: Record<Language, Tree> = { zh, en, zh_TW, pl, pt_BR, de };

/** Flat list of dotted keys, for the catalogue-completeness test. */
export function flatKeys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === "object" ? flatKeys(value as Tree, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
