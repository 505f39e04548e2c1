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

export { eventually } from "../../support/eventually";
