/**
 * Request and response payloads of the 28 OCPP 1.6J actions, transcribed from the official JSON
 * schemas (OCPP 1.6 §6 messages, §7 types; the JSON files shipped by the Open Charge Alliance, as
 * bundled in `ocpp-rpc/lib/schemas/ocpp1_6.json`), and of the 11 messages of the security
 * extension (edition 3 §5, §6; its JSON files are in domain/ocpp/security-schemas/). Every object
 * in those schemas says `additionalProperties: false`, hence `z.strictObject` throughout. The
 * cross-check against the JSON files is in tests/unit/ocpp/schemas.test.ts.
 */
import { z } from "zod";
import { CHARGE_POINT_STATUSES } from "../connector-status";
import type { OcppAction } from "./actions";

/** JSON `integer`: zod also bounds it to the safe-integer range, which is wider than the int32 chargers use. */
const integer = z.number().int();

/** JSON `number` with `multipleOf: 0.1`: charging limits and rates carry at most one decimal. */
const tenths = z.number().multipleOf(0.1);

/** CiStringNType (OCPP 1.6 §7): case-insensitive text of at most N characters. */
const ciString = (maxLength: 20 | 25 | 50 | 255 | 500) => z.string().max(maxLength);

/**
 * `format: date-time` (RFC 3339 §5.6): a full date and time with `Z` or a `±hh:mm` offset. RFC 3339
 * lets `T` and `Z` be lower case (OCPP 1.6 errata v4.0 holds chargers to RFC 3339), so the value is
 * read upper-cased: what comes out is the form `Date.parse` and the rest of the code expect.
 */
export const dateTime = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.iso.datetime({ offset: true }));

/**
 * A list the 1.6 message tables give as `1..*` (OCPP 1.6 §6, §7). The JSON schemas shipped with
 * 1.6 leave the lower bound out; an empty list is answered OccurenceConstraintViolation.
 */
const atLeastOne = <T extends z.ZodType>(item: T) => z.array(item).min(1);

/** The RFC 3986 `URI` production, composed from its ABNF so that it can be read against the RFC. */
const RFC_3986_URI = (() => {
  const pct = "%[0-9A-Fa-f]{2}";
  const unreservedAndSubDelims = "A-Za-z0-9\\-._~!$&'()*+,;=";
  const pchar = `(?:[${unreservedAndSubDelims}:@]|${pct})`;
  const scheme = "[A-Za-z][A-Za-z0-9+\\-.]*";
  const userinfo = `(?:[${unreservedAndSubDelims}:]|${pct})*`;
  // IP-literal is checked for its alphabet only; a malformed IPv6 address passes.
  const ipLiteral = `\\[(?:[0-9A-Fa-f:.]+|[Vv][0-9A-Fa-f]+\\.[${unreservedAndSubDelims}:]+)\\]`;
  const regName = `(?:[${unreservedAndSubDelims}]|${pct})*`;
  const authority = `(?:${userinfo}@)?(?:${ipLiteral}|${regName})(?::\\d*)?`;
  const pathAbempty = `(?:/${pchar}*)*`;
  const pathAbsolute = `/(?:${pchar}+(?:/${pchar}*)*)?`;
  const pathRootless = `${pchar}+(?:/${pchar}*)*`;
  // path-empty is left out: a firmware or diagnostics location has to point somewhere.
  const hierPart = `(?://${authority}${pathAbempty}|${pathAbsolute}|${pathRootless})`;
  const queryOrFragment = `(?:${pchar}|[/?])*`;
  return new RegExp(`^${scheme}:${hierPart}(?:\\?${queryOrFragment})?(?:#${queryOrFragment})?$`);
})();

/**
 * `format: uri`: an absolute URI (scheme included), as for firmware and diagnostics locations. The
 * metadata keeps `format: "uri"` in z.toJSONSchema output, next to the pattern.
 */
export const uri = z.string().regex(RFC_3986_URI, "Invalid URI").meta({ format: "uri" });

export const AuthorizationStatus = z.enum(["Accepted", "Blocked", "Expired", "Invalid", "ConcurrentTx"]);
export type AuthorizationStatus = z.output<typeof AuthorizationStatus>;

