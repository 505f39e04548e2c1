import { and, eq, exists, inArray, isNull } from "drizzle-orm";
import { chargeStrategies, points, stations } from "../../../db/schema";
import { rowsFor } from "../../../db/paging";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";

/** Which strategies we publish as tariffs (docs/rules/ocpi.md "Tariffs we publish"). */

/**
 * A strategy is published while a public point of a published station charges by it: the
 * condition on `chargeStrategies`, which the caller scopes with `owned` (tenants/scope.ts).
 */
export const publishedStrategy = (ctx: Ctx) =>
  and(
    isNull(chargeStrategies.deletedAt),
    exists(
      ctx.db
        .select({ id: points.id })
        .from(points)
        .innerJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
        .where(owned(ctx, points, eq(points.chargeStrategyId, chargeStrategies.id), eq(points.privateType, "Public"), eq(stations.publishToRoaming, true))),
    ),
  );

/** Which of these strategies are published. */
export async function publishedStrategyIds(ctx: Ctx, ids: readonly number[]): Promise<number[]> {
  const rows = await rowsFor(ids, (slice) => ctx.db.select({ id: chargeStrategies.id }).from(chargeStrategies).where(owned(ctx, chargeStrategies, publishedStrategy(ctx), inArray(chargeStrategies.id, slice))));
  return rows.map((r) => r.id);
}

