import type { OcppRequest, OcppResponse } from "../../domain/ocpp";

/**
 * A simulated charger's configuration keys (OCPP 1.6 §9: core, local auth list, reservation and
 * smart charging profiles, plus the security whitepaper's AuthorizationKey and SecurityProfile).
 * GetConfiguration lists them (or the keys asked for, with unknown ones under `unknownKey`);
 * ChangeConfiguration refuses read-only keys and values of the wrong kind.
 */
type Kind = "int" | "bool" | "text" | "csl" | "secret";

interface Entry {
  value: string;
  readonly: boolean;
  kind: Kind;
}

export interface ConfigChange {
  key: string;
  value: string;
}

const FEATURE_PROFILES = "Core,FirmwareManagement,LocalAuthListManagement,Reservation,SmartCharging,RemoteTrigger";
const MEASURANDS = "Energy.Active.Import.Register,Power.Active.Import,Current.Import,Voltage,SoC";

export class Configuration {
  private readonly entries = new Map<string, Entry>();

  constructor(init: { connectors: number; heartbeatIntervalS: number; meterIntervalS: number; key: string }) {
    const rw = (value: string | number | boolean, kind: Kind) => ({ value: String(value), readonly: false, kind });
    const ro = (value: string | number | boolean, kind: Kind) => ({ value: String(value), readonly: true, kind });
    const all: Record<string, Entry> = {
      AllowOfflineTxForUnknownId: rw(false, "bool"),
      AuthorizationCacheEnabled: rw(true, "bool"),
      AuthorizationKey: { value: init.key, readonly: false, kind: "secret" },
      AuthorizeRemoteTxRequests: rw(true, "bool"),
      ChargeProfileMaxStackLevel: ro(8, "int"),
      ChargingScheduleAllowedChargingRateUnit: ro("Current,Power", "csl"),
      ChargingScheduleMaxPeriods: ro(24, "int"),
      ClockAlignedDataInterval: rw(0, "int"),
      ConnectionTimeOut: rw(60, "int"),
      ConnectorPhaseRotation: rw("NotApplicable", "csl"),
      // The OCA California pricing whitepaper for OCPP 1.6: the price the charger shows.
      CustomDisplayCostAndPrice: ro(true, "bool"),
      DefaultPrice: rw("", "text"),
      GetConfigurationMaxKeys: ro(50, "int"),
      HeartbeatInterval: rw(init.heartbeatIntervalS, "int"),
      LocalAuthListEnabled: rw(true, "bool"),
      LocalAuthListMaxLength: ro(100, "int"),
      LocalAuthorizeOffline: rw(true, "bool"),
      LocalPreAuthorize: rw(false, "bool"),
      MaxChargingProfilesInstalled: ro(10, "int"),
      MeterValuesAlignedData: rw("Energy.Active.Import.Register", "csl"),
      MeterValuesSampledData: rw(MEASURANDS, "csl"),
      MeterValueSampleInterval: rw(init.meterIntervalS, "int"),
      NumberOfConnectors: ro(init.connectors, "int"),
      ReserveConnectorZeroSupported: ro(false, "bool"),
      ResetRetries: rw(3, "int"),
      SecurityProfile: rw(1, "int"),
      SendLocalListMaxLength: ro(100, "int"),
      StopTransactionOnEVSideDisconnect: rw(true, "bool"),
      StopTransactionOnInvalidId: rw(true, "bool"),
      StopTxnAlignedData: rw("", "csl"),
      StopTxnSampledData: rw("Energy.Active.Import.Register", "csl"),
      SupportedFeatureProfiles: ro(FEATURE_PROFILES, "csl"),
      TransactionMessageAttempts: rw(3, "int"),
      TransactionMessageRetryInterval: rw(60, "int"),
      UnlockConnectorOnEVSideDisconnect: rw(true, "bool"),
      WebSocketPingInterval: rw(30, "int"),
    };
    for (const [key, entry] of Object.entries(all)) this.entries.set(key, entry);
  }

  /** The value of a key (the charger's own view; AuthorizationKey included). */
  value(key: string): string | undefined {
    return this.entries.get(key)?.value;
  }

  number(key: string): number {
    return Number(this.entries.get(key)?.value ?? 0);
  }

  /** The charger itself updating a value (e.g. the heartbeat interval the server gave at boot). */
  set(key: string, value: string | number) {
    const entry = this.entries.get(key);
    if (entry) entry.value = String(value);
  }

  /** GetConfiguration (OCPP 1.6 §5.8): keys are matched case-insensitively (CiString50). */
  get(request: OcppRequest<"GetConfiguration">): OcppResponse<"GetConfiguration"> {
    const asked = request.key?.length ? request.key : [...this.entries.keys()];
    const configurationKey: NonNullable<OcppResponse<"GetConfiguration">["configurationKey"]> = [];
    const unknownKey: string[] = [];
    for (const wanted of asked) {
      const key = this.canonical(wanted);
      const entry = key ? this.entries.get(key) : undefined;
      if (!key || !entry) {
        unknownKey.push(wanted);
        continue;
      }
      // The security whitepaper: AuthorizationKey is write-only, its value never leaves the charger.
      configurationKey.push(entry.kind === "secret" ? { key, readonly: entry.readonly } : { key, readonly: entry.readonly, value: entry.value });
    }
    return unknownKey.length ? { configurationKey, unknownKey } : { configurationKey };
  }

  /**
   * ChangeConfiguration (OCPP 1.6 §5.3): NotSupported for an unknown key, Rejected for a read-only
   * key or a value of the wrong kind, else Accepted; `applied` gets the change to act on.
   */
  change(request: OcppRequest<"ChangeConfiguration">, applied: (change: ConfigChange) => void): OcppResponse<"ChangeConfiguration"> {
    const key = this.canonical(request.key);
    const entry = key ? this.entries.get(key) : undefined;
    if (!key || !entry) return { status: "NotSupported" };
    if (entry.readonly || !this.fits(entry.kind, request.value)) return { status: "Rejected" };
    entry.value = entry.kind === "bool" ? request.value.toLowerCase() : request.value;
    applied({ key, value: entry.value });
    return { status: "Accepted" };
  }

  private canonical(key: string): string | undefined {
    const lower = key.toLowerCase();
    return [...this.entries.keys()].find((k) => k.toLowerCase() === lower);
  }

  private fits(kind: Kind, value: string): boolean {
    switch (kind) {
      case "int":
        return /^\d{1,9}$/.test(value);
      case "bool":
        return /^(true|false)$/i.test(value);
      // 16 to 20 bytes, written as hex (OCPP 1.6 security whitepaper).
      case "secret":
        return /^(?:[0-9a-fA-F]{2}){16,20}$/.test(value);
      default:
        return true;
    }
  }
}
