import { z } from "zod";
import { checkRequest, SERVER_ACTIONS, type OcppRequest, type OcppResponse, type ServerAction } from "../../../domain/ocpp";
import { ChargerTimeout, Conflict, Invalid } from "../../../domain/errors";
import { settingsOf } from "../../../tenants/resolve";
import { chargePointName } from "../../ocpp/identity";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { findPoint } from "../points/points";

/**
 * Commands from the console to a charger (SPEC.md §7 monitoring and remote control). Each
 * answers the charger's reply; a refusal is a 409 carrying the reply, an offline charger a 409
 * at once, no answer in time a 504 (issue #3).
 */

/** Replies that mean the charger did not do what was asked. */
const REFUSALS = new Set([
  "Rejected",
  "UnlockFailed",
  "NotSupported",
  "NotImplemented",
  "Failed",
  "Faulted",
  "Occupied",
  "Unavailable",
  "UnknownVendorId",
  "UnknownMessageId",
  "VersionMismatch",
  "Unknown",
]);

type PointRef = { id: number } | { serialNumber: string };

export async function command<A extends ServerAction>(ctx: Ctx, ref: PointRef, action: A, payload: OcppRequest<A>): Promise<OcppResponse<A>> {
  const checked = checkRequest(action, payload);
  if (!checked.ok) throw new Invalid("validation.ocppPayload", { description: checked.description }, { payload: "validation.ocppPayload" });
  const { point } = await findPoint(ctx, ref);
  const stub = ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));
  const outcome = await stub.send(action, payload);
  if (!outcome.ok) {
    if (outcome.reason === "error") {
      const reply = { code: outcome.code, description: outcome.description };
      throw new Conflict("errors.chargerError", reply, reply);
    }
    throw outcome.reason === "offline" ? new Conflict("errors.pointOffline") : new ChargerTimeout();
  }
  const response = outcome.response as OcppResponse<A>;
  await auditRow(ctx, {
    table: "points",
    module: "remoteControl",
    type: "UPDATE",
    newData: { serialNumber: point.serialNumber, action, payload },
    response,
  });
  const status = (response as { status?: string }).status;
  if (status && REFUSALS.has(status)) throw new Conflict("errors.chargerRefused", { action, status }, response);
  return response;
}

export const resetInput = z.object({ type: z.enum(["Soft", "Hard"], { error: "validation.resetType" }).default("Soft") });

export const triggerInput = z.object({
  requestedMessage: z.enum(
    ["BootNotification", "DiagnosticsStatusNotification", "FirmwareStatusNotification", "Heartbeat", "MeterValues", "StatusNotification"],
    { error: "validation.requestedMessage" },
  ),
  connectorId: z.coerce.number().int().min(0).optional(),
});

export const connectorInput = z.object({
  connectorId: z.coerce.number({ error: "validation.connectorRequired" }).int().min(1, { error: "validation.connectorRequired" }),
});

export const remoteStartInput = connectorInput.extend({
  idTag: z.string().trim().min(1).max(20, { error: "validation.idTagLength" }).optional(),
  /** kW; becomes a TxProfile limit in W. */
  power: z.coerce.number().positive({ error: "validation.power" }).max(10_000).optional(),
});

export const commandInput = z.object({
  action: z.enum(SERVER_ACTIONS as unknown as [ServerAction, ...ServerAction[]], { error: "validation.ocppAction" }),
  payload: z.record(z.string(), z.unknown()).default({}),
});

/**
 * The id tag a remote start uses when the operator names none: the remote tag of its parameter
 * settings, else one made from its id. The start dialogs show it as their default.
 */
export async function remoteIdTagOf(ctx: Ctx): Promise<string> {
  return (await settingsOf(ctx.db, ctx.operator.id)).remoteIdTag ?? `REMOTE${ctx.operator.id}`.slice(0, 20);
}

/**
 * Remote start (OCPP 1.6 §6.33). Without an idTag the operator's remote tag starts it; a power
 * limit rides along as a TxProfile. A disabled point refuses remote starts (issue #3).
 */
export async function remoteStart(ctx: Ctx, pointId: number, input: z.infer<typeof remoteStartInput>) {
  const { point } = await findPoint(ctx, { id: pointId });
  if (point.status !== "VALID") throw new Conflict("errors.pointDisabled");
  if (input.connectorId > point.connectorCount) throw new Invalid("validation.connectorRequired", {}, { connectorId: "validation.connectorRequired" });
  const idTag = input.idTag ?? (await remoteIdTagOf(ctx));
  const payload: OcppRequest<"RemoteStartTransaction"> = { connectorId: input.connectorId, idTag };
  if (input.power) {
    payload.chargingProfile = {
      chargingProfileId: 1,
      stackLevel: 0,
      chargingProfilePurpose: "TxProfile",
      chargingProfileKind: "Relative",
      chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: Math.round(input.power * 1000) }] },
    };
  }
  return command(ctx, { id: pointId }, "RemoteStartTransaction", payload);
}

/** Any server-initiated action with a schema-checked payload (POST /station-service/point/{id}/command). */
export function anyCommand(ctx: Ctx, pointId: number, input: z.infer<typeof commandInput>) {
  return command(ctx, { id: pointId }, input.action, input.payload as OcppRequest<typeof input.action>);
}
