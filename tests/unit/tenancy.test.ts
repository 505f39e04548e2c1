import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";

/**
 * Tenancy is structural (docs/rules/tenancy.md): every query of a table with `operator_id`, in
 * every service, job, Durable Object and console server module, is built through
 * tenants/scope.ts. This test reads the code as TypeScript and fails on a query that is not, so a
 * forgotten tenant filter fails CI instead of leaking another operator's rows.
 */

const root = join(import.meta.dirname, "../..");

/** Every table of the schema that has an `operator_id` column, by its export name. */
const tenantTables = Object.entries(schema)
  .filter(([, value]) => value instanceof SQLiteTable)
  .filter(([, table]) => getTableConfig(table as SQLiteTable).columns.some((c) => c.name === "operator_id"))
  .map(([name]) => name);

/** The calls of tenants/scope.ts that build a tenant-filtered `where`. */
const FILTERS = new Set(["owned", "ownedBy", "visible", "visibleStations", "acrossTenants"]);
/** The calls that stamp rows to insert with their operator. */
const STAMPS = new Set(["ownedRow", "ownedRows"]);

function files(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, keep);
    return keep(path) ? [path] : [];
  });
}

/** Where queries may live: the Worker, the tenancy module, and the console's server modules. */
const sources = [
  ...files(join(root, "workers"), (p) => p.endsWith(".ts")),
  ...files(join(root, "tenants"), (p) => p.endsWith(".ts")),
  ...files(join(root, "app"), (p) => p.endsWith(".server.ts")),
];

const calleeName = (node: ts.CallExpression) =>
  ts.isIdentifier(node.expression) ? node.expression.text : ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : undefined;

/**
 * The declarations of a file by name: `const x = …`, `function x(…) { return … }`, and
 * parameters typed `TenantFilter` (only tenants/scope.ts can build one).
 */
function declarations(file: ts.SourceFile) {
  const found = new Map<string, ts.Node>();
  const visit = (node: ts.Node) => {
    if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.type?.getText() === "TenantFilter") found.set(node.name.text, node);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) found.set(node.name.text, node.initializer);
    if (ts.isFunctionDeclaration(node) && node.name && node.body) found.set(node.name.text, node.body);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Whether an expression is built by one of `names`, directly or through a local name. */
function builtBy(expr: ts.Node, names: Set<string>, decls: Map<string, ts.Node>, depth = 0): boolean {
  if (depth > 4) return false;
  if (ts.isParameter(expr)) return true;
  // `await recordFilter(…)`: an async helper's filter counts as what the helper returns.
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isAwaitExpression(expr)) return builtBy(expr.expression, names, decls, depth);
  if (ts.isConditionalExpression(expr)) return builtBy(expr.whenTrue, names, decls, depth) && builtBy(expr.whenFalse, names, decls, depth);
  if (ts.isCallExpression(expr)) {
    const name = calleeName(expr);
    if (name && names.has(name)) return true;
    // A local helper that returns such an expression: `const periodWhere = (from) => visible(…)`.
    const local = name && decls.get(name);
    return Boolean(local && builtBy(local, names, decls, depth + 1));
  }
  if (ts.isIdentifier(expr)) {
    const local = decls.get(expr.text);
    return Boolean(local && builtBy(local, names, decls, depth + 1));
  }
  if (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr)) return builtBy(expr.body, names, decls, depth);
  if (ts.isBlock(expr)) {
    const returns: ts.Expression[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isReturnStatement(node) && node.expression) returns.push(node.expression);
      else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
    };
    visit(expr);
    return returns.length > 0 && returns.every((r) => builtBy(r, names, decls, depth));
  }
  return false;
}

/** The calls chained on after `node` (`….from(t).leftJoin(…).where(…)`), by method name. */
function chainAfter(node: ts.CallExpression): Map<string, ts.CallExpression> {
  const chain = new Map<string, ts.CallExpression>();
  let current: ts.Node = node;
  while (ts.isPropertyAccessExpression(current.parent) && ts.isCallExpression(current.parent.parent)) {
    const call = current.parent.parent;
    chain.set(current.parent.name.text, call);
    current = call;
  }
  return chain;
}

interface Finding {
  where: string;
  table: string;
  problem: string;
}

function check(path: string): Finding[] {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const decls = declarations(file);
  const findings: Finding[] = [];
  const at = (node: ts.Node) => `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      const table = first && ts.isIdentifier(first) && tenantTables.includes(first.text) ? first.text : undefined;
      if (table && ["from", "update", "delete"].includes(method)) {
        const where = chainAfter(node).get("where");
        if (!where) findings.push({ where: at(node), table, problem: `${method} without where` });
        else if (!builtBy(where.arguments[0], FILTERS, decls)) findings.push({ where: at(node), table, problem: "where not built by tenants/scope.ts" });
      }
      if (table && method === "insert") {
        const chain = chainAfter(node);
        const values = chain.get("values");
        // `insert(t).select(query)` copies rows a tenant-filtered query reads (the query is checked on its own).
        const copied = chain.has("select") && !values;
        if (!copied && (!values || !builtBy(values.arguments[0], STAMPS, decls))) findings.push({ where: at(node), table, problem: "insert not stamped by ownedRow(s)" });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}

describe("tenancy is structural", () => {
  it("knows the tenant-owned tables", () => {
    expect(tenantTables).toEqual(expect.arrayContaining(["points", "stations", "transactions", "accounts", "roles", "operationLogs", "chargeStrategies", "chargeStrategyVersions"]));
  });

  it("builds every query of a tenant-owned table through tenants/scope.ts", () => {
    const findings = sources.flatMap(check);
    expect(findings.map((f) => `${f.where} ${f.table}: ${f.problem}`)).toEqual([]);
  });

  it("lets no Durable Object, job or live module touch a table directly: they call verbs", () => {
    const direct = [
      ...files(join(root, "workers/ocpp"), (p) => p.endsWith(".ts")),
      ...files(join(root, "workers/jobs"), (p) => p.endsWith(".ts")),
      ...files(join(root, "workers/live"), (p) => p.endsWith(".ts")),
    ].filter((p) => /from "(\.\.\/)+db\/schema"/.test(readFileSync(p, "utf8")));
    expect(direct.map((p) => relative(root, p))).toEqual([]);
  });

  it("catches a forgotten filter (the check itself can fail)", () => {
    const probe = join(import.meta.dirname, "tenancy-probe.fixture.ts");
    const findings = check(probe).map((f) => f.problem);
    expect(findings).toEqual(["where not built by tenants/scope.ts", "from without where", "insert not stamped by ownedRow(s)"]);
  });
});
