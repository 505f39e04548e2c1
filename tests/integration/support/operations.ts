import { env } from "cloudflare:test";
import { makeCharger } from "./factories";

/**
 * A location with a load power and `count` enabled chargers of its own, for the load-balancing
 * and firmware tests (docs/rules/operations.md).
 */
export async function makeSite(operatorCode: string, options: { count?: number; loadKw?: number | null } = {}) {
  const chargers = [];
  for (let i = 0; i < (options.count ?? 2); i++) chargers.push(await makeCharger(operatorCode));
  const stationId = (await env.DB.prepare("SELECT station_id AS id FROM points WHERE id = ?").bind(chargers[0].pointId).first<{ id: number }>())!.id;
  const loadKw = options.loadKw === undefined ? 100 : options.loadKw;
  await env.DB.prepare("UPDATE stations SET power_limit_w = ?, time_zone = 'Europe/Warsaw' WHERE id = ?")
    .bind(loadKw === null ? null : loadKw * 1000, stationId)
    .run();
  for (const c of chargers.slice(1)) await env.DB.prepare("UPDATE points SET station_id = ? WHERE id = ?").bind(stationId, c.pointId).run();
  return { stationId, chargers };
}

/**
 * The SetChargingProfile a 1.6 charger of such a site gets from a load-balancing group valid from
 * 2025-06-01T10:00Z (OCPP 1.6 §5.16): the charger's maximum, recurring daily from local midnight
 * in Warsaw, in the periods given.
 */
export const dailyMaximumProfile16 = (profileId: number, chargingSchedulePeriod: { startPeriod: number; limit: number }[]) => ({
  connectorId: 0,
  csChargingProfiles: {
    chargingProfileId: profileId,
    stackLevel: 1,
    chargingProfilePurpose: "ChargePointMaxProfile",
    chargingProfileKind: "Recurring",
    recurrencyKind: "Daily",
    validFrom: "2025-06-01T10:00:00.000Z",
    chargingSchedule: { duration: 86_400, startSchedule: "2025-05-31T22:00:00.000Z", chargingRateUnit: "W", chargingSchedulePeriod },
  },
});

export { eventually } from "../../support/eventually";
