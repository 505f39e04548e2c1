/**
 * How a large operator's live view is spread (docs/performance.md "Live view at scale"). Every
 * charger of a small operator publishes straight to the operator's hub (shard 0), the one the
 * browsers listen to. The chargers of an operator with at least LARGE_OPERATOR_POINTS points
 * publish to one of RELAY_SHARDS relay hubs, chosen by station, each of which gathers the events
 * of its stations and hands them on to shard 0 in one request per RELAY_INTERVAL_MS, with a
 * connector's meter readings thinned to the latest. Shard 0 therefore serves at most
 * RELAY_SHARDS × (1000 / RELAY_INTERVAL_MS) requests a second from chargers, however many there
 * are, and the browser's protocol does not change.
 */
export const LARGE_OPERATOR_POINTS = 1000;
export const RELAY_SHARDS = 8;
export const RELAY_INTERVAL_MS = 250;

/** The hub shard a charger publishes to: 0 (the operator's hub) or a relay chosen by its station. */
export function liveShardOf(operatorPoints: number, stationId: number): number {
  if (operatorPoints < LARGE_OPERATOR_POINTS) return 0;
  return 1 + (stationId % RELAY_SHARDS);
}
