/**
 * The 28 actions of OCPP 1.6J (core, firmware management, local auth list management, reservation,
 * smart charging and remote trigger profiles), in the order the console lists them
 * (docs/rules/ocpp.md "Remote commands").
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
  "UnlockConnector",
  "ClearChargingProfile",
  "SetChargingProfile",
  "GetCompositeSchedule",
  "UpdateFirmware",
  "GetDiagnostics",
  "ReserveNow",
  "CancelReservation",
  "Heartbeat",
] as const;

export type OcppAction = (typeof OCPP_ACTIONS)[number];

/** Operations initiated by the charge point (OCPP 1.6 §4). */
export const CHARGER_ACTIONS = [
  "Authorize",
  "BootNotification",
  "DataTransfer",
  "DiagnosticsStatusNotification",
  "FirmwareStatusNotification",
  "Heartbeat",
  "MeterValues",
  "StartTransaction",
  "StatusNotification",
  "StopTransaction",
] as const satisfies readonly OcppAction[];

export type ChargerAction = (typeof CHARGER_ACTIONS)[number];

/**
 * Operations initiated by the central system (OCPP 1.6 §5). DataTransfer is in both lists: either
 * side may start it.
 */
export const SERVER_ACTIONS = [
  "CancelReservation",
  "ChangeAvailability",
  "ChangeConfiguration",
  "ClearCache",
  "ClearChargingProfile",
  "DataTransfer",
  "GetCompositeSchedule",
  "GetConfiguration",
  "GetDiagnostics",
  "GetLocalListVersion",
  "RemoteStartTransaction",
  "RemoteStopTransaction",
  "ReserveNow",
  "Reset",
  "SendLocalList",
  "SetChargingProfile",
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
