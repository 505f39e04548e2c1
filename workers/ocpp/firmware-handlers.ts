import type { OcppRequest, OcppResponse } from "../../domain/ocpp";
import { recordFirmwareStatus } from "../services/firmware/firmware";
import { recordPointEvent } from "../services/ocpp/point-events";
import type { ChargerSession } from "./session";

/**
 * FirmwareStatusNotification (OCPP 1.6 §4.5): recorded as a point event and as the point's firmware
 * status, and it moves the point's rollout of the version last issued to it, which the firmware
 * screen follows live (docs/rules/operations.md "Firmware"). Not on the hot path: a charger sends
 * it a handful of times per update.
 */
export async function FirmwareStatusNotification(
  session: ChargerSession,
  request: OcppRequest<"FirmwareStatusNotification">,
): Promise<OcppResponse<"FirmwareStatusNotification">> {
  await recordPointEvent(session.ctx, session.identity.pointId, "FirmwareStatus", request.status, {});
  const firmwareId = await recordFirmwareStatus(session.ctx, session.identity.pointId, request.status);
  const { pointId, serialNumber } = session.identity;
  session.publish({ type: "firmware", pointId, serialNumber, firmwareId, status: request.status, at: session.now() });
  return {};
}