export const RegistrationStatus = z.enum(["Accepted", "Pending", "Rejected"]);
export type RegistrationStatus = z.output<typeof RegistrationStatus>;

export const ChargePointStatus = z.enum(CHARGE_POINT_STATUSES);
export type ChargePointStatus = z.output<typeof ChargePointStatus>;

export const ChargePointErrorCode = z.enum([
  "ConnectorLockFailure",
  "EVCommunicationError",
  "GroundFailure",
  "HighTemperature",
  "InternalError",
  "LocalListConflict",
  "NoError",
  "OtherError",
  "OverCurrentFailure",
  "PowerMeterFailure",
  "PowerSwitchFailure",
  "ReaderFailure",
  "ResetFailure",
  "UnderVoltage",
  "OverVoltage",
  "WeakSignal",
]);
export type ChargePointErrorCode = z.output<typeof ChargePointErrorCode>;

export const StopReason = z.enum([
  "EmergencyStop",
  "EVDisconnected",
  "HardReset",
  "Local",
  "Other",
  "PowerLoss",
  "Reboot",
  "Remote",
  "SoftReset",
  "UnlockCommand",
  "DeAuthorized",
]);
export type StopReason = z.output<typeof StopReason>;

export const ReadingContext = z.enum([
  "Interruption.Begin",
  "Interruption.End",
  "Sample.Clock",
  "Sample.Periodic",
  "Transaction.Begin",
  "Transaction.End",
  "Trigger",
  "Other",
]);
export type ReadingContext = z.output<typeof ReadingContext>;

export const ValueFormat = z.enum(["Raw", "SignedData"]);
export type ValueFormat = z.output<typeof ValueFormat>;

export const Measurand = z.enum([
  "Energy.Active.Export.Register",
  "Energy.Active.Import.Register",
  "Energy.Reactive.Export.Register",
  "Energy.Reactive.Import.Register",
  "Energy.Active.Export.Interval",
  "Energy.Active.Import.Interval",
  "Energy.Reactive.Export.Interval",
  "Energy.Reactive.Import.Interval",
  "Power.Active.Export",
  "Power.Active.Import",
  "Power.Offered",
  "Power.Reactive.Export",
  "Power.Reactive.Import",
  "Power.Factor",
  "Current.Import",
  "Current.Export",
  "Current.Offered",
  "Voltage",
  "Frequency",
  "Temperature",
  "SoC",
  "RPM",
]);
export type Measurand = z.output<typeof Measurand>;

export const Phase = z.enum(["L1", "L2", "L3", "N", "L1-N", "L2-N", "L3-N", "L1-L2", "L2-L3", "L3-L1"]);
export type Phase = z.output<typeof Phase>;

export const MeasurementLocation = z.enum(["Cable", "EV", "Inlet", "Outlet", "Body"]);
export type MeasurementLocation = z.output<typeof MeasurementLocation>;

/**
 * Both "Celcius" (sic) and "Celsius" are in the 1.6 schema; chargers send either. "Hertz", the unit
 * of the Frequency measurand, was missing from 1.6 and added by errata v4.0.
 */
export const UnitOfMeasure = z.enum([
  "Wh",
  "kWh",
  "varh",
  "kvarh",
  "W",
  "kW",
  "VA",
  "kVA",
  "var",
  "kvar",
  "A",
  "V",
  "K",
  "Celcius",
  "Celsius",
  "Fahrenheit",
  "Percent",
  "Hertz",
]);
export type UnitOfMeasure = z.output<typeof UnitOfMeasure>;

export const ChargingProfilePurpose = z.enum(["ChargePointMaxProfile", "TxDefaultProfile", "TxProfile"]);
export type ChargingProfilePurpose = z.output<typeof ChargingProfilePurpose>;

export const ChargingProfileKind = z.enum(["Absolute", "Recurring", "Relative"]);
export type ChargingProfileKind = z.output<typeof ChargingProfileKind>;

export const RecurrencyKind = z.enum(["Daily", "Weekly"]);
export type RecurrencyKind = z.output<typeof RecurrencyKind>;

export const ChargingRateUnit = z.enum(["A", "W"]);
export type ChargingRateUnit = z.output<typeof ChargingRateUnit>;

