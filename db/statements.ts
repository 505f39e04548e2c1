import { fillPlaceholders, is, SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

/** D1 binds at most 100 parameters per statement: long lists go one slice per statement. */
export { slices } from "../domain/slices";

/**
 * Ids or names per `IN (…)` list, leaving room for the rest of the statement: the scope of the
 * most narrowed user (a maintainer of a sub-operator binds 13 parameters, tenants/scope.ts
 * `visible`) and a filter or two (docs/rules/lists.md "D1's 100 parameters").
 */
export const IN_LIST = 85;
/** Connector rows per insert: seven bound columns each. */
export const CONNECTOR_ROWS = 14;

/** `db.batch` for a statement list built at run time (drizzle types it as a non-empty tuple). */
export function batchOf(db: Db, statements: BatchItem<"sqlite">[]): Promise<unknown[]> {
  if (statements.length === 0) return Promise.resolve([]);
  return db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

const dialect = new SQLiteAsyncDialect();

/**
 * A statement prepared for D1 itself, from raw SQL or a drizzle query builder. Drizzle cannot
 * put raw SQL with parameters into a batch, so batches that need raw statements (conditional
 * inserts, recursive CTEs) go to `D1Database.batch` with these.
 */
export function d1Statement(d1: D1Database, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const built = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  return d1.prepare(built.sql).bind(...built.params);
}

/**
 * A statement drizzle builds once, with named placeholders (`sql.placeholder`) where its values
 * go, prepared for D1 itself at each use with that use's values (`fillPlaceholders` maps a value
 * through its column, as drizzle would): the SQL is the same text drizzle makes, without drizzle
 * building it again. Building costs more CPU than the statement's own turn in a local D1 batch,
 * and a burst of charger statuses paid it three times per status
 * (docs/performance.md "Statuses without drizzle's building").
 */
export function statementTemplate<V extends Record<string, unknown>>(build: (db: Db) => SQL | { toSQL(): { sql: string; params: unknown[] } }) {
  let built: { sql: string; params: unknown[] } | undefined;
  return (db: Db, values: V): D1PreparedStatement => {
    if (!built) {
      const query = build(db);
      built = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
    }
    return db.$client.prepare(built.sql).bind(...fillPlaceholders(built.params, values));
  };
}

/**
 * Whether a statement failed on a unique index (the row was taken meanwhile by a concurrent
 * request): the pre-check's answer then stands (docs/decisions/0002-d1-without-interactive-transactions.md).
 */
export function isUniqueViolation(error: unknown): boolean {
  return failedOn(error, /UNIQUE constraint failed/i);
}

/** Whether a statement failed on a check of the schema (a rule the batch's own rows broke). */
export function isCheckViolation(error: unknown, name: string): boolean {
  return failedOn(error, new RegExp(`CHECK constraint failed: ${name}`, "i"));
}

function failedOn(error: unknown, pattern: RegExp): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (pattern.test(String((e as { message?: unknown }).message ?? e))) return true;
  }
  return false;
}
