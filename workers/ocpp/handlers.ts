import type { ChargerAction, OcppRequest, OcppResponse } from "../../domain/ocpp";
import { authorize } from "../services/ocpp/tag-answers";
import { recordPointEvent } from "../services/ocpp/point-events";
import { boot, connectorStatus, meterReadings, transactionStarted, transactionStopped } from "./charger-model";
import { FirmwareStatusNotification } from "./firmware-handlers";
import { LogStatusNotification, SecurityEventNotification, SignCertificate, SignedFirmwareStatusNotification } from "./security-handlers";
import type { ChargerSession } from "./session";

type Handler<A extends ChargerAction> = (session: ChargerSession, request: OcppRequest<A>) => Promise<OcppResponse<A>>;

/** Vendor-specific DataTransfer handlers; none yet, so every vendor gets UnknownVendorId (OCPP 1.6 §6.17). */
const VENDOR_HANDLERS: Record<string, (messageId: string | undefined, data: string | undefined) => Promise<OcppResponse<"DataTransfer">>> = {};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The OCPP 1.6J codec's handlers: one entry per action a charger may send (the typed table of
 * docs/rules/ocpp.md "Framing"), each translating its message into the charger model
 * (workers/ocpp/charger-model.ts).
 */
export const HANDLERS: { [A in ChargerAction]: Handler<A> } = {
  async BootNotification(session, request) {
    const { status, intervalS } = await boot(session, {
      vendor: request.chargePointVendor,
      model: request.chargePointModel,
      firmwareVersion: request.firmwareVersion,
      boxSerialNumber: request.chargeBoxSerialNumber ?? request.chargePointSerialNumber,
      iccid: request.iccid,
      imsi: request.imsi,
      meterSerialNumber: request.meterSerialNumber,
      meterType: request.meterType,
    });
    return { status, currentTime: iso(session.now()), interval: intervalS };
  },

  async Heartbeat(session) {
    return { currentTime: iso(session.now()) };
  },

  async StatusNotification(session, request) {
    connectorStatus(session, {
      connectorId: request.connectorId,
      status: request.status,
      errorCode: request.errorCode,
      info: request.info,
      vendorErrorCode: request.vendorErrorCode,
      at: request.timestamp ? Date.parse(request.timestamp) : session.now(),
    });
    return {};
  },

  async Authorize(session, request) {
    return { idTagInfo: await authorize(session.ctx, session.identity.pointId, request.idTag, session.state.accepted) };
  },

  async StartTransaction(session, request) {
    const { transactionId, idTagInfo } = await transactionStarted(session, request);
    return { transactionId, idTagInfo };
  },

  async StopTransaction(session, request) {
    const { transactionData, ...stop } = request;
    const result = await transactionStopped(session, stop, transactionData ?? []);
    return result.idTagInfo ? { idTagInfo: result.idTagInfo } : {};
  },

  async MeterValues(session, request) {
    meterReadings(session, request.connectorId, request.transactionId ?? null, request.meterValue);
    return {};
  },

  async DataTransfer(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "DataTransfer", null, { ...request });
    const vendor = VENDOR_HANDLERS[request.vendorId];
    return vendor ? vendor(request.messageId, request.data) : { status: "UnknownVendorId" };
  },

  FirmwareStatusNotification,

  async DiagnosticsStatusNotification(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "DiagnosticsStatus", request.status, {});
    return {};
  },

  // The security extension (workers/ocpp/security-handlers.ts).
  SecurityEventNotification,
  LogStatusNotification,
  SignedFirmwareStatusNotification,
  SignCertificate,
};