export const MessageTrigger = z.enum([
  "BootNotification",
  "DiagnosticsStatusNotification",
  "FirmwareStatusNotification",
  "Heartbeat",
  "MeterValues",
  "StatusNotification",
]);
export type MessageTrigger = z.output<typeof MessageTrigger>;

export const FirmwareStatus = z.enum([
  "Downloaded",
  "DownloadFailed",
  "Downloading",
  "Idle",
  "InstallationFailed",
  "Installing",
  "Installed",
]);
export type FirmwareStatus = z.output<typeof FirmwareStatus>;

export const DiagnosticsStatus = z.enum(["Idle", "Uploaded", "UploadFailed", "Uploading"]);
export type DiagnosticsStatus = z.output<typeof DiagnosticsStatus>;

/** Security extension §6 CertificateUseEnumType: the root certificates a charge point holds. */
export const CertificateUse = z.enum(["CentralSystemRootCertificate", "ManufacturerRootCertificate"]);
export type CertificateUse = z.output<typeof CertificateUse>;

/** Security extension §6 HashAlgorithmEnumType. */
export const HashAlgorithm = z.enum(["SHA256", "SHA384", "SHA512"]);

/**
 * Security extension §6 CertificateHashDataType: how a charge point names a certificate it holds
 * (RFC 6960 CertID: hashes of the issuer's name and key, and the serial number, in hex).
 */
export const CertificateHashData = z.strictObject({
  hashAlgorithm: HashAlgorithm,
  issuerNameHash: z.string().max(128),
  issuerKeyHash: z.string().max(128),
  serialNumber: z.string().max(40),
});
export type CertificateHashData = z.output<typeof CertificateHashData>;

/** Security extension §6 FirmwareStatusEnumType: 1.6's firmware states and the signed update's own. */
export const SignedFirmwareStatus = z.enum([
  "Downloaded",
  "DownloadFailed",
  "Downloading",
  "DownloadScheduled",
  "DownloadPaused",
  "Idle",
  "InstallationFailed",
  "Installing",
  "Installed",
  "InstallRebooting",
  "InstallScheduled",
  "InstallVerificationFailed",
  "InvalidSignature",
  "SignatureVerified",
]);
export type SignedFirmwareStatus = z.output<typeof SignedFirmwareStatus>;

/** Security extension §6 UploadLogStatusEnumType. */
export const UploadLogStatus = z.enum(["BadMessage", "Idle", "NotSupportedOperation", "PermissionDenied", "Uploaded", "UploadFailure", "Uploading"]);
export type UploadLogStatus = z.output<typeof UploadLogStatus>;

/** Security extension §6 MessageTriggerEnumType: 1.6's list with the log and the certificate request. */
export const ExtendedMessageTrigger = z.enum([
  "BootNotification",
  "LogStatusNotification",
  "FirmwareStatusNotification",
  "Heartbeat",
  "MeterValues",
  "SignChargePointCertificate",
  "StatusNotification",
]);
export type ExtendedMessageTrigger = z.output<typeof ExtendedMessageTrigger>;

/** Accepted/Rejected: the answer of RemoteStart/Stop, Reset, ClearCache, CancelReservation, GetCompositeSchedule. */
const acceptedOrRejected = z.enum(["Accepted", "Rejected"]);

export const IdTagInfo = z.strictObject({
  expiryDate: dateTime.optional(),
  parentIdTag: ciString(20).optional(),
  status: AuthorizationStatus,
});
export type IdTagInfo = z.output<typeof IdTagInfo>;

export const ChargingSchedulePeriod = z.strictObject({
  startPeriod: integer,
  limit: tenths,
  numberPhases: integer.optional(),
});

export const ChargingSchedule = z.strictObject({
  duration: integer.optional(),
  startSchedule: dateTime.optional(),
  chargingRateUnit: ChargingRateUnit,
  chargingSchedulePeriod: atLeastOne(ChargingSchedulePeriod),
  minChargingRate: tenths.optional(),
});
export type ChargingSchedule = z.output<typeof ChargingSchedule>;

/**
 * The schedule a charger answers to GetCompositeSchedule: an empty period list is how it says that
 * no limit applies. The official schema (no `minItems`) allows it and chargers send it, so the
 * answer is taken; `1..*` holds for the profiles the server sends (OCPP 1.6 §7 ChargingSchedule).
 */
