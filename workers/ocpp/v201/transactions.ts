import {
  chargingStatus,
  energyRegisterWh,
  idTokenInfoOf,
  meterValuesAs16,
  stopReasonOf,
} from "../../../domain/ocpp/v201/charger-model";
import type { IdTokenInfoType, Ocpp201Request, Ocpp201Response } from "../../../domain/ocpp/v201/schemas";
import { signedReadings201 } from "../../../domain/ocpp/signed-meter";
import { authorizeToken } from "../../services/ocpp/tag-answers";
import { withShortfall } from "../../services/ocpp/threshold";
import { connectorStatus, lastEnergyOf, meterReadings, transactionStarted, transactionStopped } from "../charger-model";
import type { ChargerSession, Transaction201, V201State } from "../session";
import { finalCost, keptPriceMessage, runningCost, takeTariff, withPersonalMessage } from "./cost";
import { errorCodeOn } from "./events";

/**
 * OCPP 2.0.1 transactions (Part 2 E01–E13) in the charger model: one TransactionEvent at a time,
 * each answered once. The charger names its transaction with its own string id; ours is made in D1
 * as soon as an id token is known (at Started for a card-first start, E03; at the Authorized
 * update for a plug-in-first one, E02; from the console's start for a remote one, F01), and the
 * charger's id is kept beside it (`chargerTransactionId`), which is also how a repeated Started
 * finds the same row (docs/rules/ocpp.md "Two protocols").
 */

const ENDED_KEPT = 32;

export function v201State(session: ChargerSession): V201State {
  session.state.v201 ??= { transactions: {}, ended: [], remoteStarts: {}, nextRequestId: 1 };
  return session.state.v201;
}

/** A new id for a request the charger will answer with later (remoteStartId, requestId of GetLog, UpdateFirmware). */
export function nextRequestId(session: ChargerSession): number {
  const state = v201State(session);
  const id = state.nextRequestId;
  state.nextRequestId = id >= 2 ** 31 - 1 ? 1 : id + 1;
  session.saveState();
  return id;
}

/** Remembers the tag of a console start (F01), for the Started event that names its remoteStartId; old ones go. */
export function rememberRemoteStart(session: ChargerSession, remoteStartId: number, idTag: string) {
  const state = v201State(session);
  const now = session.now();
  for (const [id, start] of Object.entries(state.remoteStarts)) if (now - start.at > 24 * 3600_000) delete state.remoteStarts[id];
  state.remoteStarts[String(remoteStartId)] = { idTag, at: now };
  session.saveState();
}

/** The charger's id of one of our running transactions (F03 RequestStopTransaction names the charger's). */
export function chargerTransactionIdOf(session: ChargerSession, transactionId: number): string | undefined {
  const state = v201State(session);
  return Object.entries(state.transactions).find(([, tx]) => tx.id === transactionId)?.[0];
}

/** The transaction running on an EVSE, by the charger's id. */
export function runningOn(session: ChargerSession, evseId: number): Transaction201 | undefined {
  return Object.values(v201State(session).transactions).find((tx) => tx.evseId === evseId);
}

/**
 * Transactions the station never ended (it lost them, or was replaced) are forgotten after a week,
 * so the state stays small; their records stay as D1 has them (a boot marks them ABNORMAL, as for
 * 1.6). A reboot itself forgets nothing: the station ends its transactions after it (E07
 * PowerLoss, ImmediateReset), and that Ended still finds ours.
 */
const STALE_MS = 7 * 24 * 3600_000;

function forgetStale(session: ChargerSession, state: V201State) {
  const now = session.now();
  for (const [id, tx] of Object.entries(state.transactions)) if (now - Date.parse(tx.startedAt) > STALE_MS) delete state.transactions[id];
}

/** Whether an event changed a transaction's state in more than its seqNo: only then is the state written. */
function changedBesidesSeqNo(before: Transaction201 | undefined, after: Transaction201): boolean {
  if (!before) return true;
  return (Object.keys(after) as (keyof Transaction201)[]).some((key) => key !== "seqNo" && before[key] !== after[key]);
}

