import { drizzle } from "drizzle-orm/d1";
import { eq, gte, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { points, stations, transactions } from "../../db/schema";
import { IN_LIST } from "../../db/statements";
import { type TenantScope, visible, visibleStations } from "../../tenants/scope";

/**
 * D1 binds at most 100 parameters per statement (docs/rules/lists.md "D1's 100 parameters"): an id
 * list of IN_LIST ids must leave room for the scope of the most narrowed user and a filter or two.
 * The statements are only built here, never run.
 */
const db = drizzle({} as D1Database, { schema });
const ids = Array.from({ length: IN_LIST }, (_, i) => i + 1);
/** An operator, or a sub-operator of `parentId`. */
const operatorOf = (id: number, parentId: number | null) => ({ id, parentId, sub: parentId === null ? 0 : 1 });
const scopes: Record<string, TenantScope> = {
  "an operator's staff": { db, operator: operatorOf(7, null), actor: { kind: "user", accountId: 3, role: { type: "NORMAL" } } },
  "a sub-operator's staff": { db, operator: operatorOf(8, 7), actor: { kind: "user", accountId: 3, role: { type: "NORMAL" } } },
  "a maintainer of a sub-operator": { db, operator: operatorOf(8, 7), actor: { kind: "user", accountId: 3, role: { type: "MAINTAINER" } } },
};

describe("an id list of IN_LIST in the most narrowed scope", () => {
  it.each(Object.entries(scopes))("stays within D1's 100 parameters with two filters more, for %s", (_, scope) => {
    const running = db
      .select()
      .from(transactions)
      .where(visible(scope, transactions, transactions.pointId, inArray(transactions.pointId, ids), eq(transactions.status, "ACTIVE"), gte(transactions.startAt, new Date(0))));
    expect(running.toSQL().params.length).toBeLessThanOrEqual(100);
    const named = db
      .select()
      .from(stations)
      .where(visibleStations(scope, inArray(stations.name, ids.map(String)), eq(stations.publishToRoaming, true)));
    expect(named.toSQL().params.length).toBeLessThanOrEqual(100);
    const ofPoints = db
      .select()
      .from(points)
      .where(visible(scope, points, points.id, inArray(points.id, ids), eq(points.status, "VALID")));
    expect(ofPoints.toSQL().params.length).toBeLessThanOrEqual(100);
  });
});
