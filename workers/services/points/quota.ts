import { sql, type SQL } from "drizzle-orm";
import { points } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import { quotaKind, type PointType } from "../../../domain/schemas/equipment";
import { owned } from "../../../tenants/scope";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { POINT_READ_MENUS } from "./points";

/**
 * Authorised connector counts (docs/rules/equipment.md "Authorised connectors"). An operator's
 * price package authorises it to run so many AC and so many DC connectors; AC points count as AC,
 * DC and MIXED points as DC. Every registered connector counts, enabled or not, since a disabled
 * point can be enabled at any time. The count is each point's `connector_count` (its connector rows
 * always match it), so one conditional statement can check and claim the quota at once and a race
 * between two requests cannot exceed it
 * (docs/decisions/0002-d1-without-interactive-transactions.md).
 */
export type QuotaKind = "AC" | "DC";

const kindCondition = (kind: QuotaKind) => (kind === "AC" ? sql`type = 'AC'` : sql`type <> 'AC'`);
const authorizedColumn = (kind: QuotaKind) => (kind === "AC" ? sql`authorized_ac_connectors` : sql`authorized_dc_connectors`);

/**
 * SQL that is true when the operator's connectors of `kind` (without those of `exceptPointId`)
 * plus `adding` stay within its authorised count. Used in the WHERE of the statement that
 * claims the connectors.
 */
export function withinQuota(ctx: Pick<UserCtx, "operator">, kind: QuotaKind, adding: number, exceptPointId?: number): SQL {
  const except = exceptPointId === undefined ? sql`` : sql` AND id <> ${exceptPointId}`;
  return sql`(SELECT COALESCE(SUM(connector_count), 0) FROM points WHERE operator_id = ${ctx.operator.id} AND ${kindCondition(kind)}${except}) + ${adding} <= (SELECT ${authorizedColumn(kind)} FROM operators WHERE id = ${ctx.operator.id})`;
}

/** What the operator may still add, per kind: authorised, used (all points), enabled, remaining. */
export async function quotaOf(ctx: UserCtx) {
  const [row] = await ctx.db
    .select({
      acUsed: sql<number>`COALESCE(SUM(CASE WHEN ${points.type} = 'AC' THEN ${points.connectorCount} END), 0)`,
      dcUsed: sql<number>`COALESCE(SUM(CASE WHEN ${points.type} <> 'AC' THEN ${points.connectorCount} END), 0)`,
      acEnabled: sql<number>`COALESCE(SUM(CASE WHEN ${points.type} = 'AC' AND ${points.status} = 'VALID' THEN ${points.connectorCount} END), 0)`,
      dcEnabled: sql<number>`COALESCE(SUM(CASE WHEN ${points.type} <> 'AC' AND ${points.status} = 'VALID' THEN ${points.connectorCount} END), 0)`,
    })
    .from(points)
    .where(owned(ctx, points));
  const entry = (authorized: number, used: number, enabled: number) => ({
    authorized,
    used,
    enabled,
    remaining: Math.max(0, authorized - used),
  });
  return {
    AC: entry(ctx.operator.authorizedAcConnectors, row.acUsed, row.acEnabled),
    DC: entry(ctx.operator.authorizedDcConnectors, row.dcUsed, row.dcEnabled),
  };
}

export const connectorQuota = verb({ menu: POINT_READ_MENUS }, quotaOf);

/**
 * Refuses, before any write, a change that adds more connectors of a kind than remain. The
 * conditional statement that writes the change checks again, for the race.
 */
export async function assertQuota(ctx: UserCtx, adding: Record<QuotaKind, number>) {
  const quota = await quotaOf(ctx);
  for (const kind of ["AC", "DC"] as const) {
    if (adding[kind] > 0 && quota[kind].used + adding[kind] > quota[kind].authorized) {
      throw quotaExceeded(kind, adding[kind], quota[kind].used, quota[kind].authorized);
    }
  }
}

/** The connectors a point of this type and count adds to each kind. */
export const addingOf = (type: PointType, connectorCount: number): Record<QuotaKind, number> =>
  quotaKind(type) === "AC" ? { AC: connectorCount, DC: 0 } : { AC: 0, DC: connectorCount };

export function quotaExceeded(kind: QuotaKind, adding: number, used: number, authorized: number) {
  return new Conflict("points.errors.quotaExceeded", { kind, adding, used, authorized }, { kind, adding, used, authorized });
}
