/**
 * The 28 actions of OCPP 1.6J (core, firmware management, local auth list management, reservation,
 * smart charging and remote trigger profiles) and the 11 of its security extension ("Improved
 * security for OCPP 1.6-J", edition 3), in the order the console lists them: each security
 * message beside the 1.6 message it extends (docs/rules/ocpp.md "Remote commands", "Security
 * extension").
 */
export const OCPP_ACTIONS = [
  "Authorize",
  "BootNotification",
  "StartTransaction",
  "StopTransaction",
  "StatusNotification",
  "MeterValues",
  "FirmwareStatusNotification",
  "DiagnosticsStatusNotification",
  "LogStatusNotification",
  "SignedFirmwareStatusNotification",
  "SecurityEventNotification",
  "SignCertificate",
  "DataTransfer",
  "RemoteStartTransaction",
  "RemoteStopTransaction",
  "Reset",
  "ClearCache",
  "GetLocalListVersion",
  "SendLocalList",
  "ChangeAvailability",
  "ChangeConfiguration",
  "GetConfiguration",
  "TriggerMessage",
  "ExtendedTriggerMessage",
  "UnlockConnector",
  "ClearChargingProfile",
  "SetChargingProfile",
  "GetCompositeSchedule",
  "UpdateFirmware",
  "SignedUpdateFirmware",
  "GetDiagnostics",
  "GetLog",
  "ReserveNow",
  "CancelReservation",
  "InstallCertificate",
  "GetInstalledCertificateIds",
  "DeleteCertificate",
  "CertificateSigned",
  "Heartbeat",
] as const;

export type OcppAction = (typeof OCPP_ACTIONS)[number];

/** The messages of the security extension (edition 3 §4 use cases, §5 messages). */
export const SECURITY_ACTIONS = [
  "SecurityEventNotification",
  "LogStatusNotification",
  "SignedFirmwareStatusNotification",
  "SignCertificate",
  "ExtendedTriggerMessage",
  "GetLog",
  "SignedUpdateFirmware",
  "InstallCertificate",
  "GetInstalledCertificateIds",
  "DeleteCertificate",
  "CertificateSigned",
] as const satisfies readonly OcppAction[];

export type SecurityAction = (typeof SECURITY_ACTIONS)[number];

/** Operations initiated by the charge point (OCPP 1.6 §4; the security extension's four). */
export const CHARGER_ACTIONS = [
  "Authorize",
  "BootNotification",
  "DataTransfer",
  "DiagnosticsStatusNotification",
  "FirmwareStatusNotification",
  "Heartbeat",
  "LogStatusNotification",
  "MeterValues",
  "SecurityEventNotification",
  "SignCertificate",
  "SignedFirmwareStatusNotification",
  "StartTransaction",
  "StatusNotification",
  "StopTransaction",
] as const satisfies readonly OcppAction[];

export type ChargerAction = (typeof CHARGER_ACTIONS)[number];

/**
 * Operations initiated by the central system (OCPP 1.6 §5; the security extension's seven).
 * DataTransfer is in both lists: either side may start it.
 */
export const SERVER_ACTIONS = [
  "CancelReservation",
  "CertificateSigned",
  "ChangeAvailability",
  "ChangeConfiguration",
  "ClearCache",
  "ClearChargingProfile",
  "DataTransfer",
  "DeleteCertificate",
  "ExtendedTriggerMessage",
  "GetCompositeSchedule",
  "GetConfiguration",
  "GetDiagnostics",
  "GetInstalledCertificateIds",
  "GetLocalListVersion",
  "GetLog",
  "InstallCertificate",
  "RemoteStartTransaction",
  "RemoteStopTransaction",
  "ReserveNow",
  "Reset",
  "SendLocalList",
  "SetChargingProfile",
  "SignedUpdateFirmware",
  "TriggerMessage",
  "UnlockConnector",
  "UpdateFirmware",
] as const satisfies readonly OcppAction[];

export type ServerAction = (typeof SERVER_ACTIONS)[number];

const actionSet: ReadonlySet<string> = new Set(OCPP_ACTIONS);

/** Narrows the action name of an incoming CALL; anything else is answered with NotImplemented. */
export function isOcppAction(action: string): action is OcppAction {
  return actionSet.has(action);
}

/** Whether a charge point may send this action (OCPP 1.6 §4). */
export function isChargerAction(action: string): action is ChargerAction {
  return (CHARGER_ACTIONS as readonly string[]).includes(action);
}

/** Whether the central system may send this action (OCPP 1.6 §5): the console's `/command` for a 1.6 point. */
export function isServerAction(action: string): action is ServerAction {
  return (SERVER_ACTIONS as readonly string[]).includes(action);
}
