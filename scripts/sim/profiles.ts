import type { ChargingProfile, OcppRequest, OcppResponse } from "../../domain/ocpp";
import { fromWatts, profileLimitW, type Electrics } from "./meter";

/**
 * A simulated charger's charging profiles (OCPP 1.6 §3.13 smart charging): the charge point's own
 * (connector 0: ChargePointMaxProfile, TxDefaultProfile for every connector) and each
 * connector's, TxProfiles included while their transaction runs. The limit in force is the lowest
 * among their periods in force now (a load-balancing slot lowers it at its local time), capped at
 * the connector's rating: simpler than the full stacking rules, and enough to watch a limit change
 * the power a session draws.
 */
export class ChargingProfiles {
  private readonly byConnector = new Map<number, ChargingProfile[]>();

  constructor(
    private readonly electrics: Electrics,
    private readonly connectors: number,
  ) {}

  private list(connectorId: number): ChargingProfile[] {
    let list = this.byConnector.get(connectorId);
    if (!list) this.byConnector.set(connectorId, (list = []));
    return list;
  }

  /** SetChargingProfile; a TxProfile needs the transaction running on that connector. */
  set(connectorId: number, profile: ChargingProfile, runningTransactionId: number | undefined): OcppResponse<"SetChargingProfile"> {
    if (connectorId > this.connectors) return { status: "Rejected" };
    if (profile.chargingProfileKind === "Recurring" && !profile.recurrencyKind) return { status: "Rejected" };
    if (profile.chargingProfilePurpose === "ChargePointMaxProfile" && connectorId !== 0) return { status: "Rejected" };
    if (profile.chargingProfilePurpose === "TxProfile") {
      if (connectorId === 0 || runningTransactionId === undefined) return { status: "Rejected" };
      if (profile.transactionId !== undefined && profile.transactionId !== runningTransactionId) return { status: "Rejected" };
    }
    const list = this.list(connectorId);
    // The same id, or the same stack level and purpose, is replaced (OCPP 1.6 §5.16).
    const kept = list.filter(
      (p) =>
        p.chargingProfileId !== profile.chargingProfileId &&
        !(p.stackLevel === profile.stackLevel && p.chargingProfilePurpose === profile.chargingProfilePurpose),
    );
    list.splice(0, list.length, ...kept, profile);
    return { status: "Accepted" };
  }

  /** ClearChargingProfile: by id anywhere, else by connector, purpose and stack level. */
  clear({ id, connectorId, chargingProfilePurpose, stackLevel }: OcppRequest<"ClearChargingProfile">): OcppResponse<"ClearChargingProfile"> {
    let cleared = 0;
    for (const [connector, list] of this.byConnector) {
      if (id === undefined && connectorId !== undefined && connector !== connectorId) continue;
      const kept = list.filter((p) =>
        id !== undefined
          ? p.chargingProfileId !== id
          : (chargingProfilePurpose !== undefined && p.chargingProfilePurpose !== chargingProfilePurpose) ||
            (stackLevel !== undefined && p.stackLevel !== stackLevel),
      );
      cleared += list.length - kept.length;
      list.splice(0, list.length, ...kept);
    }
    return { status: cleared > 0 ? "Accepted" : "Unknown" };
  }

  /** A transaction ended: its TxProfiles go with it. */
  endTransaction(connectorId: number) {
    const list = this.list(connectorId);
    list.splice(0, list.length, ...list.filter((p) => p.chargingProfilePurpose !== "TxProfile"));
  }

  /** The power a connector may draw now, in W. */
  limitW(connectorId: number): number {
    return profileLimitW(this.electrics, [...this.list(0), ...this.list(connectorId)]);
  }

  /** GetCompositeSchedule: one period at the limit in force (connector 0: the whole charger). */
  composite({ connectorId, duration, chargingRateUnit = "W" }: OcppRequest<"GetCompositeSchedule">): OcppResponse<"GetCompositeSchedule"> {
    if (connectorId > this.connectors) return { status: "Rejected" };
    let limitW = this.limitW(connectorId);
    if (connectorId === 0) {
      let sum = 0;
      for (let c = 1; c <= this.connectors; c++) sum += this.limitW(c);
      limitW = Math.min(sum, profileLimitW({ ...this.electrics, maxPowerW: Number.MAX_SAFE_INTEGER }, this.list(0)));
    }
    const now = new Date().toISOString();
    return {
      status: "Accepted",
      connectorId,
      scheduleStart: now,
      chargingSchedule: {
        duration,
        startSchedule: now,
        chargingRateUnit,
        chargingSchedulePeriod: [{ startPeriod: 0, limit: fromWatts(this.electrics, limitW, chargingRateUnit) }],
      },
    };
  }
}
