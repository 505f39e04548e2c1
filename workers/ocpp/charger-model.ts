import type { IdTagInfo, MeterValue } from "../../domain/ocpp";
import { liveReadings, normaliseMeterValues, registerWentBackwards } from "../../domain/ocpp";
import type { BillingMessage } from "../../domain/schemas/billing";
import { recordRegisterBackwards } from "../services/ocpp/transaction-reviews";
import { recordMeterJump } from "../services/ocpp/meter-jumps";
import { meterJumped } from "../../domain/ocpp/resilience";
import { keptSigned, signedReadings16, type SignedPair, type SignedReading } from "../../domain/ocpp/signed-meter";
import { startTransaction, stopTransaction, type StartFacts, type StopFacts } from "../services/ocpp/transactions";
import { type BootFacts } from "../services/ocpp/charger-changes";
import type { ThresholdShortfall } from "../services/ocpp/threshold";
import { operatorInService } from "./registration";
import { useReservationOnStart } from "./reservation-use";
import type { ChargerSession } from "./session";
import type { ChargerStore, Sample } from "./store";

/**
 * The one charger model both protocols translate into (docs/decisions/0078-one-charger-model-two-protocols.md):
 * a boot, a connector's status, a transaction's start, meter readings and stop. Each codec's
 * handlers read their own messages and call these; the records, the live view and billing see the
 * same facts whichever protocol a charger speaks. Connector numbers are the product's: 1.6's
 * connectorId, or a 2.0.1 EVSE's id (workers/ocpp/v201/evses.ts).
 */

/** The status a connector reports, in the product's words (OCPP 1.6's ChargePointStatus). */
export interface ConnectorReport {
  connectorId: number;
  status: string;
  errorCode: string;
  at: number;
  info?: string;
  vendorErrorCode?: string;
}

export type BootAnswer = "Accepted" | "Pending" | "Rejected";

/**
 * A boot (1.6 §4.2, 2.0.1 B01–B03): the registration this object keeps decides the answer (a
 * disabled point gets the operator's choice, Pending by default; an operator out of service
 * Rejected); its open transactions cannot survive the reboot: D1 marks them ABNORMAL when the
 * boot lands.
 */
export async function boot(session: ChargerSession, facts: BootFacts): Promise<{ status: BootAnswer; intervalS: number }> {
  const settings = await session.registration();
  session.state.heartbeatIntervalS = settings.heartbeatIntervalS;
  const operatorServes = operatorInService(settings, session.now());
  session.state.accepted = operatorServes && settings.enabled;
  session.state.activeTransactions = {};
  session.record({ kind: "boot", at: session.now(), facts });
  session.saveState();
  return { status: !operatorServes ? "Rejected" : settings.enabled ? "Accepted" : settings.disabledPointBoot, intervalS: settings.heartbeatIntervalS };
}

/**
 * A connector's status (1.6 StatusNotification, 2.0.1 G01 and the charging state of its
 * TransactionEvents): kept by this object, recorded in D1 after the answer, shown live once D1
 * has it. A repeat of the last status changes nothing.
 */
export function connectorStatus(session: ChargerSession, report: ConnectorReport) {
  const key = String(report.connectorId);
  const previous = session.state.connectors[key];
  if (previous?.status === report.status && previous.errorCode === report.errorCode) return;
  session.state.connectors[key] = { status: report.status, errorCode: report.errorCode };
  // The status history of a running transaction, for the idle fee during charging (docs/rules/pricing.md "The engine", idle fees).
  const running = session.state.activeTransactions[key];
  if (running !== undefined) session.store.addSessionStatus(running, report.at, report.status);
  // A transaction still running on a connector reported Available is marked ABNORMAL when this lands in D1.
  if (report.status === "Available") delete session.state.activeTransactions[key];
  // Alarms raised by the error code reach the live view once D1 has them.
  session.record({
    kind: "status",
    status: {
      connectorId: report.connectorId,
      status: report.status,
      errorCode: report.errorCode,
      info: report.info,
      vendorErrorCode: report.vendorErrorCode,
      at: report.at,
    },
  });
  session.saveState();
  // The live view hears the status from the change writer once D1 has it (decision 0111); a
  // reading held back goes now, so that it still reaches the page ahead of the status.
  session.flushReadings();
}

