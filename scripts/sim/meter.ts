import type { ChargingProfile, MeterValue, ReadingContext, SampledValue } from "../../domain/ocpp";
import type { Ocpp201Request } from "../../domain/ocpp/v201";

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
 * What a limit in force is read from: a 1.6 ChargingProfile as it is, or a 2.0.1 one with its
 * first chargingSchedule in place of the array (the fields have the same names and meaning).
 */
export interface ScheduledLimit {
  validFrom?: string;
  validTo?: string;
  chargingProfileKind: ChargingProfile["chargingProfileKind"];
  recurrencyKind?: ChargingProfile["recurrencyKind"];
  chargingSchedule: {
    startSchedule?: string;
    duration?: number;
    chargingRateUnit: "A" | "W";
    chargingSchedulePeriod: { startPeriod: number; limit: number; numberPhases?: number }[];
  };
}

/**
 * The period of a profile in force at `now` (OCPP 1.6 §3.13.1): none outside its validity or
 * before its schedule starts; a Recurring profile's schedule repeats daily or weekly from
 * `startSchedule`; a Relative one (no start) uses its first period.
 */
export function periodAt(p: ScheduledLimit, now: number) {
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
export function profileLimitW(e: Electrics, profiles: readonly ScheduledLimit[], now = Date.now()): number {
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

/** A measurand the simulator reports; 1.6 and 2.0.1 spell these the same. */
export type Measurand = "Energy.Active.Import.Register" | "Power.Active.Import" | "Current.Import" | "Voltage" | "SoC";

/** One sample: the value rounded as a meter shows it, where it is measured, in which unit. */
export interface Sample {
  measurand: Measurand;
  value: number;
  location: "Outlet" | "EV";
  unit: "Wh" | "W" | "A" | "V" | "Percent";
}

/** What the meter shows now, the SoC only while a car reports it. */
export function samples(e: Electrics, reading: Reading): Sample[] {
  const v = volts(e);
  const amps = e.type === "AC" ? reading.powerW / (v * 3) : reading.powerW / v;
  const list: Sample[] = [
    { measurand: "Energy.Active.Import.Register", value: Math.round(reading.registerWh), location: "Outlet", unit: "Wh" },
    { measurand: "Power.Active.Import", value: Math.round(reading.powerW), location: "Outlet", unit: "W" },
    { measurand: "Current.Import", value: Math.round(amps * 10) / 10, location: "Outlet", unit: "A" },
    { measurand: "Voltage", value: v, location: "Outlet", unit: "V" },
  ];
  if (reading.soc !== undefined) list.push({ measurand: "SoC", value: Math.floor(reading.soc), location: "EV", unit: "Percent" });
  return list;
}

/** One MeterValue with the measurands the simulator reports. */
export function meterValue(e: Electrics, reading: Reading, context: ReadingContext, at = new Date()): MeterValue {
  const sampled: SampledValue[] = samples(e, reading).map(({ measurand, value, location, unit }) => ({
    value: measurand === "Current.Import" || measurand === "Voltage" ? value.toFixed(1) : String(value),
    context,
    measurand,
    location,
    unit,
  }));
  return { timestamp: at.toISOString(), sampledValue: sampled };
}

/** The energy register alone, as StopTransaction's transactionData carries it. */
export function registerValue(registerWh: number, context: ReadingContext, at = new Date()): MeterValue {
  return {
    timestamp: at.toISOString(),
    sampledValue: [{ value: String(Math.round(registerWh)), context, measurand: "Energy.Active.Import.Register", location: "Outlet", unit: "Wh" }],
  };
}

export type MeterValue201 = Ocpp201Request<"MeterValues">["meterValue"][number];
export type ReadingContext201 = NonNullable<MeterValue201["sampledValue"][number]["context"]>;

/**
 * One OCPP 2.0.1 MeterValue of the measurands a SampledDataCtrlr list asks for (J01, J02):
 * numbers, with their unit of measure. Undefined when the list asks for none the meter has.
 */
export function meterValue201(e: Electrics, reading: Reading, context: ReadingContext201, measurands: readonly string[], at = new Date()): MeterValue201 | undefined {
  const sampled = samples(e, reading)
    .filter((s) => measurands.includes(s.measurand))
    .map(({ measurand, value, location, unit }) => ({ value, context, measurand, location, unitOfMeasure: { unit } }));
  return sampled.length > 0 ? { timestamp: at.toISOString(), sampledValue: sampled } : undefined;
}
