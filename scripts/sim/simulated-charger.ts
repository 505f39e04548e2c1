import type { FaultCode } from "./faults";

/**
 * What the simulator's runner (index.ts) and its terminal keys (keys.ts) ask of a simulated
 * charger, whichever protocol it speaks: SimCharger (OCPP 1.6J) and SimCharger201 (OCPP 2.0.1).
 * Connector numbers are the console's: on a 2.0.1 station with one connector per EVSE, the EVSE id.
 */
export interface SimulatedCharger {
  readonly serialNumber: string;
  readonly online: boolean;
  readonly connectorCount: number;
  /** Connects and boots; resolves after the first attempt, retrying in the background. */
  start(): Promise<void>;
  /** Ends running sessions as the protocol says, then closes the socket. */
  stop(): Promise<void>;
  raiseFault(connectorId: number, errorCode: FaultCode): Promise<boolean>;
  clearFault(connectorId: number): Promise<boolean>;
  /** One line per connector, for the terminal. */
  describe(): string[];
}
