/** What every event carries: the point it names and when it happened. */
interface PointEvent {
  pointId: number;
  serialNumber: string;
  at: number;
}

/** An event of one of the point's connectors. */
interface ConnectorEvent extends PointEvent {
  connectorId: number;
}

/**
 * What the console's live view receives (docs/architecture.md "Live view"). Every event names
 * its point, so a socket scoped to some devices receives only theirs (docs/rules/access.md
 * "Live view").
 */
export type LiveEvent =
  | (PointEvent & { type: "point"; online: boolean })
  | (ConnectorEvent & { type: "connector"; status: string; errorCode: string })
  | (ConnectorEvent & {
      type: "meter";
      transactionId: number | null;
      energyWh?: number;
      powerW?: number;
      currentA?: number;
      voltageV?: number;
      soc?: number;
    })
  | (ConnectorEvent & { type: "transaction"; transactionId: number; phase: "start" | "stop"; idTag?: string; meterWh: number })
  | (ConnectorEvent & { type: "alarm"; level: string; alarmType: string })
  /** A load-balancing profile's delivery to one point moved (docs/rules/operations.md "Delivery"). */
  | (PointEvent & { type: "delivery"; loadBalancingId: number; delivery: string })
  /** A point's firmware rollout moved: its UpdateFirmware went out, or the charger reported (docs/rules/operations.md "Firmware"). */
  | (PointEvent & { type: "firmware"; firmwareId: number | null; status: string });

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