export async function transactionEvent(
  session: ChargerSession,
  request: Ocpp201Request<"TransactionEvent">,
): Promise<Ocpp201Response<"TransactionEvent">> {
  const state = v201State(session);
  const chargerTransactionId = request.transactionInfo.transactionId;
  // A late or repeated event of a transaction that ended here changes nothing (E07, E11).
  if (state.ended.includes(chargerTransactionId)) return {};
  let tx = state.transactions[chargerTransactionId];
  if (tx && request.seqNo <= tx.seqNo && request.eventType !== "Ended") return {};
  // What a later event needs is stored when it changes; a reading's seqNo alone stays in memory, so
  // an Updated with readings writes no state (docs/rules/ocpp.md "Hot path"): a repeat after an
  // eviction is the only one that could slip through, and it adds readings, never a second stop.
  const before = tx && { ...tx };
  if (!tx) {
    forgetStale(session, state);
    tx = {
      evseId: request.evse?.id ?? 1,
      connectorId: request.evse?.connectorId,
      startedAt: request.timestamp,
      seqNo: -1,
      remoteStartId: request.transactionInfo.remoteStartId,
      reservationId: request.reservationId,
    };
    state.transactions[chargerTransactionId] = tx;
  }
  tx.seqNo = Math.max(tx.seqNo, request.seqNo);
  if (request.evse) {
    tx.evseId = request.evse.id;
    tx.connectorId = request.evse.connectorId ?? tx.connectorId;
  }
  tx.remoteStartId ??= request.transactionInfo.remoteStartId;
  tx.reservationId ??= request.reservationId;
  const meter = request.meterValue ?? [];
  tx.meterStartWh ??= energyRegisterWh(meter, "Transaction.Begin") ?? (request.eventType === "Started" ? energyRegisterWh(meter) : undefined);

  // The id token: the event's own, else the console's start it answers (F01).
  const remote = tx.remoteStartId === undefined ? undefined : state.remoteStarts[String(tx.remoteStartId)];
  tx.idToken ??= request.idToken?.idToken || remote?.idTag;
  let idTokenInfo: IdTokenInfoType | undefined;
  if (tx.id === undefined && tx.idToken) {
    const started = await transactionStarted(session, {
      connectorId: tx.evseId,
      idTag: tx.idToken,
      meterStart: tx.meterStartWh ?? energyRegisterWh(meter) ?? 0,
      timestamp: tx.startedAt,
      chargerTransactionId,
      ...(tx.reservationId !== undefined && { reservationId: tx.reservationId }),
    });
    tx.id = started.transactionId;
    tx.meterStartWh ??= energyRegisterWh(meter) ?? 0;
    if (remote) delete state.remoteStarts[String(tx.remoteStartId)];
    idTokenInfo = withShortfall(idTokenInfoOf(started.idTagInfo), started.shortfall);
    // Its tariff, kept for its running cost, and the price told to the driver (I01–I02).
    if (started.active) {
      const running = Object.values(state.transactions).flatMap((t) => (t.id === undefined ? [] : [t.id]));
      idTokenInfo = withPersonalMessage(idTokenInfo, await takeTariff(session, tx, running));
    }
  }

  const readings = meterValuesAs16(meter);
  const running = request.transactionInfo.chargingState && chargingStatus(request.transactionInfo.chargingState);
  if (request.eventType !== "Ended") {
    if (readings.length > 0) meterReadings(session, tx.evseId, tx.id ?? null, readings, signedReadings201(meter));
    if (running && running !== tx.status) {
      tx.status = running;
      connectorStatus(session, { connectorId: tx.evseId, status: running, errorCode: errorCodeOn(session, tx.evseId, "NoError"), at: Date.parse(request.timestamp) });
    }
    // The running cost, from this object's own storage (I02).
    const totalCost = runningCost(session, tx, Date.parse(request.timestamp));
    if (changedBesidesSeqNo(before, tx)) session.saveState();
    // The registry's word on a token the event names (E05): the charger stops a session the answer refuses.
    if (!idTokenInfo && request.idToken) {
      const { idTagInfo, shortfall } = await authorizeToken(session.ctx, session.identity.pointId, request.idToken.idToken, session.state.accepted);
      idTokenInfo = withShortfall(withPersonalMessage(idTokenInfoOf(idTagInfo), keptPriceMessage(session, tx)), shortfall);
    }
    return { ...(totalCost !== undefined && { totalCost }), ...(idTokenInfo && { idTokenInfo }) };
  }

  // Ended (E06, E07, E09–E11): the stop, its readings, billing; the charger's id remembered as ended.
  delete state.transactions[chargerTransactionId];
  state.ended = [...state.ended.slice(-(ENDED_KEPT - 1)), chargerTransactionId];
  session.saveState();
  if (tx.id === undefined) return {};
  const meterStop = energyRegisterWh(meter, "Transaction.End") ?? energyRegisterWh(meter) ?? lastEnergyOf(session, tx.id) ?? tx.meterStartWh ?? 0;
  const stopped = await transactionStopped(
    session,
    {
      transactionId: tx.id,
      meterStop,
      timestamp: request.timestamp,
      reason: stopReasonOf(request.transactionInfo.stoppedReason),
      ...(request.idToken && { idTag: request.idToken.idToken }),
    },
    readings,
    signedReadings201(meter),
  );
  // Finishing until the charger reports the connector free, unless it already has (G01 may come first).
  if (stopped.known && stopped.billable && session.state.connectors[String(tx.evseId)]?.status !== "Available") {
    connectorStatus(session, { connectorId: tx.evseId, status: "Finishing", errorCode: errorCodeOn(session, tx.evseId, "NoError"), at: Date.parse(request.timestamp) });
  }
  // The cost of the whole session, priced as billing will price it (I03).
  const totalCost = finalCost(session, tx, tx.id, stopped.known && stopped.billable ? { at: Date.parse(request.timestamp), meterWh: meterStop } : null);
  return {
    ...(totalCost !== undefined && { totalCost }),
    ...(stopped.idTagInfo && request.idToken && { idTokenInfo: idTokenInfoOf(stopped.idTagInfo) }),
  };
}
