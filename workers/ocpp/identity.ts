import { systemCtx, type SystemCtx } from "../services/context";

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
  systemCtx(env, { id: identity.operatorId, code: identity.operatorCode, sub: 0, parentId: null }, `charger ${identity.serialNumber}`);