/**
 * A transaction starts (1.6 StartTransaction, 2.0.1 TransactionEvent Started or the first event
 * that names its id token): recorded in D1 before the answer, with its reservation used; a repeat
 * finds the same transaction and changes nothing.
 */
export async function transactionStarted(session: ChargerSession, start: StartFacts): Promise<{ transactionId: number; idTagInfo: IdTagInfo; active: boolean; shortfall: ThresholdShortfall | null }> {
  const { transactionId, idTagInfo, repeated, active, shortfall } = await startTransaction(session.ctx, session.identity.pointId, start, session.state.accepted);
  if (!repeated) await useReservationOnStart(session, start, transactionId);
  if (!repeated && active) {
    session.state.activeTransactions[String(start.connectorId)] = transactionId;
    session.lastEnergyWh.set(transactionId, start.meterStart);
    session.saveState();
    const { pointId, serialNumber } = session.identity;
    session.publish({
      type: "transaction",
      phase: "start",
      pointId,
      serialNumber,
      connectorId: start.connectorId,
      transactionId,
      idTag: start.idTag,
      meterWh: start.meterStart,
      at: Date.parse(start.timestamp),
    });
  }
  return { transactionId, idTagInfo, active, shortfall };
}

/** Samples of one message, a register that went backwards flagged for review, never billed negative (docs/rules/ocpp.md "Meter values"). */
function samplesOf(session: ChargerSession, connectorId: number, transactionId: number | null, meterValue: readonly MeterValue[]): Sample[] {
  const normalised = normaliseMeterValues(meterValue);
  let last = transactionId === null ? undefined : (session.lastEnergyWh.get(transactionId) ?? session.store.lastEnergyWh(transactionId));
  return normalised.map((s) => {
    let flagged = false;
    if (s.measurand === "Energy.Active.Import.Register" && !s.phase && transactionId !== null) {
      flagged = registerWentBackwards(last, s.value);
      if (!flagged) last = s.value;
    }
    return { ...s, transactionId, connectorId, flagged };
  });
}

/** The kv key of the signed readings kept per transaction, and how many recent transactions keep theirs. */
const SIGNED_KEY = "signedMeter";
const SIGNED_KEPT = 16;

/**
 * A transaction's signed readings (docs/rules/ocpi.md "Sessions and CDRs we send"): its first and
 * latest only, in this object's own storage, one small write when a message carries any; the
 * transactions kept are the most recent few, long enough for their CDR to be made after the stop.
 */
function keepSigned(session: ChargerSession, transactionId: number | null, readings: readonly SignedReading[]) {
  if (transactionId === null || readings.length === 0) return;
  const kept = session.store.get<Record<string, SignedPair>>(SIGNED_KEY) ?? {};
  const next = keptSigned(kept[transactionId], readings);
  if (!next) return;
  // Integer keys iterate in ascending order: the oldest transactions go first.
  session.store.put(SIGNED_KEY, Object.fromEntries(Object.entries({ ...kept, [transactionId]: next }).slice(-SIGNED_KEPT)));
}

/** The signed readings kept for a transaction, for its CDR (read-only). */
export const signedMeterOf = (store: ChargerStore, transactionId: number): SignedPair | null => store.get<Record<string, SignedPair>>(SIGNED_KEY)?.[transactionId] ?? null;

/**
 * Meter readings (1.6 MeterValues, 2.0.1 J01–J02 and the meter values of TransactionEvents): kept
 * in the charger's own storage with the log, never awaited from D1, shown live at a pace. Signed
 * readings (1.6 format SignedData; a 2.0.1 codec passes its signedMeterValue ones) are kept aside.
 */
