import { and, eq } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { customerGroups, customers } from "../../../db/schema";
import type { TenantScope } from "../../../tenants/scope";

/**
 * How a query reaches the driver a row names: the customer, then the customer's group, each
 * joined on its id and on the caller's operator, so that a join never brings in another
 * operator's driver even where an id would match (docs/rules/tenancy.md "The scope module": the
 * `where` scopes the row, these scope what it is joined to).
 */

/** The customer whose id `customerId` holds (a card's, a bill's, a group's leader…), of the caller's operator. */
export const customerJoin = (scope: Pick<TenantScope, "operator">, customerId: SQLiteColumn) =>
  and(eq(customers.id, customerId), eq(customers.operatorId, scope.operator.id));

/** The group of the customer joined before, of the caller's operator. */
export const customerGroupJoin = (scope: Pick<TenantScope, "operator">) =>
  and(eq(customerGroups.id, customers.groupId), eq(customerGroups.operatorId, scope.operator.id));
