import { systemCtx, type SystemCtx } from "../services/context";
import type { findCharger } from "../services/ocpp/charger-lookup";
import { liveShardOf } from "../live/shards";
import type { Registration } from "./registration";

/**
 * Who a ChargePoint Durable Object serves: fixed at connect time by the Worker from the
 * point's registration, never from what the charger says (docs/architecture.md "One door").
 */
export interface ChargerIdentity {
  pointId: number;
  operatorId: number;
  operatorCode: string;
  serialNumber: string;
  enabled: boolean;
}

export const IDENTITY_HEADER = "X-Plugdesk-Charger";

/** Durable Object name of a charger: operator and chargeBoxId. */
export const chargePointName = (operatorId: number, serialNumber: string) => `${operatorId}:${serialNumber}`;

/** The charger acting as the system for its operator: how its Durable Object reaches the records. */
export const chargerCtx = (env: Env, identity: ChargerIdentity): SystemCtx =>
  systemCtx(env, identity, `charger ${identity.serialNumber}`);

/** The registration the Worker has just read from D1, handed to the Durable Object with the upgrade. */
export const REGISTRATION_HEADER = "X-Plugdesk-Registration";
/** The Durable Object's answer when the Worker's route to it is out of date. */
export const STALE_ROUTE_HEADER = "X-Plugdesk-Stale-Route";

/** What a charger's Durable Object keeps of a point found by `findCharger`. */
export const registrationOf = (row: NonNullable<Awaited<ReturnType<typeof findCharger>>>): Registration => ({
  pointId: row.point.id,
  operatorId: row.point.operatorId,
  keyHash: row.point.keyHash,
  enabled: row.point.status === "VALID",
  operatorValidity: {
    status: row.operatorValidity.status,
    validFrom: row.operatorValidity.validFrom?.getTime() ?? null,
    validUntil: row.operatorValidity.validUntil?.getTime() ?? null,
  },
  heartbeatIntervalS: row.heartbeatIntervalS,
  disabledPointBoot: row.disabledPointBoot,
  liveShard: liveShardOf(row.operatorPoints, row.point.stationId),
  ocppVersion: row.point.ocppVersion,
  limits: row.limits,
  connectorPowerW: row.connectorPowerW,
});
