/** A catalogue, or a part of one: nested keys down to strings. */
export type Tree = Record<string, unknown>;

/** A language's JSON files as `import.meta.glob` gives them, one per part of the console. */
export type CatalogueFiles = Record<string, { default: Tree }>;

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

/** One language's catalogue: every file of its folder (`translation.json`, `ui.json`…) merged into one resource. */
export function catalogueOf(files: CatalogueFiles): Tree {
  const catalogue: Tree = {};
  for (const file of Object.values(files)) merge(catalogue, file.default);
  return catalogue;
}
