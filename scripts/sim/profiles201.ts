import type { Ocpp201Request, Ocpp201Response } from "../../domain/ocpp/v201";
import { fromWatts, profileLimitW, type Electrics, type ScheduledLimit } from "./meter";

export type ChargingProfile201 = Ocpp201Request<"SetChargingProfile">["chargingProfile"];
type ChargingProfileCriterion = Ocpp201Request<"GetChargingProfiles">["chargingProfile"];

/** The first schedule of a 2.0.1 profile read as the limit it sets (the others are for ISO 15118 cars). */
const asLimit = (p: ChargingProfile201): ScheduledLimit => ({ ...p, chargingSchedule: p.chargingSchedule[0] });

/**
 * A simulated Charging Station's charging profiles (OCPP 2.0.1 Part 2 K01, K08–K10): the
 * station's own on EVSE 0 (ChargingStationMaxProfile, TxDefaultProfile for every EVSE) and each
 * EVSE's, TxProfiles while their transaction runs. As in the 1.6 twin (profiles.ts), the limit in
 * force is the lowest among the periods in force now, capped at the EVSE's rating.
 */
export class ChargingProfiles201 {
  private readonly byEvse = new Map<number, ChargingProfile201[]>();

  constructor(
    private readonly electrics: Electrics,
    private readonly evses: number,
  ) {}

  private list(evseId: number): ChargingProfile201[] {
    let list = this.byEvse.get(evseId);
    if (!list) this.byEvse.set(evseId, (list = []));
    return list;
  }

  /**
   * K01 SetChargingProfile: a ChargingStationMaxProfile only on EVSE 0, a TxProfile
   * only on an EVSE with the transaction running; ChargingStationExternalConstraints come from
   * the station's own energy manager, never from the CSMS.
   */
  set(evseId: number, profile: ChargingProfile201, runningTransactionId: string | undefined): Ocpp201Response<"SetChargingProfile"> {
    const rejected = (reasonCode: string) => ({ status: "Rejected" as const, statusInfo: { reasonCode } });
    if (evseId < 0 || evseId > this.evses) return rejected("UnknownEvse");
    if (profile.chargingProfileKind === "Recurring" && !profile.recurrencyKind) return rejected("InvalidProfile");
    if (profile.chargingProfilePurpose === "ChargingStationExternalConstraints") return rejected("InvalidProfile");
    if (profile.chargingProfilePurpose === "ChargingStationMaxProfile" && evseId !== 0) return rejected("InvalidProfile");
    if (profile.chargingProfilePurpose === "TxProfile") {
      if (evseId === 0 || runningTransactionId === undefined) return rejected("TxNotFound");
      if (profile.transactionId !== undefined && profile.transactionId !== runningTransactionId) return rejected("TxNotFound");
    }
    const list = this.list(evseId);
    // The same id replaces the profile, and so do the same stack level and purpose (K01).
    const kept = list.filter((p) => p.id !== profile.id && !(p.stackLevel === profile.stackLevel && p.chargingProfilePurpose === profile.chargingProfilePurpose));
    list.splice(0, list.length, ...kept, profile);
    return { status: "Accepted" };
  }

  /** K10 ClearChargingProfile: by id anywhere, else by EVSE, purpose and stack level. */
  clear({ chargingProfileId, chargingProfileCriteria: criteria }: Ocpp201Request<"ClearChargingProfile">): Ocpp201Response<"ClearChargingProfile"> {
    let cleared = 0;
    for (const [evseId, list] of this.byEvse) {
      if (chargingProfileId === undefined && criteria?.evseId !== undefined && evseId !== criteria.evseId) continue;
      const kept = list.filter((p) =>
        chargingProfileId !== undefined
          ? p.id !== chargingProfileId
          : (criteria?.chargingProfilePurpose !== undefined && p.chargingProfilePurpose !== criteria.chargingProfilePurpose) ||
            (criteria?.stackLevel !== undefined && p.stackLevel !== criteria.stackLevel),
      );
      cleared += list.length - kept.length;
      list.splice(0, list.length, ...kept);
    }
    return { status: cleared > 0 ? "Accepted" : "Unknown" };
  }

  /**
   * K09 GetChargingProfiles: the profiles that meet every criterion, per EVSE (all EVSEs when
   * none is given). Every profile here was set by the CSMS, so its limit source is CSO.
   */
  find(evseId: number | undefined, criterion: ChargingProfileCriterion): { evseId: number; profiles: ChargingProfile201[] }[] {
    const found: { evseId: number; profiles: ChargingProfile201[] }[] = [];
    if (criterion.chargingLimitSource && !criterion.chargingLimitSource.includes("CSO")) return found;
    for (const [id, list] of [...this.byEvse].sort(([a], [b]) => a - b)) {
      if (evseId !== undefined && id !== evseId) continue;
      const profiles = list.filter(
        (p) =>
          (criterion.chargingProfilePurpose === undefined || p.chargingProfilePurpose === criterion.chargingProfilePurpose) &&
          (criterion.stackLevel === undefined || p.stackLevel === criterion.stackLevel) &&
          (criterion.chargingProfileId === undefined || criterion.chargingProfileId.includes(p.id)),
      );
      if (profiles.length > 0) found.push({ evseId: id, profiles });
    }
    return found;
  }

  /** A transaction ended: its TxProfiles go with it (K01). */
  endTransaction(evseId: number) {
    const list = this.list(evseId);
    list.splice(0, list.length, ...list.filter((p) => p.chargingProfilePurpose !== "TxProfile"));
  }

  /** The power an EVSE may draw now, in W. */
  limitW(evseId: number): number {
    return profileLimitW(this.electrics, [...this.list(0), ...this.list(evseId)].map(asLimit));
  }

  /** K08 GetCompositeSchedule: one period at the limit in force (EVSE 0: the whole station). */
  composite({ evseId, duration, chargingRateUnit = "W" }: Ocpp201Request<"GetCompositeSchedule">): Ocpp201Response<"GetCompositeSchedule"> {
    if (evseId < 0 || evseId > this.evses) return { status: "Rejected", statusInfo: { reasonCode: "UnknownEvse" } };
    let limitW = this.limitW(evseId);
    if (evseId === 0) {
      let sum = 0;
      for (let e = 1; e <= this.evses; e++) sum += this.limitW(e);
      limitW = Math.min(sum, profileLimitW({ ...this.electrics, maxPowerW: Number.MAX_SAFE_INTEGER }, this.list(0).map(asLimit)));
    }
    return {
      status: "Accepted",
      schedule: {
        evseId,
        duration,
        scheduleStart: new Date().toISOString(),
        chargingRateUnit,
        chargingSchedulePeriod: [{ startPeriod: 0, limit: fromWatts(this.electrics, limitW, chargingRateUnit) }],
      },
    };
  }
}
