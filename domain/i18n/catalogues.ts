import { LANGUAGES, type Language } from "../languages";

/**
 * The six catalogues, one folder per language, one JSON file per part of the console
 * (`translation.json`, `ui.json`…). Every file of a language is merged into one resource;
 * the worker uses the same catalogues for server messages.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json", { eager: true });

type Tree = Record<string, unknown>;

function merge(target: Tree, source: Tree): Tree {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (value && typeof value === "object" && !Array.isArray(value) && existing && typeof existing === "object") {
      merge(existing as Tree, value as Tree);
    } else {
      target[key] = value;
    }
  }
  return target;
}

export const CATALOGUES: Record<Language, Tree> = Object.fromEntries(LANGUAGES.map((l) => [l, {} as Tree])) as Record<
  Language,
  Tree
>;

for (const [path, module] of Object.entries(files)) {
  const language = path.split("/")[2] as Language;
  if (CATALOGUES[language]) merge(CATALOGUES[language], module.default);
}

/** Flat list of dotted keys, for the catalogue-completeness test. */
export function flatKeys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === "object" ? flatKeys(value as Tree, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
