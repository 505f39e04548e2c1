import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * Tenant filter for every query of a tenant-owned table (ARCHITECTURE.md §8). Services build
 * their `where` with `owned(ctx, table, …)`, so the operator column is never forgotten and
 * another tenant's id simply finds nothing (404).
 */
export interface TenantScope {
  operator: { id: number };
}

export function owned(scope: TenantScope, table: { operatorId: SQLiteColumn }, ...conditions: (SQL | undefined)[]) {
  return and(eq(table.operatorId, scope.operator.id), ...conditions) as SQL;
}
