/**
 * The 64 actions of OCPP 2.0.1 (Part 2, §1 "Messages"), split by who sends them. DataTransfer is in
 * both lists: either side may start it (P01, P02). The console's OCPP log filter lists these for a
 * 2.0.1 point (docs/rules/ocpp.md "Two protocols").
 */

/** Messages a Charging Station sends (Part 2, the "CS → CSMS" messages). */
export const CHARGER_ACTIONS_201 = [
  "Authorize",
  "BootNotification",
  "ClearedChargingLimit",
  "DataTransfer",
  "FirmwareStatusNotification",
  "Get15118EVCertificate",
  "GetCertificateStatus",
  "Heartbeat",
  "LogStatusNotification",
  "MeterValues",
  "NotifyChargingLimit",
  "NotifyCustomerInformation",
  "NotifyDisplayMessages",
  "NotifyEVChargingNeeds",
  "NotifyEVChargingSchedule",
  "NotifyEvent",
  "NotifyMonitoringReport",
  "NotifyReport",
  "PublishFirmwareStatusNotification",
  "ReportChargingProfiles",
  "ReservationStatusUpdate",
  "SecurityEventNotification",
  "SignCertificate",
  "StatusNotification",
  "TransactionEvent",
] as const;

export type ChargerAction201 = (typeof CHARGER_ACTIONS_201)[number];

/** Messages the CSMS sends (Part 2, the "CSMS → CS" messages). */
export const SERVER_ACTIONS_201 = [
  "CancelReservation",
  "CertificateSigned",
  "ChangeAvailability",
  "ClearCache",
  "ClearChargingProfile",
  "ClearDisplayMessage",
  "ClearVariableMonitoring",
  "CostUpdated",
  "CustomerInformation",
  "DataTransfer",
  "DeleteCertificate",
  "GetBaseReport",
  "GetChargingProfiles",
  "GetCompositeSchedule",
  "GetDisplayMessages",
  "GetInstalledCertificateIds",
  "GetLocalListVersion",
  "GetLog",
  "GetMonitoringReport",
  "GetReport",
  "GetTransactionStatus",
  "GetVariables",
  "InstallCertificate",
  "PublishFirmware",
  "RequestStartTransaction",
  "RequestStopTransaction",
  "ReserveNow",
  "Reset",
  "SendLocalList",
  "SetChargingProfile",
  "SetDisplayMessage",
  "SetMonitoringBase",
  "SetMonitoringLevel",
  "SetNetworkProfile",
  "SetVariableMonitoring",
  "SetVariables",
  "TriggerMessage",
  "UnlockConnector",
  "UnpublishFirmware",
  "UpdateFirmware",
] as const;

export type ServerAction201 = (typeof SERVER_ACTIONS_201)[number];

/** Every 2.0.1 action once, in alphabetical order (the official schema files' order). */
export const OCPP201_ACTIONS = [...new Set([...CHARGER_ACTIONS_201, ...SERVER_ACTIONS_201])].sort() as readonly Ocpp201Action[];

export type Ocpp201Action = ChargerAction201 | ServerAction201;

const all: ReadonlySet<string> = new Set(OCPP201_ACTIONS);
const fromCharger: ReadonlySet<string> = new Set(CHARGER_ACTIONS_201);
const fromServer: ReadonlySet<string> = new Set(SERVER_ACTIONS_201);

/** Narrows the action of an incoming CALL; anything else is answered NotImplemented (Part 4 §4.3). */
export function isOcpp201Action(action: string): action is Ocpp201Action {
  return all.has(action);
}

/** Whether a Charging Station may send this action; the others are answered NotSupported. */
export function isChargerAction201(action: string): action is ChargerAction201 {
  return fromCharger.has(action);
}

/** Whether the CSMS may send this action (the console's `/command` for a 2.0.1 point). */
export function isServerAction201(action: string): action is ServerAction201 {
  return fromServer.has(action);
}
