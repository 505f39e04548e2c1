/**
 * What the console's live view receives (docs/architecture.md "Live view"). Every event names
 * its point, so a socket scoped to some devices receives only theirs (docs/rules/access.md
 * "Live view").
 */
export type LiveEvent =
  | { type: "point"; pointId: number; serialNumber: string; online: boolean; at: number }
  | {
      type: "connector";
      pointId: number;
      serialNumber: string;
      connectorId: number;
      status: string;
      errorCode: string;
      at: number;
    }
  | {
      type: "meter";
      pointId: number;
      serialNumber: string;
      connectorId: number;
      transactionId: number | null;
      energyWh?: number;
      powerW?: number;
      currentA?: number;
      voltageV?: number;
      soc?: number;
      at: number;
    }
  | {
      type: "transaction";
      pointId: number;
      serialNumber: string;
      connectorId: number;
      transactionId: number;
      phase: "start" | "stop";
      idTag?: string;
      meterWh: number;
      at: number;
    }
  | { type: "alarm"; pointId: number; serialNumber: string; connectorId: number; level: string; alarmType: string; at: number }
  /** A load-balancing profile's delivery to one point moved (docs/rules/operations.md "Delivery"). */
  | { type: "delivery"; pointId: number; serialNumber: string; loadBalancingId: number; delivery: string; at: number }
  /** A point's firmware rollout moved: its UpdateFirmware went out, or the charger reported (docs/rules/operations.md "Firmware"). */
  | { type: "firmware"; pointId: number; serialNumber: string; firmwareId: number | null; status: string; at: number };

/** Events that tell of a moment, not of a present state: the hub forwards them and keeps none. */
export const TRANSIENT_EVENTS: ReadonlySet<LiveEvent["type"]> = new Set(["alarm", "delivery", "firmware"]);

/**
 * What a hub answers a publisher: whether a console page listens to the operator's live view
 * now, so that a charger paces its meter readings to it (docs/rules/monitoring.md "Live values").
 */
export interface HubReceipt {
  watched: boolean;
}

/** Hub name of an operator; the shard suffix lets a very large operator split its hub later. */
export const tenantHubName = (operatorId: number, shard = 0) => `${operatorId}:${shard}`;
