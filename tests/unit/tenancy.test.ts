import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { acrossTenants, TenantCrossingRefused } from "../../tenants/scope";
import { systemCtx } from "../../workers/services/context";
import { verb } from "../../workers/services/verb";

/**
 * Tenancy is structural (docs/rules/tenancy.md): every query of a table with `operator_id`, in
 * every service, job, Durable Object and console server module, is built through
 * tenants/scope.ts. This test reads the code as TypeScript and fails on a query that is not, so a
 * forgotten tenant filter fails CI instead of leaking another operator's rows.
 */

const root = join(import.meta.dirname, "../..");

/** Every table of the schema that has an `operator_id` column: export name → SQL name. */
const tenantTableNames = new Map(
  Object.entries(schema)
    .filter(([, value]) => value instanceof SQLiteTable)
    .map(([name, table]) => [name, getTableConfig(table as SQLiteTable)] as const)
    .filter(([, config]) => config.columns.some((c) => c.name === "operator_id"))
    .map(([name, config]) => [name, config.name]),
);
const tenantTables = [...tenantTableNames.keys()];
/** SQL name → export name, for raw SQL that names a table in its text. */
const bySqlName = new Map([...tenantTableNames].map(([name, sqlName]) => [sqlName, name]));

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

/** `const other = alias(points, "other")`: the alias stands for its tenant table, by local name. */
function aliases(file: ts.SourceFile) {
  const found = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer)) {
      const [first] = node.initializer.arguments;
      if (calleeName(node.initializer) === "alias" && first && ts.isIdentifier(first) && tenantTableNames.has(first.text)) found.set(node.name.text, first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * `// tenancy: <why>` before the statement (or the array element, argument…) that holds `node`:
 * the one way to leave a raw statement or an insert-select unscoped, and only with a reason.
 */
const MARKER = /^\/\/\s*tenancy:\s*\S.{9,}/;
function marked(node: ts.Node, text: string): boolean {
  for (let current: ts.Node | undefined = node; current && !ts.isSourceFile(current); current = current.parent) {
    const comments = ts.getLeadingCommentRanges(text, current.getFullStart()) ?? [];
    if (comments.some((c) => MARKER.test(text.slice(c.pos, c.end)))) return true;
    if (ts.isBlock(current.parent) || ts.isSourceFile(current.parent)) break;
  }
  return false;
}

/** `ctx.operator.id` and the like: the operator a raw statement stamps or compares with. */
const isOperatorId = (expr: ts.Expression) =>
  ts.isPropertyAccessExpression(expr) && expr.name.text === "id" && ts.isPropertyAccessExpression(expr.expression) && expr.expression.name.text === "operator";

/** Text before an interpolation that makes the interpolated table the one a statement reads or writes. */
const TABLE_KEYWORD = /\b(?:into|update|from|join)\s*$/i;
/** A tenant table named in a raw statement's own text. */
const TABLE_IN_TEXT = /\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|from|join)\s+["`]?([a-z_][a-z0-9_]*)/gi;

/** The tenant tables a `sql` template reads or writes, by export name. */
function rawTables(template: ts.TemplateLiteral, tables: Map<string, string>): string[] {
  const found: string[] = [];
  const literals = ts.isNoSubstitutionTemplateLiteral(template) ? [template.text] : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)];
  for (const literal of literals) for (const [, name] of literal.matchAll(TABLE_IN_TEXT)) if (bySqlName.has(name)) found.push(bySqlName.get(name)!);
  if (ts.isTemplateExpression(template)) {
    template.templateSpans.forEach((span, i) => {
      const before = i === 0 ? template.head.text : template.templateSpans[i - 1].literal.text;
      if (ts.isIdentifier(span.expression) && tables.has(span.expression.text) && TABLE_KEYWORD.test(before)) found.push(tables.get(span.expression.text)!);
    });
  }
  return found;
}

/** Whether a raw statement interpolates a filter of tenants/scope.ts or the operator's id. */
const rawScoped = (template: ts.TemplateLiteral, decls: Map<string, ts.Node>) =>
  ts.isTemplateExpression(template) && template.templateSpans.some((span) => isOperatorId(span.expression) || builtBy(span.expression, FILTERS, decls));

