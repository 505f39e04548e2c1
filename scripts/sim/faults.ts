import { ChargePointErrorCode } from "../../domain/ocpp";

/** An error code a connector can fault with: every ChargePointErrorCode but NoError (OCPP 1.6 §7.6). */
export type FaultCode = Exclude<ChargePointErrorCode, "NoError">;

export const FAULT_CODES = ChargePointErrorCode.options.filter((code): code is FaultCode => code !== "NoError");

export const isFaultCode = (code: string): code is FaultCode => (FAULT_CODES as readonly string[]).includes(code);

export interface FaultTarget {
  serialNumber: string;
  connectorId: number;
  errorCode: FaultCode;
}

/**
 * `--fault <serialNumber>:<connectorId>:<errorCode>`, e.g. `PL002-CP01:1:HighTemperature`. The
 * last two parts are read from the right, so a serial number may hold a colon itself.
 */
export function parseFault(text: string): FaultTarget {
  const parts = text.split(":");
  const [connector, errorCode] = parts.slice(-2);
  const serialNumber = parts.slice(0, -2).join(":");
  const usage = `--fault wants <serialNumber>:<connectorId>:<errorCode>, e.g. PL002-CP01:1:HighTemperature (got "${text}")`;
  if (parts.length < 3 || !serialNumber) throw new Error(usage);
  const connectorId = Number(connector);
  if (!/^\d+$/.test(connector) || connectorId < 1) throw new Error(`${usage}: the connector is a number from 1`);
  if (!isFaultCode(errorCode)) throw new Error(`${usage}: the error code is one of ${FAULT_CODES.join(", ")}`);
  return { serialNumber, connectorId, errorCode };
}
