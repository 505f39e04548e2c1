import type { ChargingProfile, MeterValue, ReadingContext, SampledValue } from "../../domain/ocpp";

/**
 * The electrical side of a simulated connector: an energy register that rises at the power being
 * delivered, limited by the connector's rating and any charging profile, and a car whose state of
 * charge rises with it until it is full.
 */
export interface Electrics {
  type: "AC" | "DC";
  maxPowerW: number;
}

/** AC: three phases at 230 V to neutral; DC: a 400 V battery. */
const AC_PHASE_VOLTS = 230;
const DC_VOLTS = 400;

export function volts(e: Electrics): number {
  return e.type === "AC" ? AC_PHASE_VOLTS : DC_VOLTS;
}

/** Watts for a limit in the profile's unit (A per phase on AC). */
export function toWatts(e: Electrics, limit: number, unit: "A" | "W", phases = 3): number {
  if (unit === "W") return limit;
  return e.type === "AC" ? limit * AC_PHASE_VOLTS * phases : limit * DC_VOLTS;
}

export function fromWatts(e: Electrics, watts: number, unit: "A" | "W"): number {
  const value = unit === "W" ? watts : e.type === "AC" ? watts / (AC_PHASE_VOLTS * 3) : watts / DC_VOLTS;
  // Charging limits carry one decimal at most (OCPP 1.6 schema: multipleOf 0.1).
  return Math.round(value * 10) / 10;
}

/**
 * The period of a profile in force at `now` (OCPP 1.6 §3.13.1): none outside its validity or
 * before its schedule starts; a Recurring profile's schedule repeats daily or weekly from
 * `startSchedule`; a Relative one (no start) uses its first period.
 */
export function periodAt(p: ChargingProfile, now: number) {
  if ((p.validFrom && now < Date.parse(p.validFrom)) || (p.validTo && now >= Date.parse(p.validTo))) return undefined;
  const { chargingSchedulePeriod: periods, startSchedule, duration } = p.chargingSchedule;
  if (!startSchedule || p.chargingProfileKind === "Relative") return periods[0];
  let elapsed = (now - Date.parse(startSchedule)) / 1000;
  if (elapsed < 0) return undefined;
  if (p.chargingProfileKind === "Recurring") elapsed %= p.recurrencyKind === "Weekly" ? 604_800 : 86_400;
  else if (duration !== undefined && elapsed >= duration) return undefined;
  return periods.findLast((period) => period.startPeriod <= elapsed) ?? periods[0];
}

/** The limit in force of several profiles, in W: the lowest wins (a simple stacking). */
export function profileLimitW(e: Electrics, profiles: readonly ChargingProfile[], now = Date.now()): number {
  let limit = e.maxPowerW;
  for (const p of profiles) {
    const period = periodAt(p, now);
    if (period) limit = Math.min(limit, toWatts(e, period.limit, p.chargingSchedule.chargingRateUnit, period.numberPhases ?? 3));
  }
  return Math.max(0, Math.round(limit));
}

/** A car plugged into a connector for one session. */
export class Car {
  readonly capacityWh: number;
  private chargedWh = 0;
  private readonly startSoc: number;

  constructor(type: "AC" | "DC") {
    this.capacityWh = type === "DC" ? 77_000 : 58_000;
    this.startSoc = 15 + Math.floor(Math.random() * 30);
  }

  get soc(): number {
    return Math.min(100, this.startSoc + (this.chargedWh / this.capacityWh) * 100);
  }

  get full(): boolean {
    return this.soc >= 100;
  }

  /** What the car takes of what is offered: everything until it is nearly full, then less. */
  accepts(offeredW: number): number {
    if (this.full) return 0;
    return this.soc > 90 ? offeredW * Math.max(0.1, (100 - this.soc) / 10) : offeredW;
  }

  charge(wh: number) {
    this.chargedWh += wh;
  }
}

export interface Reading {
  registerWh: number;
  powerW: number;
  soc?: number;
}

/** One MeterValue with the measurands the simulator reports. */
export function meterValue(e: Electrics, reading: Reading, context: ReadingContext, at = new Date()): MeterValue {
  const v = volts(e);
  const amps = e.type === "AC" ? reading.powerW / (v * 3) : reading.powerW / v;
  const sampled: SampledValue[] = [
    { value: String(Math.round(reading.registerWh)), context, measurand: "Energy.Active.Import.Register", location: "Outlet", unit: "Wh" },
    { value: String(Math.round(reading.powerW)), context, measurand: "Power.Active.Import", location: "Outlet", unit: "W" },
    { value: amps.toFixed(1), context, measurand: "Current.Import", location: "Outlet", unit: "A" },
    { value: v.toFixed(1), context, measurand: "Voltage", location: "Outlet", unit: "V" },
  ];
  if (reading.soc !== undefined) sampled.push({ value: String(Math.floor(reading.soc)), context, measurand: "SoC", location: "EV", unit: "Percent" });
  return { timestamp: at.toISOString(), sampledValue: sampled };
}

/** The energy register alone, as StopTransaction's transactionData carries it. */
export function registerValue(registerWh: number, context: ReadingContext, at = new Date()): MeterValue {
  return {
    timestamp: at.toISOString(),
    sampledValue: [{ value: String(Math.round(registerWh)), context, measurand: "Energy.Active.Import.Register", location: "Outlet", unit: "Wh" }],
  };
}
