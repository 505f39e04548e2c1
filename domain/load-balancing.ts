import type { ChargingProfile } from "./ocpp";
import { minuteOfDay, type ProfilePurpose, type Slot } from "./schemas/operations";
import { localDate, localMidnight } from "./time";

/**
 * A load-balancing configuration as a charging profile (OCPP 1.6 §3.13, §7.7), pure so that it is
 * tested without a runtime. Why these shapes: docs/decisions/0028-load-balancing-as-charging-profiles.md.
 */
export interface BalancingPlan {
  id: number;
  purpose: ProfilePurpose;
  stackLevel: number;
  repeat: "Absolute" | "Daily" | "Weekly";
  /** The configured limit in W: the station's (shared) or each point's. */
  powerLimitW: number;
  slots: readonly Slot[];
  validFrom: number | null;
  validTo: number | null;
}

const DAY_S = 86_400;

/** W per point: a station limit is shared evenly over its points; a point limit is each point's. */
export function perPointW(plan: Pick<BalancingPlan, "purpose">, limitW: number, pointCount: number): number {
  return plan.purpose === "ChargePointMaxProfile" ? Math.floor(limitW / Math.max(1, pointCount)) : limitW;
}

/**
 * The schedule periods of one day, in seconds since local midnight: the configured limit outside
 * the slots, each slot's own limit inside it; equal neighbours are merged.
 */
export function dayPeriods(plan: Pick<BalancingPlan, "powerLimitW" | "slots">): { startPeriod: number; limitW: number }[] {
  const out: { startPeriod: number; limitW: number }[] = [];
  const push = (startPeriod: number, limitW: number) => {
    const last = out[out.length - 1];
    if (last && last.startPeriod === startPeriod) last.limitW = limitW;
    else if (!last || last.limitW !== limitW) out.push({ startPeriod, limitW });
  };
  push(0, plan.powerLimitW);
  const sorted = [...plan.slots].sort((a, b) => minuteOfDay(a.start) - minuteOfDay(b.start));
  for (const s of sorted) {
    push(minuteOfDay(s.start) * 60, Math.round(s.limitKw * 1000));
    const end = minuteOfDay(s.end) * 60;
    if (end < DAY_S) push(end, plan.powerLimitW);
  }
  return out;
}

/** Local midnight of the day the plan starts (its validFrom, else the day of `now`), in the station's zone. */
function scheduleStart(plan: Pick<BalancingPlan, "validFrom">, now: number, timeZone: string): number {
  const d = localDate(plan.validFrom ?? now, timeZone);
  return localMidnight(d.year, d.month, d.day, timeZone);
}

/**
 * The SetChargingProfile request for one point of a configuration shared over `pointCount`
 * points. Slots are in the station's local time: the schedule starts at local midnight of the
 * first day; Daily and Weekly recur from there (a week repeats that first day's slots once a week),
 * Absolute applies the slots on the first day and the configured limit after it.
 */
export function chargingProfileOf(plan: BalancingPlan, pointCount: number, timeZone: string, now: number): { connectorId: number; csChargingProfiles: ChargingProfile } {
  const periods = dayPeriods(plan).map((p) => ({ startPeriod: p.startPeriod, limit: perPointW(plan, p.limitW, pointCount) }));
  const startSchedule = new Date(scheduleStart(plan, now, timeZone)).toISOString();
  const recurring = plan.repeat !== "Absolute";
  // After its first day an Absolute schedule keeps the configured limit.
  if (!recurring) periods.push({ startPeriod: DAY_S, limit: perPointW(plan, plan.powerLimitW, pointCount) });
  const profile: ChargingProfile = {
    chargingProfileId: plan.id,
    stackLevel: plan.stackLevel,
    chargingProfilePurpose: plan.purpose,
    chargingProfileKind: recurring ? "Recurring" : "Absolute",
    ...(recurring && { recurrencyKind: plan.repeat as "Daily" | "Weekly" }),
    ...(plan.validFrom !== null && { validFrom: new Date(plan.validFrom).toISOString() }),
    ...(plan.validTo !== null && { validTo: new Date(plan.validTo).toISOString() }),
    chargingSchedule: {
      ...(recurring && { duration: plan.repeat === "Daily" ? DAY_S : 7 * DAY_S }),
      startSchedule,
      chargingRateUnit: "W",
      chargingSchedulePeriod: dedupe(periods),
    },
  };
  // Both purposes apply to the whole charge point: connector 0 (OCPP 1.6 §5.16).
  return { connectorId: 0, csChargingProfiles: profile };
}

function dedupe(periods: { startPeriod: number; limit: number }[]) {
  return periods.filter((p, i) => i === 0 || p.limit !== periods[i - 1].limit);
}

/**
 * The configured limit in force at `now` (W, before sharing), or null when the configuration is
 * not valid then: what the load monitor shows against the station's live power.
 */
export function limitAt(plan: BalancingPlan, now: number, timeZone: string): number | null {
  if ((plan.validFrom !== null && now < plan.validFrom) || (plan.validTo !== null && now >= plan.validTo)) return null;
  const start = scheduleStart(plan, now, timeZone);
  const today = localDate(now, timeZone);
  const midnight = localMidnight(today.year, today.month, today.day, timeZone);
  const daysIn = Math.round((midnight - start) / (DAY_S * 1000));
  const slotsApply = plan.repeat === "Daily" || (plan.repeat === "Weekly" ? daysIn % 7 === 0 : daysIn === 0);
  if (!slotsApply) return plan.powerLimitW;
  const second = Math.floor((now - midnight) / 1000);
  let limit = plan.powerLimitW;
  for (const p of dayPeriods(plan)) if (p.startPeriod <= second) limit = p.limitW;
  return limit;
}
