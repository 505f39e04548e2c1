import { z } from "zod";
import { SERVER_ACTIONS, type ServerAction } from "../ocpp";
import { diagnosticsLocation } from "./equipment";
import { decimalNumber, wholeNumber } from "./numbers";

/** Schemas of the remote commands a user sends a charger (monitoring and remote control). */

/** A charger named by its serial number (the chargeBoxId) in the path. */
export const serialParam = z.object({ serialNumber: z.string().min(1).max(64) });

export const resetInput = z.object({ type: z.enum(["Soft", "Hard"], { error: "validation.resetType" }).default("Soft") });

export const triggerInput = z.object({
  requestedMessage: z.enum(
    ["BootNotification", "DiagnosticsStatusNotification", "FirmwareStatusNotification", "Heartbeat", "MeterValues", "StatusNotification"],
    { error: "validation.requestedMessage" },
  ),
  connectorId: wholeNumber("validation.connectorRequired", (n) => n.min(0)).optional(),
});

export const connectorInput = z.object({
  connectorId: wholeNumber("validation.connectorRequired", (n) => n.min(1, { error: "validation.connectorRequired" })),
});

export const remoteStartInput = connectorInput.extend({
  idTag: z.string().trim().min(1).max(20, { error: "validation.idTagLength" }).optional(),
  /** kW; becomes a TxProfile limit in W. */
  power: decimalNumber("validation.power", (n) => n.positive({ error: "validation.power" }).max(10_000, { error: "validation.power" })).optional(),
});
export type RemoteStartInput = z.infer<typeof remoteStartInput>;

export const clearChargingProfileInput = z.object({
  id: wholeNumber().optional(),
  connectorId: wholeNumber("validation.connectorRequired", (n) => n.min(0)).optional(),
  chargingProfilePurpose: z.enum(["ChargePointMaxProfile", "TxDefaultProfile", "TxProfile"]).optional(),
  stackLevel: wholeNumber("validation.integer", (n) => n.min(0)).optional(),
});

export const compositeScheduleQuery = z.object({
  connectorId: wholeNumber("validation.connectorRequired", (n) => n.min(0)).default(0),
  duration: wholeNumber("validation.integer", (n) => n.positive()).default(86_400),
  chargingRateUnit: z.enum(["A", "W"]).optional(),
});

export const dataTransferInput = z.object({
  vendorId: z.string().min(1).max(255),
  messageId: z.string().max(50).optional(),
  data: z.string().optional(),
});

export const getDiagnosticsQuery = z.object({
  location: diagnosticsLocation,
  retries: wholeNumber("validation.integer", (n) => n.min(0)).optional(),
  retryInterval: wholeNumber("validation.integer", (n) => n.min(0)).optional(),
  startTime: z.iso.datetime({ offset: true }).optional(),
  stopTime: z.iso.datetime({ offset: true }).optional(),
});

export const commandInput = z.object({
  action: z.enum(SERVER_ACTIONS as unknown as [ServerAction, ...ServerAction[]], { error: "validation.ocppAction" }),
  payload: z.record(z.string(), z.unknown()).default({}),
});
export type CommandInput = z.infer<typeof commandInput>;
