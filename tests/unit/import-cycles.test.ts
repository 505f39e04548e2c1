import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No two modules of workers/services import each other (docs/architecture.md "Folders and what
 * may import what"): a piece both need lives in the module that owns it. Type-only imports count
 * too, since a shared type is a shared piece that sits in the wrong module.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const FOLDERS = ["workers", "app", "domain", "db", "tenants"];

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names, as TypeScript's bundler resolution finds it. */
function resolveRelative(from: string, specifier: string) {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find((p) => existsSync(p) && statSync(p).isFile());
}

/** Every file's relative imports and re-exports (static, dynamic and type-only), by repository path. */
function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .filter((i) => i.fileName.startsWith("."))
      .map((i) => resolveRelative(file, i.fileName))
      .filter((p): p is string => p !== undefined)
      .map((p) => relative(root, p));
    graph.set(relative(root, file), new Set(targets));
  }
  return graph;
}

/** Pairs of files that import each other, at least one of them under `within`. */
function twoFileCycles(graph: Graph, within: string) {
  const pairs: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (file < target && graph.get(target)?.has(file) && (file.startsWith(within) || target.startsWith(within))) pairs.push(`${file} <-> ${target}`);
    }
  }
  return pairs.sort();
}

describe("import cycles", () => {
  it("finds a pair of files that import each other, and only such a pair", () => {
    const graph: Graph = new Map([
      ["workers/services/billing/billing.ts", new Set(["workers/services/payments/capture.ts", "domain/pricing.ts"])],
      ["workers/services/payments/capture.ts", new Set(["workers/services/billing/billing.ts"])],
      ["domain/pricing.ts", new Set<string>()],
      ["app/a.ts", new Set(["app/b.ts"])],
      ["app/b.ts", new Set(["app/a.ts"])],
    ]);
    expect(twoFileCycles(graph, "workers/services/")).toEqual(["workers/services/billing/billing.ts <-> workers/services/payments/capture.ts"]);
  });

  it("reads type-only imports and re-exports as imports", () => {
    const { importedFiles } = ts.preProcessFile('import type { Payer } from "./payer";\nexport { PAYABLE } from "./states";\n', true, true);
    expect(importedFiles.map((i) => i.fileName)).toEqual(["./payer", "./states"]);
  });

  it("has no two files of workers/services that import each other", () => {
    const graph = importGraph();
    expect(graph.has("workers/services/billing/settlement.ts")).toBe(true);
    expect(twoFileCycles(graph, "workers/services/")).toEqual([]);
  });
});
