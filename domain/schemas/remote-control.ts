import { z } from "zod";
import { SERVER_ACTIONS, type ServerAction } from "../ocpp";
import { SERVER_ACTIONS_201, type ServerAction201 } from "../ocpp/v201/actions";
import type { Ocpp201Request } from "../ocpp/v201/schemas";
import { diagnosticsLocation, type ConnectedVersion, type OcppVersion } from "./equipment";
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

/** Every action the CSMS may send in either protocol, once: which of them a point takes depends on its protocol (`commandProtocol`). */
const COMMAND_ACTIONS = [...new Set<ServerAction | ServerAction201>([...SERVER_ACTIONS, ...SERVER_ACTIONS_201])];

/**
 * The body of POST /station-service/point/{id}/command: an action of the point's protocol and its
 * payload, which is checked against that protocol's schema of the action (docs/rules/ocpp.md
 * "Remote commands").
 */
export const commandInput = z.object({
  action: z
    .enum(COMMAND_ACTIONS as [ServerAction | ServerAction201, ...(ServerAction | ServerAction201)[]], { error: "validation.ocppAction" })
    .meta({
      description:
        "An OCPP 1.6 action for a point that speaks 1.6, an OCPP 2.0.1 action for one that speaks 2.0.1 (its connection's protocol, else its `ocppVersion`); names both have go in the point's protocol",
    }),
  payload: z.record(z.string(), z.unknown()).default({}).meta({ description: "The action's request payload, checked against the point's protocol's schema before anything is sent" }),
});
export type CommandInput = z.infer<typeof commandInput>;

/** The protocol each setting fixes; AUTO leaves it to the connection. */
const VERSION_OF_SETTING: Record<OcppVersion, ConnectedVersion | null> = { AUTO: null, OCPP16: "1.6", OCPP201: "2.0.1" };

/**
 * The protocol a command to a point is written in: its connection's (`connected`, null when it is
 * not connected), else the one its setting admits; null for an AUTO point that is not connected,
 * which takes no command (docs/rules/ocpp.md "Remote commands").
 */
export const commandProtocol = (ocppVersion: OcppVersion, connected: ConnectedVersion | null): ConnectedVersion | null =>
  connected ?? VERSION_OF_SETTING[ocppVersion];

/** The priorities of a display message (OCPP 2.0.1 Part 2 O01, MessagePriorityEnumType). */
export const DISPLAY_MESSAGE_PRIORITIES = ["AlwaysFront", "InFront", "NormalCycle"] as const;

/**
 * The point page's display-message form (O01 SetDisplayMessage): the text (the message content
 * holds at most 512 characters), its RFC 5646 language, the priority, an optional window and EVSE.
 */
export const displayMessageInput = z
  .object({
    content: z.string().trim().min(1, { error: "points.displayMessage.textRequired" }).max(512, { error: "points.displayMessage.textTooLong" }),
    language: z.string().min(2).max(8).optional(),
    priority: z.enum(DISPLAY_MESSAGE_PRIORITIES),
    startDateTime: z.iso.datetime({ offset: true }).optional(),
    endDateTime: z.iso.datetime({ offset: true }).optional(),
    evseId: z.int().min(1).optional(),
  })
  .refine((m) => !m.startDateTime || !m.endDateTime || Date.parse(m.endDateTime) > Date.parse(m.startDateTime), {
    path: ["endDateTime"],
    error: "points.displayMessage.endBeforeStart",
  });
export type DisplayMessageInput = z.infer<typeof displayMessageInput>;

/**
 * The SetDisplayMessage request of a form's message under the id the caller chose: plain UTF-8
 * text; shown on the station's display, or on the display of one EVSE when one is named.
 */
export function displayMessageRequest(input: DisplayMessageInput, id: number): Ocpp201Request<"SetDisplayMessage"> {
  return {
    message: {
      id,
      priority: input.priority,
      ...(input.startDateTime && { startDateTime: input.startDateTime }),
      ...(input.endDateTime && { endDateTime: input.endDateTime }),
      message: { format: "UTF8", content: input.content, ...(input.language && { language: input.language }) },
      ...(input.evseId !== undefined && { display: { name: "Display", evse: { id: input.evseId } } }),
    },
  };
}