export function meterReadings(session: ChargerSession, connectorId: number, transactionId: number | null, meterValue: readonly MeterValue[], signed = signedReadings16(meterValue)) {
  keepSigned(session, transactionId, signed);
  const samples = samplesOf(session, connectorId, transactionId, meterValue);
  if (samples.length === 0) return;
  session.writeSamples(samples);
  const good = samples.filter((s) => !s.flagged);
  const energy = good.findLast((s) => s.measurand === "Energy.Active.Import.Register" && !s.phase);
  if (transactionId !== null && energy) session.lastEnergyWh.set(transactionId, energy.value);
  if (samples.some((s) => s.flagged) && transactionId !== null) {
    session.waitUntil(recordRegisterBackwards(session.ctx, session.identity.pointId, transactionId, connectorId));
  }
  if (energy && transactionId !== null) jumpReview(session, connectorId, transactionId, energy);
  const live = liveReadings(good);
  const { pointId, serialNumber } = session.identity;
  session.publishMeter({ type: "meter", pointId, serialNumber, connectorId, transactionId, ...live, at: session.now() });
}

/**
 * A register reading beyond what the connector's power could deliver since the last one is kept
 * for review (METER_JUMP; docs/rules/monitoring.md "Suspect sessions"), and billed as read: the
 * review lists the session as suspect, an operator decides. Compared in memory only, so the first
 * reading after an eviction has nothing to compare to; one review a transaction while the object lives.
 */
function jumpReview(session: ChargerSession, connectorId: number, transactionId: number, energy: { value: number; timestamp: string }) {
  if (!session.lastEnergyAt) return;
  const next = { wh: energy.value, at: Date.parse(energy.timestamp) };
  if (!Number.isFinite(next.at)) return;
  const previous = session.lastEnergyAt.get(transactionId);
  // One review a transaction: a meter that jumps at every reading writes one row, not one a reading.
  session.lastEnergyAt.set(transactionId, { ...next, reviewed: previous?.reviewed });
  const powerW = session.connectorPowerW?.(connectorId);
  if (previous && !previous.reviewed && powerW !== undefined && meterJumped(previous, next, powerW)) {
    session.lastEnergyAt.set(transactionId, { ...next, reviewed: true });
    session.waitUntil(recordMeterJump(session.ctx, session.identity.pointId, transactionId, { connectorId, fromWh: previous.wh, toWh: next.wh, seconds: Math.round((next.at - previous.at) / 1000), powerW }));
  }
}

/** The energy register last read for a running transaction (its start's when nothing came since). */
export function lastEnergyOf(session: ChargerSession, transactionId: number): number | undefined {
  return session.lastEnergyWh.get(transactionId) ?? session.store.lastEnergyWh(transactionId);
}

/**
 * A transaction stops (1.6 StopTransaction, 2.0.1 TransactionEvent Ended): closed in D1 before the
 * answer, its last readings kept, billed through the queue (idempotent, so a repeated stop may
 * enqueue again without harm: docs/architecture.md "Jobs").
 */
export async function transactionStopped(session: ChargerSession, stop: StopFacts, transactionData: readonly MeterValue[], signed = signedReadings16(transactionData)) {
  const result = await stopTransaction(session.ctx, session.identity.pointId, stop);
  if (result.known && result.billable) {
    const connectorId = result.connectorId;
    keepSigned(session, stop.transactionId, signed);
    const samples = samplesOf(session, connectorId, stop.transactionId, transactionData);
    if (samples.length > 0) session.writeSamples(samples);
    if (session.state.activeTransactions[String(connectorId)] === stop.transactionId) {
      delete session.state.activeTransactions[String(connectorId)];
      session.saveState();
    }
    session.lastEnergyWh.delete(stop.transactionId);
    const { operatorId, operatorCode, pointId, serialNumber } = session.identity;
    session.waitUntil(session.env.BILLING.send({ transactionId: stop.transactionId, operatorId, operatorCode } satisfies BillingMessage));
    session.publish({
      type: "transaction",
      phase: "stop",
      pointId,
      serialNumber,
      connectorId,
      transactionId: stop.transactionId,
      idTag: stop.idTag,
      meterWh: stop.meterStop,
      at: Date.parse(stop.timestamp),
    });
  }
  return result;
}