const CompositeSchedule = ChargingSchedule.extend({ chargingSchedulePeriod: z.array(ChargingSchedulePeriod) });

export const ChargingProfile = z.strictObject({
  chargingProfileId: integer,
  transactionId: integer.optional(),
  stackLevel: integer,
  chargingProfilePurpose: ChargingProfilePurpose,
  chargingProfileKind: ChargingProfileKind,
  recurrencyKind: RecurrencyKind.optional(),
  validFrom: dateTime.optional(),
  validTo: dateTime.optional(),
  chargingSchedule: ChargingSchedule,
});
export type ChargingProfile = z.output<typeof ChargingProfile>;

/** A reading is a string (OCPP 1.6 §7): a decimal for `Raw`, an opaque blob for `SignedData`. */
export const SampledValue = z.strictObject({
  value: z.string(),
  context: ReadingContext.optional(),
  format: ValueFormat.optional(),
  measurand: Measurand.optional(),
  phase: Phase.optional(),
  location: MeasurementLocation.optional(),
  unit: UnitOfMeasure.optional(),
});
export type SampledValue = z.output<typeof SampledValue>;

/** Shared by MeterValues.req `meterValue` and StopTransaction.req `transactionData`. */
export const MeterValue = z.strictObject({
  timestamp: dateTime,
  sampledValue: atLeastOne(SampledValue),
});
export type MeterValue = z.output<typeof MeterValue>;

const AuthorizationData = z.strictObject({
  idTag: ciString(20),
  idTagInfo: IdTagInfo.optional(),
});

const KeyValue = z.strictObject({
  key: ciString(50),
  readonly: z.boolean(),
  value: ciString(500).optional(),
});

const empty = z.strictObject({});