/** The `sql` template an expression is, if it is one. */
const sqlTemplate = (expr: ts.Node) => (ts.isTaggedTemplateExpression(expr) && ts.isIdentifier(expr.tag) && expr.tag.text === "sql" ? expr.template : undefined);

/** Whether the query an insert copies from reads a tenant table (whose `where` is then checked on its own). */
function readsTenantTable(expr: ts.Node, tables: Map<string, string>, decls: Map<string, ts.Node>, depth = 0): boolean {
  if (depth > 4) return false;
  let found = false;
  const visit = (node: ts.Node) => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "from") {
      const [first] = node.arguments;
      if (first && ts.isIdentifier(first) && tables.has(first.text)) found = true;
    }
    // A local helper that builds the query: `rowFor(ctx, …)`.
    const local = ts.isCallExpression(node) && calleeName(node) ? decls.get(calleeName(node)!) : undefined;
    if (local && readsTenantTable(local, tables, decls, depth + 1)) found = true;
    ts.forEachChild(node, visit);
  };
  visit(expr);
  return found;
}

/**
 * `db.query.<table>.findMany(…)` or `.findFirst(…)` of a tenant table (its relational name is its
 * export name): the table, the method, and the `where` of its options, if it has one.
 */
function relationalQuery(node: ts.Node, tables: Map<string, string>) {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return undefined;
  const method = node.expression.name.text;
  const owner = node.expression.expression;
  if (!["findMany", "findFirst"].includes(method) || !ts.isPropertyAccessExpression(owner)) return undefined;
  if (!ts.isPropertyAccessExpression(owner.expression) || owner.expression.name.text !== "query") return undefined;
  const table = tables.get(owner.name.text);
  if (!table) return undefined;
  const [options] = node.arguments;
  let where: ts.Node | undefined;
  if (options && ts.isObjectLiteralExpression(options)) {
    for (const property of options.properties) {
      if (property.name && ts.isIdentifier(property.name) && property.name.text === "where") {
        // `{ where: … }`, or `{ where }` naming a local filter.
        where = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
      }
    }
  }
  return { table, method, where };
}

/** `acrossTenants("<why>", …)`: a written reason of at least ten characters comes first. */
const hasReason = (node: ts.CallExpression) => {
  const [reason] = node.arguments;
  return Boolean(reason && (ts.isStringLiteral(reason) || ts.isNoSubstitutionTemplateLiteral(reason)) && reason.text.trim().length >= 10);
};

