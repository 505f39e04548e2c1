import type { CertificateUse, ChargingProfile, OcppRequest, OcppResponse, ServerAction } from "../../../domain/ocpp";
import type { ServerAction201 } from "../../../domain/ocpp/v201/actions";
import { idTokenInfoOf, type CommandTokens } from "../../../domain/ocpp/v201/charger-model";
import type { ChargingProfileType, Ocpp201Request, Ocpp201Response } from "../../../domain/ocpp/v201/schemas";
import type { ChargerSession } from "../session";
import { CONFIGURATION_TWINS, twinOf, twinTarget } from "../../../domain/ocpp/v201/configuration-twins";
import { chargerTransactionIdOf, nextRequestId, rememberRemoteStart, runningOn, v201State } from "./transactions";
import { mutabilityOf } from "./device-model";

/**
 * The product's commands in OCPP 2.0.1 (docs/decisions/0078-one-charger-model-two-protocols.md).
 * Verbs speak one vocabulary, the 1.6 command words they always spoke (Reset Soft/Hard, a
 * connectorId, an integer transactionId); for a 2.0.1 connection each is sent as its 2.0.1 twin
 * and the reply read back into the 1.6 answer the verb expects. A word with no twin is refused
 * with the 2.0.1 message to use instead (the API answers it 400).
 */

/** How a 2.0.1 reply reads as the verb's answer: the 1.6 response, or why the charger did not do it. */
export type Reply<A extends ServerAction> = { ok: true; response: OcppResponse<A> } | { ok: false; code: string; description: string };

export type Translation<A extends ServerAction = ServerAction> =
  | { ok: true; action: ServerAction201; payload: unknown; reply: (response: unknown) => Reply<A> }
  | { ok: false; description: string };

const send = <A extends ServerAction, B extends ServerAction201>(
  action: B,
  payload: Ocpp201Request<B>,
  reply: (response: Ocpp201Response<B>) => Reply<A>,
): Translation<A> => ({ ok: true, action, payload, reply: reply as (response: unknown) => Reply<A> });

/** The reply's status, 2.0.1's `Scheduled` (done once the charger is free) read as 1.6's Accepted. */
const accepted = (status: string) => (status === "Scheduled" ? "Accepted" : status);

/** A set variable's status as 1.6's ChangeConfiguration answer: a variable the charger does not have is NotSupported. */
const CHANGE_STATUS: Record<Ocpp201Response<"SetVariables">["setVariableResult"][number]["attributeStatus"], OcppResponse<"ChangeConfiguration">["status"]> = {
  Accepted: "Accepted",
  RebootRequired: "RebootRequired",
  Rejected: "Rejected",
  UnknownComponent: "NotSupported",
  UnknownVariable: "NotSupported",
  NotSupportedAttributeType: "NotSupported",
};

/** The connector numbers of the product are a 2.0.1 charger's EVSE ids; 0 is the whole station. */
const evseOf = (connectorId: number | undefined) => (connectorId ? { evse: { id: connectorId } } : {});

/** A 1.6 charging profile as 2.0.1's (K01): ChargePointMaxProfile is ChargingStationMaxProfile, the schedule a list. */
export function chargingProfile201(profile: ChargingProfile, session: ChargerSession): ChargingProfileType {
  const { chargingSchedule: schedule } = profile;
  const transactionId = profile.transactionId === undefined ? undefined : chargerTransactionIdOf(session, profile.transactionId);
  return {
    id: profile.chargingProfileId,
    stackLevel: profile.stackLevel,
    chargingProfilePurpose: profile.chargingProfilePurpose === "ChargePointMaxProfile" ? "ChargingStationMaxProfile" : profile.chargingProfilePurpose,
    chargingProfileKind: profile.chargingProfileKind,
    ...(profile.recurrencyKind && { recurrencyKind: profile.recurrencyKind }),
    ...(profile.validFrom && { validFrom: profile.validFrom }),
    ...(profile.validTo && { validTo: profile.validTo }),
    ...(transactionId && { transactionId }),
    chargingSchedule: [
      {
        id: profile.chargingProfileId,
        chargingRateUnit: schedule.chargingRateUnit,
        chargingSchedulePeriod: schedule.chargingSchedulePeriod.map((p) => ({
          startPeriod: p.startPeriod,
          limit: p.limit,
          ...(p.numberPhases !== undefined && { numberPhases: p.numberPhases }),
        })),
        ...(schedule.duration !== undefined && { duration: schedule.duration }),
        ...(schedule.startSchedule && { startSchedule: schedule.startSchedule }),
        ...(schedule.minChargingRate !== undefined && { minChargingRate: schedule.minChargingRate }),
      },
    ],
  };
}