export const OCPP_REQUESTS = {
  Authorize: z.strictObject({ idTag: ciString(20) }),
  BootNotification: z.strictObject({
    chargePointVendor: ciString(20),
    chargePointModel: ciString(20),
    chargePointSerialNumber: ciString(25).optional(),
    chargeBoxSerialNumber: ciString(25).optional(),
    firmwareVersion: ciString(50).optional(),
    iccid: ciString(20).optional(),
    imsi: ciString(20).optional(),
    meterType: ciString(25).optional(),
    meterSerialNumber: ciString(25).optional(),
  }),
  StartTransaction: z.strictObject({
    connectorId: integer,
    idTag: ciString(20),
    meterStart: integer,
    reservationId: integer.optional(),
    timestamp: dateTime,
  }),
  StopTransaction: z.strictObject({
    idTag: ciString(20).optional(),
    meterStop: integer,
    timestamp: dateTime,
    transactionId: integer,
    reason: StopReason.optional(),
    transactionData: z.array(MeterValue).optional(),
  }),
  StatusNotification: z.strictObject({
    connectorId: integer,
    errorCode: ChargePointErrorCode,
    info: ciString(50).optional(),
    status: ChargePointStatus,
    timestamp: dateTime.optional(),
    vendorId: ciString(255).optional(),
    vendorErrorCode: ciString(50).optional(),
  }),
  MeterValues: z.strictObject({
    connectorId: integer,
    transactionId: integer.optional(),
    meterValue: atLeastOne(MeterValue),
  }),
  FirmwareStatusNotification: z.strictObject({ status: FirmwareStatus }),
  DiagnosticsStatusNotification: z.strictObject({ status: DiagnosticsStatus }),
  // `data` has no length limit and must be a string: vendors that put JSON in it stringify it.
  DataTransfer: z.strictObject({
    vendorId: ciString(255),
    messageId: ciString(50).optional(),
    data: z.string().optional(),
  }),
  RemoteStartTransaction: z.strictObject({
    connectorId: integer.optional(),
    idTag: ciString(20),
    chargingProfile: ChargingProfile.optional(),
  }),
  RemoteStopTransaction: z.strictObject({ transactionId: integer }),
  Reset: z.strictObject({ type: z.enum(["Hard", "Soft"]) }),
  ClearCache: empty,
  GetLocalListVersion: empty,
  SendLocalList: z.strictObject({
    listVersion: integer,
    localAuthorizationList: z.array(AuthorizationData).optional(),
    updateType: z.enum(["Differential", "Full"]),
  }),
  ChangeAvailability: z.strictObject({
    connectorId: integer,
    type: z.enum(["Inoperative", "Operative"]),
  }),
  ChangeConfiguration: z.strictObject({ key: ciString(50), value: ciString(500) }),
  GetConfiguration: z.strictObject({ key: z.array(ciString(50)).optional() }),
  TriggerMessage: z.strictObject({
    requestedMessage: MessageTrigger,
    connectorId: integer.optional(),
  }),
  UnlockConnector: z.strictObject({ connectorId: integer }),
  ClearChargingProfile: z.strictObject({
    id: integer.optional(),
    connectorId: integer.optional(),
    chargingProfilePurpose: ChargingProfilePurpose.optional(),
    stackLevel: integer.optional(),
  }),
  SetChargingProfile: z.strictObject({
    connectorId: integer,
    csChargingProfiles: ChargingProfile,
  }),
  GetCompositeSchedule: z.strictObject({
    connectorId: integer,
    duration: integer,
    chargingRateUnit: ChargingRateUnit.optional(),
  }),
  UpdateFirmware: z.strictObject({
    location: uri,
    retries: integer.optional(),
    retrieveDate: dateTime,
    retryInterval: integer.optional(),
  }),
  GetDiagnostics: z.strictObject({
    location: uri,
    retries: integer.optional(),
    retryInterval: integer.optional(),
    startTime: dateTime.optional(),
    stopTime: dateTime.optional(),
  }),
  ReserveNow: z.strictObject({
    connectorId: integer,
    expiryDate: dateTime,
    idTag: ciString(20),
    parentIdTag: ciString(20).optional(),
    reservationId: integer,
  }),
  CancelReservation: z.strictObject({ reservationId: integer }),
  Heartbeat: empty,
  // The security extension (edition 3 §5).
  SecurityEventNotification: z.strictObject({
    type: z.string().max(50),
    timestamp: dateTime,
    techInfo: z.string().max(255).optional(),
  }),
  LogStatusNotification: z.strictObject({ status: UploadLogStatus, requestId: integer.optional() }),
  SignedFirmwareStatusNotification: z.strictObject({ status: SignedFirmwareStatus, requestId: integer.optional() }),
  SignCertificate: z.strictObject({ csr: z.string().max(5500) }),
  ExtendedTriggerMessage: z.strictObject({ requestedMessage: ExtendedMessageTrigger, connectorId: integer.optional() }),
  // The locations are plain strings of at most 512 characters in the extension (no `format: uri`).
  GetLog: z.strictObject({
    log: z.strictObject({
      remoteLocation: z.string().max(512),
      oldestTimestamp: dateTime.optional(),
      latestTimestamp: dateTime.optional(),
    }),
    logType: z.enum(["DiagnosticsLog", "SecurityLog"]),
    requestId: integer,
    retries: integer.optional(),
    retryInterval: integer.optional(),
  }),
  SignedUpdateFirmware: z.strictObject({
    retries: integer.optional(),
    retryInterval: integer.optional(),
    requestId: integer,
    firmware: z.strictObject({
      location: z.string().max(512),
      retrieveDateTime: dateTime,
      installDateTime: dateTime.optional(),
      signingCertificate: z.string().max(5500),
      signature: z.string().max(800),
    }),
  }),
  InstallCertificate: z.strictObject({ certificateType: CertificateUse, certificate: z.string().max(5500) }),
  GetInstalledCertificateIds: z.strictObject({ certificateType: CertificateUse }),
  DeleteCertificate: z.strictObject({ certificateHashData: CertificateHashData }),
  CertificateSigned: z.strictObject({ certificateChain: z.string().max(10000) }),
} as const satisfies Record<OcppAction, z.ZodType>;

