import type { DiagnosticsStatus, FirmwareStatus } from "../../../domain/ocpp";
import { connectorStatusOf, evseStatusOf, idTokenInfoOf, meterValuesAs16 } from "../../../domain/ocpp/v201/charger-model";
import type { ChargerAction201 } from "../../../domain/ocpp/v201/actions";
import type { Ocpp201Request, Ocpp201Response } from "../../../domain/ocpp/v201/schemas";
import { endReservation } from "../../services/driver-services/reservations";
import { recordFirmwareStatus } from "../../services/firmware/firmware";
import { authorizeToken } from "../../services/ocpp/tag-answers";
import { recordPointEvent } from "../../services/ocpp/point-events";
import { recordCertificateRequest } from "../../services/ocpp/security-records";
import { withShortfall } from "../../services/ocpp/threshold";
import { boot, connectorStatus, meterReadings } from "../charger-model";
import { securityEvent } from "../security-events";
import type { ChargerSession } from "../session";
import { runningOn, transactionEvent, v201State } from "./transactions";
import { priceMessage, withPersonalMessage } from "./cost";
import { errorCodeOn, notifyEvent } from "./events";
import { notifyReport } from "./device-model";

type Handler<A extends ChargerAction201> = (session: ChargerSession, request: Ocpp201Request<A>) => Promise<Ocpp201Response<A>>;

const iso = (ms: number) => new Date(ms).toISOString();

/** 2.0.1's firmware states (L01) as the rollout follows them, in 1.6's words (docs/rules/operations.md "Firmware"). */
export const FIRMWARE_STEP: Record<Ocpp201Request<"FirmwareStatusNotification">["status"], FirmwareStatus> = {
  Downloaded: "Downloaded",
  DownloadFailed: "DownloadFailed",
  Downloading: "Downloading",
  DownloadScheduled: "Downloading",
  DownloadPaused: "Downloading",
  Idle: "Idle",
  InstallationFailed: "InstallationFailed",
  Installing: "Installing",
  Installed: "Installed",
  InstallRebooting: "Installing",
  InstallScheduled: "Installing",
  InstallVerificationFailed: "InstallationFailed",
  InvalidSignature: "InstallationFailed",
  SignatureVerified: "Installing",
};

/** 2.0.1's log upload states (N01) as the diagnostics screen follows them (1.6's words). */
export const LOG_STEP: Record<Ocpp201Request<"LogStatusNotification">["status"], DiagnosticsStatus> = {
  BadMessage: "UploadFailed",
  Idle: "Idle",
  NotSupportedOperation: "UploadFailed",
  PermissionDenied: "UploadFailed",
  Uploaded: "Uploaded",
  UploadFailure: "UploadFailed",
  Uploading: "Uploading",
  AcceptedCanceled: "UploadFailed",
};

/**
 * The OCPP 2.0.1 codec's handlers (Part 2, use-case ids in each): every message a Charging Station
 * sends is either handled here, translating into the charger model, or named in `NOT_TAKEN` with
 * the reason it is answered NotSupported.
 */