/** The 1.6 security extension's root certificate types in 2.0.1's words. */
const certificateUse201 = (use: CertificateUse) => (use === "CentralSystemRootCertificate" ? ("CSMSRootCertificate" as const) : use);

/** `tokens`: the 2.0.1 types of the tags the command names (Central when absent). */
type Translators = { [A in ServerAction]: (session: ChargerSession, payload: OcppRequest<A>, tokens: CommandTokens) => Translation<A> };

const TRANSLATORS: Translators = {
  // F01: the console's start names a remoteStartId; its Started event is tied back to it and its tag.
  RemoteStartTransaction(session, p, tokens) {
    const remoteStartId = nextRequestId(session);
    rememberRemoteStart(session, remoteStartId, p.idTag);
    return send(
      "RequestStartTransaction",
      {
        remoteStartId,
        idToken: { idToken: p.idTag, type: tokens.idToken ?? "Central" },
        ...(p.connectorId && { evseId: p.connectorId }),
        ...(p.chargingProfile && { chargingProfile: chargingProfile201(p.chargingProfile, session) }),
      },
      (r) => ({ ok: true, response: { status: r.status } }),
    );
  },
  // F03: the charger's own transaction id.
  RemoteStopTransaction(session, p) {
    const transactionId = chargerTransactionIdOf(session, p.transactionId);
    if (!transactionId) return { ok: false, description: `Transaction ${p.transactionId} is not running on this charger` };
    return send("RequestStopTransaction", { transactionId }, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // B11–B12: Soft is OnIdle, Hard Immediate.
  Reset(_session, p) {
    return send("Reset", { type: p.type === "Hard" ? "Immediate" : "OnIdle" }, (r) => ({ ok: true, response: { status: accepted(r.status) as "Accepted" | "Rejected" } }));
  },
  // G03–G04: station (0) or an EVSE.
  ChangeAvailability(_session, p) {
    return send("ChangeAvailability", { operationalStatus: p.type, ...evseOf(p.connectorId) }, (r) => ({
      ok: true,
      response: { status: r.status },
    }));
  },
  // F05: the EVSE's connector (the one its transaction uses, else its first).
  UnlockConnector(session, p) {
    const connectorId = runningOn(session, p.connectorId)?.connectorId ?? 1;
    return send("UnlockConnector", { evseId: p.connectorId, connectorId }, (r) => ({
      ok: true,
      response: { status: r.status === "Unlocked" ? "Unlocked" : r.status === "UnlockFailed" ? "UnlockFailed" : "NotSupported" },
    }));
  },
  // F06: 1.6's DiagnosticsStatusNotification is 2.0.1's LogStatusNotification.
  TriggerMessage(_session, p) {
    const requestedMessage = p.requestedMessage === "DiagnosticsStatusNotification" ? "LogStatusNotification" : p.requestedMessage;
    return send("TriggerMessage", { requestedMessage, ...evseOf(p.connectorId) }, (r) => ({
      ok: true,
      response: { status: r.status },
    }));
  },
  ClearCache(_session) {
    return send("ClearCache", {}, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // D01
  GetLocalListVersion() {
    return send("GetLocalListVersion", {}, (r) => ({ ok: true, response: { listVersion: r.versionNumber } }));
  },
  // D02: each entry's registry answer in 2.0.1 terms; the cards are ISO14443 (RFID), as the offline list holds cards.
  SendLocalList(_session, p) {
    return send(
      "SendLocalList",
      {
        versionNumber: p.listVersion,
        updateType: p.updateType,
        ...(p.localAuthorizationList && {
          localAuthorizationList: p.localAuthorizationList.map((entry) => ({
            idToken: { idToken: entry.idTag, type: "ISO14443" as const },
            ...(entry.idTagInfo && { idTokenInfo: idTokenInfoOf(entry.idTagInfo) }),
          })),
        }),
      },
      (r) => ({ ok: true, response: { status: r.status } }),
    );
  },
  // H01
  ReserveNow(_session, p, tokens) {
    return send(
      "ReserveNow",
      {
        id: p.reservationId,
        expiryDateTime: p.expiryDate,
        idToken: { idToken: p.idTag, type: tokens.idToken ?? "Central" },
        ...(p.connectorId && { evseId: p.connectorId }),
        ...(p.parentIdTag && { groupIdToken: { idToken: p.parentIdTag, type: "Central" as const } }),
      },
      (r) => ({ ok: true, response: { status: r.status } }),
    );
  },
  // H02
  CancelReservation(_session, p) {
    return send("CancelReservation", { reservationId: p.reservationId }, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // K01: a 2.0.1 TxProfile names its transaction; 1.6's may leave it to the one running on the connector (OCPP 1.6 §5.16).
  SetChargingProfile(session, p) {
    const chargingProfile = chargingProfile201(p.csChargingProfiles, session);
    if (chargingProfile.chargingProfilePurpose === "TxProfile" && chargingProfile.transactionId === undefined) {
      const running = Object.entries(v201State(session).transactions).find(([, tx]) => tx.evseId === p.connectorId)?.[0];
      if (running) chargingProfile.transactionId = running;
    }
    return send("SetChargingProfile", { evseId: p.connectorId, chargingProfile }, (r) => ({
      ok: true,
      response: { status: r.status },
    }));
  },
  // K10
  ClearChargingProfile(_session, p) {
    const purpose: ChargingProfileType["chargingProfilePurpose"] | undefined =
      p.chargingProfilePurpose === "ChargePointMaxProfile" ? "ChargingStationMaxProfile" : p.chargingProfilePurpose;
    const criteria = {
      ...(p.connectorId !== undefined && { evseId: p.connectorId }),
      ...(purpose && { chargingProfilePurpose: purpose }),
      ...(p.stackLevel !== undefined && { stackLevel: p.stackLevel }),
    };
    return send(
      "ClearChargingProfile",
      { ...(p.id !== undefined && { chargingProfileId: p.id }), ...(Object.keys(criteria).length > 0 && { chargingProfileCriteria: criteria }) },
      (r) => ({ ok: true, response: { status: r.status } }),
    );
  },
  // K08: the schedule comes back as 1.6's chargingSchedule.
  GetCompositeSchedule(_session, p) {
    return send(
      "GetCompositeSchedule",
      { evseId: p.connectorId, duration: p.duration, ...(p.chargingRateUnit && { chargingRateUnit: p.chargingRateUnit }) },
      (r) => ({
        ok: true,
        response: {
          status: r.status,
          ...(r.schedule && {
            connectorId: r.schedule.evseId,
            scheduleStart: r.schedule.scheduleStart,
            chargingSchedule: {
              duration: r.schedule.duration,
              chargingRateUnit: r.schedule.chargingRateUnit,
              chargingSchedulePeriod: r.schedule.chargingSchedulePeriod.map((c) => ({
                startPeriod: c.startPeriod,
                limit: Math.round(c.limit * 10) / 10,
                ...(c.numberPhases !== undefined && { numberPhases: c.numberPhases }),
              })),
            },
          }),
        },
      }),
    );
  },
  // N01: GetDiagnostics is GetLog of the diagnostics log.
  GetDiagnostics(session, p) {
    return send(
      "GetLog",
      {
        logType: "DiagnosticsLog",
        requestId: nextRequestId(session),
        log: {
          remoteLocation: p.location,
          ...(p.startTime && { oldestTimestamp: p.startTime }),
          ...(p.stopTime && { latestTimestamp: p.stopTime }),
        },
        ...(p.retries !== undefined && { retries: p.retries }),
        ...(p.retryInterval !== undefined && { retryInterval: p.retryInterval }),
      },
      (r) =>
        r.status === "Rejected"
          ? { ok: false, code: "Rejected", description: "The charger refused to upload its log" }
          : { ok: true, response: r.filename ? { fileName: r.filename } : {} },
    );
  },
  // L01: unsigned here; a signed update goes as 2.0.1's own UpdateFirmware from /command.
  UpdateFirmware(session, p) {
    return send(
      "UpdateFirmware",
      {
        requestId: nextRequestId(session),
        firmware: { location: p.location, retrieveDateTime: p.retrieveDate },
        ...(p.retries !== undefined && { retries: p.retries }),
        ...(p.retryInterval !== undefined && { retryInterval: p.retryInterval }),
      },
      (r) => (r.status === "Accepted" ? { ok: true, response: {} } : { ok: false, code: r.status, description: `The charger answered ${r.status}` }),
    );
  },
  // The 1.6 security extension's commands are 2.0.1 messages (docs/rules/ocpp.md "Security extension").
  // F06: its trigger list names 2.0.1's messages but for the certificate request.
  ExtendedTriggerMessage(_session, p) {
    const requestedMessage = p.requestedMessage === "SignChargePointCertificate" ? "SignChargingStationCertificate" : p.requestedMessage;
    return send("TriggerMessage", { requestedMessage, ...evseOf(p.connectorId) }, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // N01: the same message.
  GetLog(_session, p) {
    return send("GetLog", p, (r) => ({ ok: true, response: { status: r.status, ...(r.filename !== undefined && { filename: r.filename }) } }));
  },
  // L01: a signed update is 2.0.1's UpdateFirmware with its signature.
  SignedUpdateFirmware(_session, p) {
    return send("UpdateFirmware", p, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // M05 (for the CSMS and manufacturer roots): 1.6's CentralSystemRootCertificate is the CSMSRootCertificate.
  InstallCertificate(_session, p) {
    return send("InstallCertificate", { certificateType: certificateUse201(p.certificateType), certificate: p.certificate }, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // M03: the chains' own certificates, as 1.6's list.
  GetInstalledCertificateIds(_session, p) {
    return send("GetInstalledCertificateIds", { certificateType: [certificateUse201(p.certificateType)] }, (r) => {
      const certificateHashData = (r.certificateHashDataChain ?? []).map((chain) => chain.certificateHashData);
      return { ok: true, response: { status: r.status, ...(certificateHashData.length > 0 && { certificateHashData }) } };
    });
  },
  // M04
  DeleteCertificate(_session, p) {
    return send("DeleteCertificate", { certificateHashData: p.certificateHashData }, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // A02–A03: the chain signs the charger's own certificate.
  CertificateSigned(_session, p) {
    return send("CertificateSigned", { certificateChain: p.certificateChain, certificateType: "ChargingStationCertificate" }, (r) => ({ ok: true, response: { status: r.status } }));
  },
  // P02
  DataTransfer(_session, p) {
    return send("DataTransfer", { vendorId: p.vendorId, ...(p.messageId && { messageId: p.messageId }), ...(p.data !== undefined && { data: p.data }) }, (r) => ({
      ok: true,
      response: { status: r.status, ...(typeof r.data === "string" && { data: r.data }) },
    }));
  },
  // B05 (and A01 for AuthorizationKey): a key with a standard twin is set as its variable.
  ChangeConfiguration(_session, p) {
    const twin = twinOf(p.key);
    if (!twin) return { ok: false, description: `${p.key} has no OCPP 2.0.1 twin: set a variable of the device model with SetVariables` };
    return send("SetVariables", { setVariableData: [{ ...twinTarget(twin), attributeValue: p.value }] }, (r) => ({
      ok: true,
      response: { status: CHANGE_STATUS[r.setVariableResult[0].attributeStatus] },
    }));
  },
  // B06: the keys with a twin are read as their variables (all of them when none is named); the others are unknown.
  GetConfiguration(session, p) {
    const named = p.key?.length ? p.key : CONFIGURATION_TWINS.filter((twin) => !twin.writeOnly).map((twin) => twin.key);
    const read = named.flatMap((key) => {
      const twin = twinOf(key);
      return twin ? [{ key, twin }] : [];
    });
    if (read.length === 0) return { ok: false, description: `${named.join(", ")} have no OCPP 2.0.1 twin: read the device model with GetVariables or GetBaseReport` };
    const unknownKey = named.filter((key) => !twinOf(key));
    return send("GetVariables", { getVariableData: read.map(({ twin }) => twinTarget(twin)) }, (r) => {
      const configurationKey = read.flatMap(({ key, twin }) => {
        const target = twinTarget(twin);
        const result = r.getVariableResult.find(
          (x) => x.component.name.toLowerCase() === twin.component.toLowerCase() && x.variable.name.toLowerCase() === twin.variable.toLowerCase() && (x.variable.instance ?? "") === (twin.instance ?? ""),
        );
        // Unknown to the charger (or not answered): 1.6's unknownKey. Rejected (a WriteOnly value): the key exists, without a value.
        if (!result || (result.attributeStatus !== "Accepted" && result.attributeStatus !== "Rejected")) {
          unknownKey.push(key);
          return [];
        }
        const mutability = mutabilityOf(session.store, target.component, target.variable);
        const readonly = mutability ? mutability === "ReadOnly" : twin.readonly === true;
        return [{ key, readonly, ...(result.attributeStatus === "Accepted" && result.attributeValue !== undefined && { value: result.attributeValue }) }];
      });
      return { ok: true, response: { ...(configurationKey.length > 0 && { configurationKey }), ...(unknownKey.length > 0 && { unknownKey }) } };
    });
  },
};

/** The 2.0.1 message for a product command, or why there is none. */
export function commandIn201<A extends ServerAction>(session: ChargerSession, action: A, payload: OcppRequest<A>, tokens: CommandTokens = {}): Translation<A> {
  return (TRANSLATORS[action] as (s: ChargerSession, p: OcppRequest<A>, t: CommandTokens) => Translation<A>)(session, payload, tokens);
}
