import type { OcppRequest, OcppResponse } from "../../domain/ocpp";
import { recordFirmwareStatus } from "../services/firmware/firmware";
import { recordPointEvent } from "../services/ocpp/point-events";
import { recordCertificateRequest } from "../services/ocpp/security-records";
import { securityEvent } from "./security-events";
import type { ChargerSession } from "./session";
import { FIRMWARE_STEP, LOG_STEP } from "./v201/handlers";

/**
 * The messages a 1.6 charger sends under the security extension ("Improved security for OCPP
 * 1.6-J", edition 3), each read into what the product already does for 1.6 and 2.0.1
 * (docs/rules/ocpp.md "Security extension"). None is on the hot path.
 */

/** §4.5: kept, and raised as an alarm when critical, by the same function as 2.0.1's A04. */
export async function SecurityEventNotification(
  session: ChargerSession,
  request: OcppRequest<"SecurityEventNotification">,
): Promise<OcppResponse<"SecurityEventNotification">> {
  await securityEvent(session, { ...request, version: "1.6" });
  return {};
}

/** §4.4 GetLog: the upload moves the diagnostics request as DiagnosticsStatusNotification and 2.0.1's N01 do. */
export async function LogStatusNotification(session: ChargerSession, request: OcppRequest<"LogStatusNotification">): Promise<OcppResponse<"LogStatusNotification">> {
  await recordPointEvent(session.ctx, session.identity.pointId, "DiagnosticsStatus", LOG_STEP[request.status], {
    status: request.status,
    ...(request.requestId !== undefined && { requestId: request.requestId }),
  });
  return {};
}

/**
 * §4.6 signed firmware update: the rollout moves as for FirmwareStatusNotification (the extension's
 * states are 2.0.1's L01 states, read the same way); the point's event keeps the charger's word.
 */
export async function SignedFirmwareStatusNotification(
  session: ChargerSession,
  request: OcppRequest<"SignedFirmwareStatusNotification">,
): Promise<OcppResponse<"SignedFirmwareStatusNotification">> {
  const step = FIRMWARE_STEP[request.status];
  await recordPointEvent(session.ctx, session.identity.pointId, "FirmwareStatus", request.status, {
    ...(request.requestId !== undefined && { requestId: request.requestId }),
  });
  const firmwareId = await recordFirmwareStatus(session.ctx, session.identity.pointId, step);
  const { pointId, serialNumber } = session.identity;
  session.publish({ type: "firmware", pointId, serialNumber, firmwareId, status: step, at: session.now() });
  return {};
}

/**
 * §4.2 SignCertificate: Accepted, and the request kept for the operator. The product holds no
 * certificate authority's key (operators upload CA certificates, never keys), so the operator
 * signs it with their own PKI and sends the chain back with CertificateSigned from the point page
 * or `/command` (docs/rules/ocpp.md "Security extension").
 */
export async function SignCertificate(session: ChargerSession, request: OcppRequest<"SignCertificate">): Promise<OcppResponse<"SignCertificate">> {
  await recordCertificateRequest(session.ctx, session.identity.pointId, request.csr);
  return { status: "Accepted" };
}
