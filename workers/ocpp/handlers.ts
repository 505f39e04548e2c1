import type { ChargerAction, OcppRequest, OcppResponse } from "../../domain/ocpp";
import { liveReadings, normaliseMeterValues, registerWentBackwards } from "../../domain/ocpp";
import { authorize, recordPointEvent, recordRegisterBackwards, startTransaction, stopTransaction } from "../services/ocpp/charger-records";
import type { BillingMessage } from "../../domain/schemas/billing";
import { FirmwareStatusNotification } from "./firmware-handlers";
import { useReservationOnStart } from "./reservation-use";
import type { ChargerSession } from "./session";
import { operatorInService } from "./registration";
import type { Sample } from "./store";

type Handler<A extends ChargerAction> = (session: ChargerSession, request: OcppRequest<A>) => Promise<OcppResponse<A>>;

/** Vendor-specific DataTransfer handlers; none yet, so every vendor gets UnknownVendorId (OCPP 1.6 §6.17). */
const VENDOR_HANDLERS: Record<string, (messageId: string | undefined, data: string | undefined) => Promise<OcppResponse<"DataTransfer">>> = {};

const iso = (ms: number) => new Date(ms).toISOString();

function samplesOf(
  session: ChargerSession,
  connectorId: number,
  transactionId: number | null,
  meterValue: OcppRequest<"MeterValues">["meterValue"],
): Sample[] {
  const normalised = normaliseMeterValues(meterValue);
  let last = transactionId === null ? undefined : (session.lastEnergyWh.get(transactionId) ?? session.store.lastEnergyWh(transactionId));
  return normalised.map((s) => {
    let flagged = false;
    if (s.measurand === "Energy.Active.Import.Register" && !s.phase && transactionId !== null) {
      // A register going backwards is kept for review, never billed negative (docs/rules/ocpp.md).
      flagged = registerWentBackwards(last, s.value);
      if (!flagged) last = s.value;
    }
    return { ...s, transactionId, connectorId, flagged };
  });
}

