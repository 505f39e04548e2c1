import { points } from "../../../db/schema";
import { slices } from "../../../db/statements";
import type { ChargerLimits } from "../../../domain/ocpp/resilience";
import type { ResilienceSettings } from "../../../domain/schemas/settings";
import { owned } from "../../../tenants/scope";
import type { UserCtx } from "../context";
import { chargerObject } from "../points/charger-object";

/**
 * The operator changed its charger limits (docs/rules/ocpp.md "A charger that floods"): each of
 * its chargers' objects keeps them with its registration, so each is told before the settings
 * answer, 50 at a time, and applies them from its next message or connection.
 */
export async function chargersTakeLimits(ctx: UserCtx, before: ResilienceSettings, next: ResilienceSettings) {
  const limits: ChargerLimits = { messagesPerSecond: next.messagesPerSecond, connectionsPerHour: next.connectionsPerHour, quarantineMinutes: next.quarantineMinutes };
  if (limits.messagesPerSecond === before.messagesPerSecond && limits.connectionsPerHour === before.connectionsPerHour && limits.quarantineMinutes === before.quarantineMinutes) return;
  const rows = await ctx.db.select({ operatorId: points.operatorId, serialNumber: points.serialNumber }).from(points).where(owned(ctx, points));
  for (const slice of slices(rows, 50)) await Promise.all(slice.map((point) => chargerObject(ctx.env, point).limitsChanged(limits)));
}
