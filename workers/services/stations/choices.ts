import { desc, eq } from "drizzle-orm";
import { points, stations } from "../../../db/schema";
import { owned } from "../../../tenants/scope";
import type { UserCtx } from "../context";

/**
 * The operator's locations (with their load power) and, for one of them, its points: what the
 * operations forms choose devices from (docs/rules/lists.md "Pickers": 1 000 locations, 500
 * points). Each screen's verb wraps it with its own menu.
 */
export async function deviceChoices(ctx: UserCtx, stationId: number | null) {
  const [stationRows, pointRows] = await Promise.all([
    ctx.db
      .select({ id: stations.id, name: stations.name, powerLimitW: stations.powerLimitW })
      .from(stations)
      .where(owned(ctx, stations))
      .orderBy(desc(stations.rank), stations.name)
      .limit(1000),
    stationId
      ? ctx.db
          .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, online: points.online, firmwareVersion: points.firmwareVersion })
          .from(points)
          .where(owned(ctx, points, eq(points.stationId, stationId)))
          .orderBy(points.serialNumber)
          .limit(500)
      : Promise.resolve([]),
  ]);
  return {
    stations: stationRows.map((s) => ({ id: s.id, name: s.name, powerLimit: s.powerLimitW === null ? null : s.powerLimitW / 1000 })),
    points: pointRows,
  };
}
