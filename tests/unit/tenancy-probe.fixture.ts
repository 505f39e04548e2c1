// A service as it must never be written: read by tests/unit/tenancy.test.ts to prove the
// structural tenancy check fails on a forgotten tenant filter. Never imported.
import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { operators, points, stations } from "../../db/schema";
import { acrossTenants, owned, type TenantScope } from "../../tenants/scope";

export async function leaky(db: Db, id: number) {
  await db.select().from(points).where(eq(points.id, id));
  await db.select().from(stations);
  await db.insert(stations).values({ operatorId: 1, name: "x" });
}

/** An alias is its table. */
const other = alias(points, "other");
export const aliased = (db: Db, id: number) => db.select().from(other).where(eq(other.id, id));

/** Raw statements that name a tenant table, in their text or interpolated, without a filter. */
export async function raw(db: Db, scope: TenantScope, id: number, name: string) {
  await db.run(sql`UPDATE points SET name = ${name} WHERE id = ${id}`);
  await db.all(sql`SELECT name FROM ${stations} WHERE ${stations.id} = ${id}`);
  // tenancy:
  await db.run(sql`DELETE FROM stations WHERE id = ${id}`);
  // Scoped: these pass.
  await db.run(sql`UPDATE points SET name = ${name} WHERE id = ${id} AND operator_id = ${scope.operator.id}`);
  await db.all(sql`SELECT name FROM ${stations} WHERE ${owned(scope, stations, eq(stations.id, id))}`);
  // tenancy: a probe of the marker, which passes with a reason
  await db.run(sql`DELETE FROM stations WHERE id = ${id}`);
}

/** Rows copied into a tenant table from a query that reads no tenant table, or a raw SELECT without the operator. */
export async function copies(db: Db, id: number) {
  await db.insert(stations).select(db.select().from(operators).where(eq(operators.id, id)) as never);
  await db.insert(stations).select(sql`select null, ${id}, 'x'`);
}

/** drizzle's relational queries and counts, unscoped; then scoped, which pass. */
export async function relational(db: Db, scope: TenantScope, id: number) {
  await db.query.points.findMany();
  await db.query.stations.findFirst({ where: eq(stations.id, id) });
  await db.$count(points);
  await db.query.points.findMany({ where: owned(scope, points, eq(points.id, id)) });
  const where = owned(scope, stations);
  await db.query.stations.findFirst({ where });
  await db.$count(points, owned(scope, points));
}

/** A crossing without a written reason; then one with a reason, which passes. */
export async function crossing(db: Db, why: string) {
  await db.select().from(points).where(acrossTenants(" "));
  await db.select().from(points).where(acrossTenants(why));
  await db.select().from(points).where(acrossTenants("serial numbers are unique across the platform"));
}
