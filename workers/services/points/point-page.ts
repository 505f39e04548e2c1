import { asc, count, eq, inArray } from "drizzle-orm";
import { groupBy, pageOf, rowsFor, type PageRequest } from "../../../db/paging";
import { connectors, points, stations } from "../../../db/schema";
import { deviceOwner, ownedBy, type TenantFilter } from "../../../tenants/scope";
import type { Ctx } from "../context";

/**
 * A page of points, by serial number, with their station's name and their connectors: the one
 * read behind the point list, the monitoring pile list and the sub-operator's point list. The
 * connectors of a full page are read in slices (docs/rules/lists.md).
 */
export async function pointsWithConnectors(ctx: Ctx, request: PageRequest, where: TenantFilter) {
  const page = await pageOf(
    request,
    ({ limit, offset }) =>
      ctx.db
        .select({ point: points, stationName: stations.name })
        .from(points)
        .leftJoin(stations, eq(stations.id, points.stationId))
        .where(where)
        .orderBy(asc(points.serialNumber))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(points).where(where))[0].total,
  );
  const byPoint = groupBy(
    await rowsFor(
      page.records.map((r) => r.point.id),
      // The points are already the visible ones: their connectors belong to the same operator.
      (slice) => ctx.db.select().from(connectors).where(ownedBy(deviceOwner(ctx), connectors, inArray(connectors.pointId, slice))).orderBy(asc(connectors.connectorNo)),
    ),
    (c) => c.pointId,
  );
  return { ...page, records: page.records.map((r) => ({ ...r, connectors: byPoint.get(r.point.id) ?? [] })) };
}
