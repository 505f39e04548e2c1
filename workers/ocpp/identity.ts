/**
 * Who a ChargePoint Durable Object serves: fixed at connect time by the Worker from the
 * point's registration, never from what the charger says (ARCHITECTURE.md §3).
 */
export interface ChargerIdentity {
  pointId: number;
  operatorId: number;
  operatorCode: string;
  serialNumber: string;
  enabled: boolean;
}

export const IDENTITY_HEADER = "X-Plugdesk-Charger";

/** Durable Object name of a charger: operator and chargeBoxId (issue #3). */
export const chargePointName = (operatorId: number, serialNumber: string) => `${operatorId}:${serialNumber}`;