export const OCPP_RESPONSES = {
  Authorize: z.strictObject({ idTagInfo: IdTagInfo }),
  BootNotification: z.strictObject({
    status: RegistrationStatus,
    currentTime: dateTime,
    interval: integer,
  }),
  StartTransaction: z.strictObject({ idTagInfo: IdTagInfo, transactionId: integer }),
  // idTagInfo is optional here: a stop without an idTag has nothing to authorise.
  StopTransaction: z.strictObject({ idTagInfo: IdTagInfo.optional() }),
  StatusNotification: empty,
  MeterValues: empty,
  FirmwareStatusNotification: empty,
  DiagnosticsStatusNotification: empty,
  DataTransfer: z.strictObject({
    status: z.enum(["Accepted", "Rejected", "UnknownMessageId", "UnknownVendorId"]),
    data: z.string().optional(),
  }),
  RemoteStartTransaction: z.strictObject({ status: acceptedOrRejected }),
  RemoteStopTransaction: z.strictObject({ status: acceptedOrRejected }),
  Reset: z.strictObject({ status: acceptedOrRejected }),
  ClearCache: z.strictObject({ status: acceptedOrRejected }),
  GetLocalListVersion: z.strictObject({ listVersion: integer }),
  SendLocalList: z.strictObject({
    status: z.enum(["Accepted", "Failed", "NotSupported", "VersionMismatch"]),
  }),
  ChangeAvailability: z.strictObject({ status: z.enum(["Accepted", "Rejected", "Scheduled"]) }),
  ChangeConfiguration: z.strictObject({
    status: z.enum(["Accepted", "Rejected", "RebootRequired", "NotSupported"]),
  }),
  GetConfiguration: z.strictObject({
    configurationKey: z.array(KeyValue).optional(),
    unknownKey: z.array(ciString(50)).optional(),
  }),
  TriggerMessage: z.strictObject({ status: z.enum(["Accepted", "Rejected", "NotImplemented"]) }),
  UnlockConnector: z.strictObject({ status: z.enum(["Unlocked", "UnlockFailed", "NotSupported"]) }),
  ClearChargingProfile: z.strictObject({ status: z.enum(["Accepted", "Unknown"]) }),
  SetChargingProfile: z.strictObject({ status: z.enum(["Accepted", "Rejected", "NotSupported"]) }),
  GetCompositeSchedule: z.strictObject({
    status: acceptedOrRejected,
    connectorId: integer.optional(),
    scheduleStart: dateTime.optional(),
    chargingSchedule: CompositeSchedule.optional(),
  }),
  UpdateFirmware: empty,
  GetDiagnostics: z.strictObject({ fileName: ciString(255).optional() }),
  ReserveNow: z.strictObject({
    status: z.enum(["Accepted", "Faulted", "Occupied", "Rejected", "Unavailable"]),
  }),
  CancelReservation: z.strictObject({ status: acceptedOrRejected }),
  Heartbeat: z.strictObject({ currentTime: dateTime }),
  SecurityEventNotification: empty,
  LogStatusNotification: empty,
  SignedFirmwareStatusNotification: empty,
  SignCertificate: z.strictObject({ status: acceptedOrRejected }),
  ExtendedTriggerMessage: z.strictObject({ status: z.enum(["Accepted", "Rejected", "NotImplemented"]) }),
  GetLog: z.strictObject({
    status: z.enum(["Accepted", "Rejected", "AcceptedCanceled"]),
    filename: z.string().max(255).optional(),
  }),
  SignedUpdateFirmware: z.strictObject({
    status: z.enum(["Accepted", "Rejected", "AcceptedCanceled", "InvalidCertificate", "RevokedCertificate"]),
  }),
  InstallCertificate: z.strictObject({ status: z.enum(["Accepted", "Failed", "Rejected"]) }),
  GetInstalledCertificateIds: z.strictObject({
    certificateHashData: atLeastOne(CertificateHashData).optional(),
    status: z.enum(["Accepted", "NotFound"]),
  }),
  DeleteCertificate: z.strictObject({ status: z.enum(["Accepted", "Failed", "NotFound"]) }),
  CertificateSigned: z.strictObject({ status: acceptedOrRejected }),
} as const satisfies Record<OcppAction, z.ZodType>;

export type OcppRequest<A extends OcppAction> = z.output<(typeof OCPP_REQUESTS)[A]>;
export type OcppResponse<A extends OcppAction> = z.output<(typeof OCPP_RESPONSES)[A]>;