export const HANDLERS_201 = {
  // B01–B03: the same registration decides as for 1.6; a disabled point is Pending.
  async BootNotification(session, request) {
    const station = request.chargingStation;
    const { status, intervalS } = await boot(session, {
      vendor: station.vendorName,
      model: station.model,
      firmwareVersion: station.firmwareVersion,
      boxSerialNumber: station.serialNumber,
      iccid: station.modem?.iccid,
      imsi: station.modem?.imsi,
    });
    return { status, currentTime: iso(session.now()), interval: intervalS };
  },

  // G02
  async Heartbeat(session) {
    return { currentTime: iso(session.now()) };
  },

  // G01: a connector's state; the EVSE (the product's connector) takes the status that speaks for
  // all its connectors, and Occupied shows the charging state of the EVSE's transaction.
  async StatusNotification(session, request) {
    const plugs = (v201State(session).plugs ??= {});
    const evse = (plugs[request.evseId] ??= {});
    if (evse[request.connectorId] !== request.connectorStatus) {
      evse[request.connectorId] = request.connectorStatus;
      session.saveState();
    }
    const reported = evseStatusOf(evse as Record<string, typeof request.connectorStatus>);
    const { status, errorCode } = connectorStatusOf(reported, runningOn(session, request.evseId)?.status);
    connectorStatus(session, { connectorId: request.evseId, status, errorCode: errorCodeOn(session, request.evseId, errorCode), at: Date.parse(request.timestamp) });
    return {};
  },

  // C01: the same registry and card rules as 1.6's Authorize; I01: an Accepted token is told the price.
  async Authorize(session, request) {
    const [{ idTagInfo, shortfall }, price] = await Promise.all([
      authorizeToken(session.ctx, session.identity.pointId, request.idToken.idToken, session.state.accepted),
      priceMessage(session, request.idToken.idToken),
    ]);
    // A token short of the strategy's minimum threshold is told why instead (docs/rules/pricing.md "Minimum threshold").
    return { idTokenInfo: withShortfall(withPersonalMessage(idTokenInfoOf(idTagInfo), price), shortfall) };
  },

  // E01–E13
  TransactionEvent: transactionEvent,

  // B07: a part of the device model report, landed whole in the charger's own storage.
  NotifyReport: notifyReport,

  // J01: readings outside a transaction (clock-aligned); evse 0 is the station's main meter.
  async MeterValues(session, request) {
    meterReadings(session, request.evseId, null, meterValuesAs16(request.meterValue));
    return {};
  },

  // P01: no vendor extension is known, as for 1.6.
  async DataTransfer(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "DataTransfer", null, { ...request });
    return { status: "UnknownVendorId" };
  },

  // L01: the rollout moves as for a 1.6 charger; the point's event keeps 2.0.1's own word.
  async FirmwareStatusNotification(session, request) {
    const step = FIRMWARE_STEP[request.status];
    await recordPointEvent(session.ctx, session.identity.pointId, "FirmwareStatus", request.status, { requestId: request.requestId });
    const firmwareId = await recordFirmwareStatus(session.ctx, session.identity.pointId, step);
    const { pointId, serialNumber } = session.identity;
    session.publish({ type: "firmware", pointId, serialNumber, firmwareId, status: step, at: session.now() });
    return {};
  },

  // N01: the diagnostics request moves as for 1.6's DiagnosticsStatusNotification.
  async LogStatusNotification(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "DiagnosticsStatus", LOG_STEP[request.status], { requestId: request.requestId, status: request.status });
    return {};
  },

  // A02–A03: the request kept for the operator, who signs it with their own CA and sends
  // CertificateSigned, as for the 1.6 extension's SignCertificate (docs/rules/ocpp.md "Security extension").
  async SignCertificate(session, request) {
    await recordCertificateRequest(session.ctx, session.identity.pointId, request.csr);
    return { status: "Accepted" };
  },

  // K09: the profiles a GetChargingProfiles asked for, kept as the point's event for the operator to read.
  async ReportChargingProfiles(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "Event", "ReportChargingProfiles", { ...request });
    return {};
  },

  // K11–K13: a limit set outside the CSMS (an energy manager, the grid operator), and its clearing: kept as events.
  async NotifyChargingLimit(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "Event", "NotifyChargingLimit", { ...request });
    return {};
  },

  async ClearedChargingLimit(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "Event", "ClearedChargingLimit", { ...request });
    return {};
  },

  // O03–O04: the messages a GetDisplayMessages asked for, kept as the point's event.
  async NotifyDisplayMessages(session, request) {
    await recordPointEvent(session.ctx, session.identity.pointId, "Event", "NotifyDisplayMessages", { ...request });
    return {};
  },

  // A04: kept, and raised as an alarm when critical, by the same function as 1.6's security extension.
  async SecurityEventNotification(session, request) {
    await securityEvent(session, { type: request.type, timestamp: request.timestamp, ...(request.techInfo !== undefined && { techInfo: request.techInfo }), version: "2.0.1" });
    return {};
  },

  // N07–N08: a problem raises or clears its alarm like a 1.6 error code; other events are the point's events.
  async NotifyEvent(session, request) {
    notifyEvent(session, request);
    return {};
  },

  // H04: the charger ended a reservation itself; the connector is freed by its own StatusNotification.
  async ReservationStatusUpdate(session, request) {
    await endReservation(session.ctx, session.identity.pointId, request.reservationId, request.reservationUpdateStatus === "Expired" ? "expired" : "removed");
    return {};
  },
} satisfies Partial<{ [A in ChargerAction201]: Handler<A> }>;

/** Messages a station may send that this CSMS does not take, and why (answered NotSupported, Part 4 §4.3). */
export const NOT_TAKEN_201: Partial<Record<ChargerAction201, string>> = {
  Get15118EVCertificate: "ISO 15118 certificates (functional block M) are not supported",
  GetCertificateStatus: "ISO 15118 certificates (functional block M) are not supported",
  NotifyEVChargingNeeds: "ISO 15118 charging needs are not supported",
  NotifyEVChargingSchedule: "ISO 15118 charging schedules are not supported",
  PublishFirmwareStatusNotification: "Local firmware publishing (L03) is not supported",
  NotifyMonitoringReport: "Variable monitoring (N02-N06) is not supported",
  NotifyCustomerInformation: "Customer information requests (N09) are not supported",
};
