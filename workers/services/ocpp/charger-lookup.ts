import { eq, sql } from "drizzle-orm";
import { operators, parameterSettings, points } from "../../../db/schema";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants } from "../../../tenants/scope";
import { verb } from "../verb";
import { resilienceSettings } from "../../../domain/schemas/settings";
import { DEFAULT_CHARGER_LIMITS, type ChargerLimits } from "../../../domain/ocpp/resilience";

/** The stored `resilience` item's charger limits, the defaults when none (or none valid) is stored. */
export function chargerLimitsOf(stored: string | null): ChargerLimits {
  let parsed: unknown;
  try {
    parsed = stored ? JSON.parse(stored) : null;
  } catch {
    parsed = null;
  }
  const read = resilienceSettings.safeParse(parsed);
  if (!read.success) return DEFAULT_CHARGER_LIMITS;
  const { messagesPerSecond, connectionsPerHour, quarantineMinutes } = read.data;
  return { messagesPerSecond, connectionsPerHour, quarantineMinutes };
}

function connectorPowersOf(stored: string | null): Record<string, number> {
  try {
    const parsed = stored ? (JSON.parse(stored) as unknown) : {};
    if (!parsed || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"));
  } catch {
    return {};
  }
}

/**
 * Finding a charger by its chargeBoxId, before any tenant is known (docs/rules/ocpp.md "Connection").
 */

/**
 * What the Worker finds of a connecting charger before any tenant is known (its serial is unique),
 * with its operator's OCPP settings; a charger's Durable Object reads it again, as the system,
 * when the API has dropped what it kept: everything the charger's Durable Object keeps of its
 * registration (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
export const findCharger = verb({ actors: ["public", "system"] }, async (ctx, serialNumber: string) => {
  const [row] = await ctx.db
    .select({
      point: points,
      operatorCode: operators.code,
      // Whether the operator is in service decides the boot (docs/rules/platform.md "Validity").
      operatorValidity: { status: operators.status, validFrom: operators.validFrom, validUntil: operators.validUntil },
      heartbeatIntervalS: parameterSettings.heartbeatIntervalS,
      disabledPointBoot: parameterSettings.disabledPointBoot,
      // How many points its operator has decides where its live events go (workers/live/shards.ts);
      // counted on the operator's own points, by the index that leads with the operator.
      // tenancy: the count is of the found point's own operator (own.operator_id is that point's).
      operatorPoints: sql<number>`(SELECT count(*) FROM points AS own WHERE own.operator_id = ${points.operatorId})`,
      // The operator's limits for its chargers (docs/rules/ocpp.md "A charger that floods"), as stored.
      resilience: sql<string | null>`json_extract(${parameterSettings.document}, '$.resilience')`,
      // Each connector's power, for the meter-jump review (docs/rules/monitoring.md "Suspect sessions").
      // tenancy: the point's own connectors.
      connectorPowers: sql<string | null>`(SELECT json_group_object(c.connector_no, c.power_w) FROM connectors AS c WHERE c.point_id = ${points.id})`,
    })
    .from(points)
    .innerJoin(operators, eq(operators.id, points.operatorId))
    .leftJoin(parameterSettings, eq(parameterSettings.operatorId, points.operatorId))
    // A chargeBoxId names one point across the platform: the lookup that finds the tenant.
    .where(acrossTenants("a chargeBoxId names one point across the platform: the lookup that finds the tenant", eq(points.serialNumber, serialNumber)))
    .limit(1);
  if (!row) return undefined;
  // An operator without a settings row gets the defaults of `settingsOf`.
  const defaults = row.heartbeatIntervalS === null || row.disabledPointBoot === null ? await settingsOf(ctx.db, row.point.operatorId) : undefined;
  return {
    ...row,
    limits: chargerLimitsOf(row.resilience),
    connectorPowerW: connectorPowersOf(row.connectorPowers),
    heartbeatIntervalS: row.heartbeatIntervalS ?? defaults!.heartbeatIntervalS,
    disabledPointBoot: row.disabledPointBoot ?? defaults!.disabledPointBoot,
  };
});
