import { AsyncLocalStorage } from "node:async_hooks";
import { and, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { maintainerDevices, maintainers, points, stations, subOperatorDevices } from "../db/schema";

/**
 * Tenancy, structurally (docs/rules/tenancy.md). This module is the only way a service reads
 * or writes a table that has `operator_id`: every `where` of such a table is built by
 * `owned`, `ownedBy`, `visible` or `visibleStations`, every insert by `ownedRow(s)`, and the
 * few reads that must cross tenants say why with `acrossTenants(reason, …)`. A unit test
 * (tests/unit/tenancy.test.ts) fails when a query of a tenant-owned table is built any other
 * way, so a forgotten filter fails CI instead of leaking another operator's rows.
 */

declare const tenantFilter: unique symbol;
/**
 * A `where` built here. A helper that receives its filter from a caller types the parameter
 * `TenantFilter`, so only a filter built by this module can be passed in.
 */
export type TenantFilter = SQL & { readonly [tenantFilter]: true };

/**
 * Whose rows a context reads and writes: its operator (for a sub-operator, its parent's devices);
 * the acting user, when there is one, narrows the devices of a maintainer to their own.
 */
export interface TenantScope {
  db: Db;
  operator: { id: number; sub: number; parentId: number | null };
  actor?: { kind: string; accountId?: number; role?: { type: string } | null };
}

type Owned = { operatorId: SQLiteColumn };
/** Anything that names the operator it acts for. */
type Owner = { operator: { id: number } };

/** Rows of one operator, by its id (for contexts that know only the id: login, a charger). */
export function ownedBy(operatorId: number, table: Owned, ...conditions: (SQL | undefined)[]): TenantFilter {
  return and(eq(table.operatorId, operatorId), ...conditions) as TenantFilter;
}

/** Rows of the context's own operator; another operator's id simply finds nothing (404). */
export function owned(scope: Owner, table: Owned, ...conditions: (SQL | undefined)[]): TenantFilter {
  return ownedBy(scope.operator.id, table, ...conditions);
}

/** A row to insert, stamped with the context's operator. */
export function ownedRow<T extends object>(scope: Owner, values: T): T & { operatorId: number } {
  return { ...values, operatorId: scope.operator.id };
}

/** Rows to insert, each stamped with the context's operator. */
export function ownedRows<T extends object>(scope: Owner, values: readonly T[]): (T & { operatorId: number })[] {
  return values.map((v) => ownedRow(scope, v));
}

/**
 * Who the verb running now acts for, set by every verb (workers/services/verb.ts) for the length
 * of its call: `acrossTenants` reads it, so a cross-tenant query inside a verb a user can call is
 * refused however deep the helper that builds it. Outside any verb (the session lookup that
 * builds a user's context, a host's operator) nobody has been admitted yet, and nothing is read
 * for a user.
 */
export interface TenantCaller {
  /** A logged-in user of some operator (the console, the API). */
  user: boolean;
  /** The platform's own tenant, whose screens manage every operator (docs/rules/tenancy.md "Operators"). */
  platform: boolean;
}
const caller = new AsyncLocalStorage<TenantCaller>();

/** Runs a verb's body as `who`: what `acrossTenants` refuses depends on it. */
export function actingAs<T>(who: TenantCaller, run: () => T): T {
  return caller.run(who, run);
}

/** A cross-tenant query attempted for a caller that may not make one: a bug, never a user's mistake. */
export class TenantCrossingRefused extends Error {
  constructor(reason: string) {
    super(`acrossTenants is refused in a verb a user can call (${reason})`);
    this.name = "TenantCrossingRefused";
  }
}

/**
 * A query that deliberately reads or writes across operators (docs/rules/tenancy.md "Crossing
 * tenants"): the platform-wide charger lookup by serial number, housekeeping of every operator's
 * expired rows, the lookups that find the tenant from a token or a host. `reason` says why, in
 * words a reviewer can check; a verb a user of an operator calls never crosses (the platform's
 * own screens manage every operator, so its users may), and is refused with
 * `TenantCrossingRefused`: such a verb asks a system verb for the one fact it needs instead.
 */
export function acrossTenants(reason: string, ...conditions: (SQL | undefined)[]): SQL | undefined {
  if (reason.trim().length < 10) throw new Error("acrossTenants needs a reason of at least ten characters");
  const who = caller.getStore();
  if (who?.user && !who.platform) throw new TenantCrossingRefused(reason);
  return and(...conditions);
}

// ── devices: an operator sees its own, a sub-operator the devices assigned to it ──────────────

/**
 * A sub-operator owns no equipment: it sees the rows of its parent that are assigned to it, the
 * points assigned directly and every point of an assigned station. Subqueries rather than id
 * lists, because D1 binds at most 100 parameters per statement.
 */
export function deviceOwner(scope: Pick<TenantScope, "operator">): number {
  const { operator } = scope;
  // A sub-operator without a parent is broken data: it then reads its own (empty) rows.
  return operator.sub === 1 && operator.parentId ? operator.parentId : operator.id;
}

const isSub = (scope: Pick<TenantScope, "operator">) => scope.operator.sub === 1;

/** The stations or points assigned to a scope, as a subquery of ids. */
type Assigned = (column: "stationId" | "pointId") => SQLiteSelectSubquery;
type SQLiteSelectSubquery = ReturnType<typeof idsOf>;

function idsOf(scope: TenantScope, column: SQLiteColumn, where: TenantFilter) {
  return scope.db.select({ id: column }).from(column.table).where(where);
}

/** A sub-operator's devices: those its parent assigned to it. */
const subOperatorAssigned =
  (scope: TenantScope): Assigned =>
  (column) =>
    idsOf(
      scope,
      subOperatorDevices[column],
      ownedBy(deviceOwner(scope), subOperatorDevices, eq(subOperatorDevices.subOperatorId, scope.operator.id), isNotNull(subOperatorDevices[column])),
    );

/**
 * A maintainer's devices: the stations and points their maintainer row answers for
 * (docs/rules/maintenance.md "Maintainers"); an account never made a maintainer has none.
 */
const maintainerAssigned =
  (scope: TenantScope, accountId: number): Assigned =>
  (column) =>
    idsOf(
      scope,
      maintainerDevices[column],
      ownedBy(
        deviceOwner(scope),
        maintainerDevices,
        inArray(maintainerDevices.maintainerId, idsOf(scope, maintainers.id, ownedBy(deviceOwner(scope), maintainers, eq(maintainers.accountId, accountId)))),
        isNotNull(maintainerDevices[column]),
      ),
    );

/**
 * What narrows a scope's devices: nothing for an operator's staff, the assignment of a
 * sub-operator, the assignment of a maintainer (an account whose role type is MAINTAINER). Each
 * narrows on its own, so a maintainer of a sub-operator would see the intersection.
 */
function narrowings(scope: TenantScope): Assigned[] {
  const out: Assigned[] = [];
  if (isSub(scope)) out.push(subOperatorAssigned(scope));
  const { actor } = scope;
  if (actor?.kind === "user" && actor.role?.type === "MAINTAINER") out.push(maintainerAssigned(scope, actor.accountId ?? 0));
  return out;
}

/** The points of an assignment: those assigned directly and every point of an assigned station. */
function pointsOf(scope: TenantScope, assigned: Assigned) {
  return idsOf(scope, points.id, ownedBy(deviceOwner(scope), points, or(inArray(points.stationId, assigned("stationId")), inArray(points.id, assigned("pointId")))));
}

/**
 * `where` for a device table (points, connectors, transactions, alarms…): the operator's rows,
 * narrowed for a sub-operator or a maintainer to their devices through `pointColumn`.
 */
export function visible(scope: TenantScope, table: Owned, pointColumn: SQLiteColumn, ...conditions: (SQL | undefined)[]): TenantFilter {
  return ownedBy(deviceOwner(scope), table, ...narrowings(scope).map((assigned) => inArray(pointColumn, pointsOf(scope, assigned))), ...conditions);
}

/** `where` for stations: the assigned stations and the stations of the assigned points. */
export function visibleStations(scope: TenantScope, ...conditions: (SQL | undefined)[]): TenantFilter {
  const narrowed = narrowings(scope).map((assigned) =>
    or(
      inArray(stations.id, assigned("stationId")),
      inArray(stations.id, idsOf(scope, points.stationId, ownedBy(deviceOwner(scope), points, inArray(points.id, assigned("pointId"))))),
    ),
  );
  return ownedBy(deviceOwner(scope), stations, ...narrowed, ...conditions);
}

/** The visible point ids (null: all of the operator's), for the live view's socket scope. */
export async function visiblePointIds(scope: TenantScope): Promise<number[] | null> {
  if (narrowings(scope).length === 0) return null;
  const rows = await idsOf(scope, points.id, visible(scope, points, points.id));
  return rows.map((r) => Number(r.id));
}
