/**
 * OCPP 1.6 configuration keys (1.6 §9, and AuthorizationKey of the 1.6 security extension) that
 * have a standard OCPP 2.0.1 twin in the device model (Part 2 B05–B06, the controller components
 * of Part 1 and appendix 3 of Part 2; the migration the Open Charge Alliance describes from 1.6 to
 * 2.0.1). A 2.0.1 charger is configured through these when a product command speaks 1.6's words
 * (docs/rules/ocpp.md "Two protocols"); keys without a twin, such as 1.6's feature profiles or
 * MinimumStatusDuration, have none to offer.
 */
export interface ConfigurationTwin {
  /** The 1.6 key as the 1.6 specification spells it. */
  key: string;
  component: string;
  variable: string;
  /** The variable's instance, where the twin is one instance of a shared variable. */
  instance?: string;
  /** Read-only in 2.0.1 (changed by another message, e.g. SetNetworkProfile for the security profile). */
  readonly?: true;
  /** Never read back (2.0.1 WriteOnly; 1.6's AuthorizationKey is write-only as well). */
  writeOnly?: true;
}

export const CONFIGURATION_TWINS: readonly ConfigurationTwin[] = [
  { key: "AllowOfflineTxForUnknownId", component: "AuthCtrlr", variable: "OfflineTxForUnknownIdEnabled" },
  { key: "AuthorizationCacheEnabled", component: "AuthCacheCtrlr", variable: "Enabled" },
  // A01: the charger's Basic-auth password.
  { key: "AuthorizationKey", component: "SecurityCtrlr", variable: "BasicAuthPassword", writeOnly: true },
  { key: "AuthorizeRemoteTxRequests", component: "AuthCtrlr", variable: "AuthorizeRemoteStart" },
  { key: "ClockAlignedDataInterval", component: "AlignedDataCtrlr", variable: "Interval" },
  { key: "ConnectionTimeOut", component: "TxCtrlr", variable: "EVConnectionTimeOut" },
  { key: "CpoName", component: "SecurityCtrlr", variable: "OrganizationName" },
  { key: "HeartbeatInterval", component: "OCPPCommCtrlr", variable: "HeartbeatInterval" },
  { key: "LocalAuthListEnabled", component: "LocalAuthListCtrlr", variable: "Enabled" },
  { key: "LocalAuthorizeOffline", component: "AuthCtrlr", variable: "LocalAuthorizeOffline" },
  { key: "LocalPreAuthorize", component: "AuthCtrlr", variable: "LocalPreAuthorize" },
  { key: "MaxEnergyOnInvalidId", component: "TxCtrlr", variable: "MaxEnergyOnInvalidId" },
  { key: "MeterValueSampleInterval", component: "SampledDataCtrlr", variable: "TxUpdatedInterval" },
  { key: "MeterValuesAlignedData", component: "AlignedDataCtrlr", variable: "Measurands" },
  { key: "MeterValuesSampledData", component: "SampledDataCtrlr", variable: "TxUpdatedMeasurands" },
  { key: "ResetRetries", component: "OCPPCommCtrlr", variable: "ResetRetries" },
  { key: "SecurityProfile", component: "SecurityCtrlr", variable: "SecurityProfile", readonly: true },
  { key: "StopTransactionOnEVSideDisconnect", component: "TxCtrlr", variable: "StopTxOnEVSideDisconnect" },
  { key: "StopTransactionOnInvalidId", component: "TxCtrlr", variable: "StopTxOnInvalidId" },
  { key: "StopTxnAlignedData", component: "AlignedDataCtrlr", variable: "TxEndedMeasurands" },
  { key: "StopTxnSampledData", component: "SampledDataCtrlr", variable: "TxEndedMeasurands" },
  { key: "TransactionMessageAttempts", component: "OCPPCommCtrlr", variable: "MessageAttempts", instance: "TransactionEvent" },
  { key: "TransactionMessageRetryInterval", component: "OCPPCommCtrlr", variable: "MessageAttemptInterval", instance: "TransactionEvent" },
  { key: "UnlockConnectorOnEVSideDisconnect", component: "OCPPCommCtrlr", variable: "UnlockOnEVSideDisconnect" },
  { key: "WebSocketPingInterval", component: "OCPPCommCtrlr", variable: "WebSocketPingInterval" },
];

const BY_KEY = new Map(CONFIGURATION_TWINS.map((twin) => [twin.key.toLowerCase(), twin]));

/** The 2.0.1 twin of a 1.6 key (1.6 keys are case-insensitive, CiString50), or undefined. */
export const twinOf = (key: string): ConfigurationTwin | undefined => BY_KEY.get(key.toLowerCase());

/** The component and variable of a twin as 2.0.1 messages name them. */
export const twinTarget = (twin: ConfigurationTwin) => ({
  component: { name: twin.component },
  variable: { name: twin.variable, ...(twin.instance && { instance: twin.instance }) },
});
