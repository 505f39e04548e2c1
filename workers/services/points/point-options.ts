import { and, asc, eq, not, or, type SQL } from "drizzle-orm";
import { containing, startingWith } from "../../../db/like";
import { points, stations } from "../../../db/schema";
import { pointOptionsQuery, type PointOption } from "../../../domain/schemas/point-options";
import { visible } from "../../../tenants/scope";
import { ALARM_MENUS } from "../alarms/alarms";
import type { UserCtx } from "../context";
import { FAILURE_MENUS } from "../faults/failures";
import { MAINTAIN_MENU } from "../maintenance/maintainers";
import { CHARGING_MENUS } from "../monitoring/charging";
import { CONNECTOR_MENUS, PILE_MENUS } from "../monitoring/devices";
import { SUSPECT_MENUS } from "../monitoring/suspect-sessions";
import { SUB_POINT_MENUS } from "../sub-operators/views";
import { verb } from "../verb";
import { POINT_READ_MENUS } from "./points";

/**
 * Every screen where a serial number is chosen (docs/rules/lists.md "Pickers"): the equipment,
 * monitoring, alarm, work-order and failure screens. It answers serial numbers and names only, so
 * a screen that may watch a point may also find it by name.
 */
export const POINT_OPTION_MENUS = [
  ...new Set([
    ...POINT_READ_MENUS,
    ...PILE_MENUS,
    ...CONNECTOR_MENUS,
    ...CHARGING_MENUS,
    ...SUSPECT_MENUS,
    ...ALARM_MENUS,
    ...SUB_POINT_MENUS,
    MAINTAIN_MENU,
    ...FAILURE_MENUS,
  ]),
];

/** The points the actor may see (tenants/scope.ts `visible`) that meet `condition`, by serial number. */
const optionsOf = (ctx: UserCtx, limit: number, ...condition: (SQL | undefined)[]) =>
  ctx.db
    .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, stationName: stations.name })
    .from(points)
    .leftJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
    .where(visible(ctx, points, points.id, ...condition))
    .orderBy(asc(points.serialNumber))
    .limit(limit);

/**
 * The points a picker offers for what was typed, by serial number: those whose serial number or
 * name starts with it first (a range on the NOCASE indexes led by the operator), then, while fewer
 * than `limit`, those that contain it. A sub-operator or maintainer finds only its own devices
 * (tenants/scope.ts `visible`).
 */
export const pointOptions = verb({ menu: POINT_OPTION_MENUS }, async (ctx, raw: unknown): Promise<PointOption[]> => {
  const { keyword, limit } = pointOptionsQuery.parse(raw);
  if (!keyword) return optionsOf(ctx, limit);
  const startsWith = or(startingWith(points.serialNumber, keyword), startingWith(points.name, keyword))!;
  const starting = await optionsOf(ctx, limit, startsWith);
  if (starting.length === limit) return starting;
  const inside = await optionsOf(
    ctx,
    limit - starting.length,
    or(containing(points.serialNumber, keyword), containing(points.name, keyword)),
    // Those already answered, by the same test rather than their ids (D1 binds at most 100 values).
    not(startsWith),
  );
  return [...starting, ...inside];
});