function check(path: string): Finding[] {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const decls = declarations(file);
  // The tenant tables by local name: their own names and their aliases.
  const tables = new Map([...tenantTables.map((name) => [name, name] as const), ...aliases(file)]);
  const findings: Finding[] = [];
  const at = (node: ts.Node) => `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  /** Rows an insert copies from a query: read from a tenant table, or a raw SELECT that is scoped. */
  const checkCopy = (node: ts.CallExpression, table: string, query: ts.Expression) => {
    while (ts.isAsExpression(query) || ts.isParenthesizedExpression(query)) query = query.expression;
    const raw = sqlTemplate(query);
    // A raw SELECT that names a tenant table is checked as any raw statement, below.
    if (raw ? rawScoped(raw, decls) || rawTables(raw, tables).length > 0 : readsTenantTable(query, tables, decls)) return;
    if (marked(node, text)) return;
    findings.push({ where: at(node), table, problem: raw ? "insert-select rows without a tenant filter or the operator id" : "insert-select not read from a tenant table" });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      const table = first && ts.isIdentifier(first) ? tables.get(first.text) : undefined;
      if (table && ["from", "update", "delete"].includes(method)) {
        const where = chainAfter(node).get("where");
        if (!where) findings.push({ where: at(node), table, problem: `${method} without where` });
        else if (!builtBy(where.arguments[0], FILTERS, decls)) findings.push({ where: at(node), table, problem: "where not built by tenants/scope.ts" });
      }
      if (table && method === "insert") {
        const chain = chainAfter(node);
        const values = chain.get("values");
        const copied = chain.get("select");
        if (copied && !values) checkCopy(node, table, copied.arguments[0]);
        else if (!values || !builtBy(values.arguments[0], STAMPS, decls)) findings.push({ where: at(node), table, problem: "insert not stamped by ownedRow(s)" });
      }
    }
    // drizzle's relational queries: `db.query.<table>.findMany/findFirst({ where })`.
    const relational = relationalQuery(node, tables);
    if (relational) {
      const where = relational.where;
      if (!where) findings.push({ where: at(node), table: relational.table, problem: `query.${relational.method} without where` });
      else if (!builtBy(where, FILTERS, decls)) findings.push({ where: at(node), table: relational.table, problem: "where not built by tenants/scope.ts" });
    }
    // `db.$count(table, filter)`: the filter is the count's `where`.
    if (ts.isCallExpression(node) && calleeName(node) === "$count") {
      const [first, filter] = node.arguments;
      const table = first && ts.isIdentifier(first) ? tables.get(first.text) : undefined;
      if (table && (!filter || !builtBy(filter, FILTERS, decls))) findings.push({ where: at(node), table, problem: "$count without a tenant filter" });
    }
    // A crossing of tenants says why, in words (docs/rules/tenancy.md "Crossing tenants").
    if (ts.isCallExpression(node) && calleeName(node) === "acrossTenants" && !hasReason(node)) findings.push({ where: at(node), table: "-", problem: "acrossTenants without a reason" });
    // A raw statement that reads or writes a tenant table carries its own tenant filter.
    const raw = sqlTemplate(node);
    if (raw) {
      const [table] = rawTables(raw, tables);
      if (table && !rawScoped(raw, decls) && !marked(node, text)) findings.push({ where: at(node), table, problem: "raw sql without a tenant filter or the operator id" });
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

  it("catches a forgotten filter (the check itself can fail)", () => {
    const probe = join(import.meta.dirname, "tenancy-probe.fixture.ts");
    const findings = check(probe).map((f) => f.problem);
    expect(findings).toEqual([
      "where not built by tenants/scope.ts",
      "from without where",
      "insert not stamped by ownedRow(s)",
      // points as `other`
      "where not built by tenants/scope.ts",
      // UPDATE points in the text
      "raw sql without a tenant filter or the operator id",
      // FROM ${stations}
      "raw sql without a tenant filter or the operator id",
      // a marker without a reason
      "raw sql without a tenant filter or the operator id",
      "insert-select not read from a tenant table",
      "insert-select rows without a tenant filter or the operator id",
      // db.query.points.findMany() with no options, db.query.stations.findFirst with a bare eq
      "query.findMany without where",
      "where not built by tenants/scope.ts",
      "$count without a tenant filter",
      // acrossTenants with a blank reason, and with a reason held in a variable
      "acrossTenants without a reason",
      "acrossTenants without a reason",
    ]);
  });
});

describe("crossing tenants", () => {
  const REASON = "serial numbers are unique across the platform";
  const cross = async () => acrossTenants(REASON);
  const userOf = (kind: "OPERATOR" | "PLATFORM") => ({ operator: { id: 7, kind }, actor: { kind: "user" as const, mustChangePassword: false } }) as never;
  const system = systemCtx({ DB: {} } as Env, { id: 7, code: "0PL007" }, "cron");

  const userVerb = verb({ menu: "session" }, cross);
  const systemVerb = verb({ actors: ["system"] }, cross);

  it("refuses a cross-tenant query in a verb an operator's user calls", async () => {
    await expect(userVerb(userOf("OPERATOR"))).rejects.toBeInstanceOf(TenantCrossingRefused);
  });

  it("lets the system, the platform's own users and code outside any verb cross, with a reason", async () => {
    await expect(systemVerb(system)).resolves.toBeUndefined();
    await expect(userVerb(userOf("PLATFORM"))).resolves.toBeUndefined();
    expect(acrossTenants(REASON)).toBeUndefined();
  });

  it("lets a user's verb ask a system verb, which crosses as the system", async () => {
    const asks = verb({ menu: "session" }, async () => systemVerb(system));
    await expect(asks(userOf("OPERATOR"))).resolves.toBeUndefined();
  });

  it("refuses a crossing without a reason", () => {
    expect(() => acrossTenants("  ")).toThrow(/needs a reason/);
  });
});
