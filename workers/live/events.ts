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
  | { type: "alarm"; pointId: number; serialNumber: string; connectorId: number; level: string; alarmType: string; at: number };

/** Hub name of an operator; the shard suffix lets a very large operator split its hub later. */
export const tenantHubName = (operatorId: number, shard = 0) => `${operatorId}:${shard}`;