/** One entry per action a charger may send: the typed table of docs/rules/ocpp.md "Framing". */
export const HANDLERS: { [A in ChargerAction]: Handler<A> } = {
  async BootNotification(session, request) {
    const settings = await session.registration();
    session.state.heartbeatIntervalS = settings.heartbeatIntervalS;
    const operatorServes = operatorInService(settings, session.now());
    session.state.accepted = operatorServes && settings.enabled;
    // Its open transactions cannot survive the reboot: D1 marks them ABNORMAL when the boot lands.
    session.state.activeTransactions = {};
    session.record({
      kind: "boot",
      at: session.now(),
      facts: {
        vendor: request.chargePointVendor,
        model: request.chargePointModel,
        firmwareVersion: request.firmwareVersion,
        boxSerialNumber: request.chargeBoxSerialNumber ?? request.chargePointSerialNumber,
        iccid: request.iccid,
        imsi: request.imsi,
        meterSerialNumber: request.meterSerialNumber,
        meterType: request.meterType,
      },
    });
    session.saveState();
    return {
      status: !operatorServes ? "Rejected" : settings.enabled ? "Accepted" : settings.disabledPointBoot,
      currentTime: iso(session.now()),
      interval: settings.heartbeatIntervalS,
    };
  },

  async Heartbeat(session) {
    return { currentTime: iso(session.now()) };
  },

  async StatusNotification(session, request) {
    const key = String(request.connectorId);
    const previous = session.state.connectors[key];
    if (previous?.status === request.status && previous.errorCode === request.errorCode) return {};
    session.state.connectors[key] = { status: request.status, errorCode: request.errorCode };
    const at = request.timestamp ? Date.parse(request.timestamp) : session.now();
    // The status history of a running transaction, for the idle fee during charging (docs/rules/pricing.md "The engine", idle fees).
    const running = session.state.activeTransactions[key];
    if (running !== undefined) session.store.addSessionStatus(running, at, request.status);
    // A transaction still running on a connector reported Available is marked ABNORMAL when this lands in D1.
    if (request.status === "Available") delete session.state.activeTransactions[key];
    // Alarms raised by the error code reach the live view once D1 has them.
    session.record({
      kind: "status",
      status: {
        connectorId: request.connectorId,
        status: request.status,
        errorCode: request.errorCode,
        info: request.info,
        vendorErrorCode: request.vendorErrorCode,
        at,
      },
    });
    session.saveState();
    const { pointId, serialNumber } = session.identity;
    session.publish({ type: "connector", pointId, serialNumber, connectorId: request.connectorId, status: request.status, errorCode: request.errorCode, at });
    return {};
  },

  async Authorize(session, request) {
    return { idTagInfo: await authorize(session.ctx, session.identity.pointId, request.idTag, session.state.accepted) };
  },

  async StartTransaction(session, request) {
    const { transactionId, idTagInfo, repeated, active } = await startTransaction(
      session.ctx,
      session.identity.pointId,
      request,
      session.state.accepted,
    );
    if (!repeated) await useReservationOnStart(session, request, transactionId);
    if (!repeated && active) {
      session.state.activeTransactions[String(request.connectorId)] = transactionId;
      session.lastEnergyWh.set(transactionId, request.meterStart);
      session.saveState();
      const { pointId, serialNumber } = session.identity;
      session.publish({
        type: "transaction",
        phase: "start",
        pointId,
        serialNumber,
        connectorId: request.connectorId,
        transactionId,
        idTag: request.idTag,
        meterWh: request.meterStart,
        at: Date.parse(request.timestamp),
      });
    }
    return { transactionId, idTagInfo };
  },

  async StopTransaction(session, request) {
    const result = await stopTransaction(session.ctx, session.identity.pointId, request);
    if (result.known && result.billable) {
      const connectorId = result.connectorId;
      session.writeSamples(samplesOf(session, connectorId, request.transactionId, request.transactionData ?? []));
      if (session.state.activeTransactions[String(connectorId)] === request.transactionId) {
        delete session.state.activeTransactions[String(connectorId)];
        session.saveState();
      }
      session.lastEnergyWh.delete(request.transactionId);
      // Billing is idempotent, so a repeated stop may enqueue again without harm (docs/architecture.md "Jobs").
      const { operatorId, operatorCode } = session.identity;
      session.waitUntil(session.env.BILLING.send({ transactionId: request.transactionId, operatorId, operatorCode } satisfies BillingMessage));
      const { pointId, serialNumber } = session.identity;
      session.publish({
        type: "transaction",
        phase: "stop",
        pointId,
        serialNumber,
        connectorId,
        transactionId: request.transactionId,
        idTag: request.idTag,
        meterWh: request.meterStop,
        at: Date.parse(request.timestamp),
      });
    }
    return result.idTagInfo ? { idTagInfo: result.idTagInfo } : {};
  },

  async MeterValues(session, request) {
    const transactionId = request.transactionId ?? null;
    const samples = samplesOf(session, request.connectorId, transactionId, request.meterValue);
    session.writeSamples(samples);
    const good = samples.filter((s) => !s.flagged);
    const energy = good.findLast((s) => s.measurand === "Energy.Active.Import.Register" && !s.phase);
    if (transactionId !== null && energy) session.lastEnergyWh.set(transactionId, energy.value);
    if (samples.some((s) => s.flagged) && transactionId !== null) {
      session.waitUntil(recordRegisterBackwards(session.ctx, session.identity.pointId, transactionId, request.connectorId));
    }
    const live = liveReadings(good);
    const { pointId, serialNumber } = session.identity;
    session.publishMeter({ type: "meter", pointId, serialNumber, connectorId: request.connectorId, transactionId, ...live, at: session.now() });
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
};

