/**
 * Meter values are normalised on arrival (docs/rules/ocpp.md "Meter values"): one flat list of
 * numeric samples in base units (Wh, W, var, varh, VA), with OCPP's defaults made explicit, so that
 * billing and the live view never deal with kWh, missing measurands or string readings.
 */
import type { ChargePointStatus, Measurand, MeasurementLocation, MeterValue, Phase, ReadingContext, UnitOfMeasure } from "./schemas";

/** Units after normalisation; "" is the dimensionless Power.Factor. */
export type MeterUnit =
  | "Wh"
  | "varh"
  | "W"
  | "var"
  | "VA"
  | "A"
  | "V"
  | "K"
  | "Celsius"
  | "Fahrenheit"
  | "Percent"
  | "Hz"
  | "RPM"
  | "";

export interface MeterSample {
  /** ISO 8601 in UTC (`…Z`), so samples sort and compare as strings. */
  timestamp: string;
  measurand: Measurand;
  phase?: Phase;
  location?: MeasurementLocation;
  context: ReadingContext;
  value: number;
  unit: MeterUnit;
}

/** OCPP 1.6 §7 SampledValue: an absent measurand is the energy register, an absent context periodic. */
const DEFAULT_MEASURAND: Measurand = "Energy.Active.Import.Register";
const DEFAULT_CONTEXT: ReadingContext = "Sample.Periodic";

/**
 * 1.6 only defines the default unit for energy (Wh); for the other measurands the unit a charger
 * leaves out can only be the base unit of the quantity.
 */
function defaultUnit(measurand: Measurand): MeterUnit {
  if (measurand.startsWith("Energy.Active.")) return "Wh";
  if (measurand.startsWith("Energy.Reactive.")) return "varh";
  if (measurand === "Power.Factor") return "";
  if (measurand.startsWith("Power.Reactive.")) return "var";
  if (measurand.startsWith("Power.")) return "W";
  if (measurand.startsWith("Current.")) return "A";
  if (measurand === "Voltage") return "V";
  if (measurand === "Frequency") return "Hz";
  if (measurand === "Temperature") return "Celsius";
  if (measurand === "SoC") return "Percent";
  return "RPM";
}

/** Kilo-units become base units (value × 10³); "Celcius" is the 1.6 schema's misspelling. */
const UNIT_CONVERSION: Record<UnitOfMeasure, { unit: MeterUnit; powerOfTen: number }> = {
  Wh: { unit: "Wh", powerOfTen: 0 },
  kWh: { unit: "Wh", powerOfTen: 3 },
  varh: { unit: "varh", powerOfTen: 0 },
  kvarh: { unit: "varh", powerOfTen: 3 },
  W: { unit: "W", powerOfTen: 0 },
  kW: { unit: "W", powerOfTen: 3 },
  VA: { unit: "VA", powerOfTen: 0 },
  kVA: { unit: "VA", powerOfTen: 3 },
  var: { unit: "var", powerOfTen: 0 },
  kvar: { unit: "var", powerOfTen: 3 },
  A: { unit: "A", powerOfTen: 0 },
  V: { unit: "V", powerOfTen: 0 },
  K: { unit: "K", powerOfTen: 0 },
  Celcius: { unit: "Celsius", powerOfTen: 0 },
  Celsius: { unit: "Celsius", powerOfTen: 0 },
  Fahrenheit: { unit: "Fahrenheit", powerOfTen: 0 },
  Percent: { unit: "Percent", powerOfTen: 0 },
  Hertz: { unit: "Hz", powerOfTen: 0 },
};

const DECIMAL = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+))?$/;

/**
 * Parses a decimal reading and scales it by 10^powerOfTen in the decimal domain, so that
 * "1.234" kWh is exactly 1234 Wh rather than 1233.9999999999998. Anything that is not a plain
 * decimal (empty, "1,5", "0x10", "NaN") gives undefined.
 */
function parseReading(text: string, powerOfTen: number): number | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, mantissa, exponent] = match;
  const value = Number(`${mantissa}e${Number(exponent ?? 0) + powerOfTen}`);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Flattens the meterValue list of a MeterValues.req (or the transactionData of a
 * StopTransaction.req) into numeric samples. SignedData readings and readings that are not
 * decimals are dropped: one bad sample must not lose the rest of the message.
 */
export function normaliseMeterValues(meterValue: readonly MeterValue[]): MeterSample[] {
  const samples: MeterSample[] = [];
  for (const { timestamp, sampledValue } of meterValue) {
    const time = Date.parse(timestamp);
    if (Number.isNaN(time)) continue;
    const utc = new Date(time).toISOString();
    for (const sampled of sampledValue) {
      if (sampled.format === "SignedData") continue;
      const measurand = sampled.measurand ?? DEFAULT_MEASURAND;
      const conversion = sampled.unit ? UNIT_CONVERSION[sampled.unit] : { unit: defaultUnit(measurand), powerOfTen: 0 };
      const value = parseReading(sampled.value, conversion.powerOfTen);
      if (value === undefined) continue;
      samples.push({
        timestamp: utc,
        measurand,
        ...(sampled.phase && { phase: sampled.phase }),
        ...(sampled.location && { location: sampled.location }),
        context: sampled.context ?? DEFAULT_CONTEXT,
        value,
        unit: conversion.unit,
      });
    }
  }
  return samples;
}

/**
 * What `liveReadings` looks at. Wider than MeterSample so that samples read back from storage,
 * where measurand, phase and unit are plain strings, can be used as they are.
 */
export interface Reading {
  timestamp: string;
  measurand: string;
  phase?: string;
  unit: string;
  value: number;
}

export interface LiveReadings {
  energyWh?: number;
  powerW?: number;
  currentA?: number;
  voltageV?: number;
  soc?: number;
}

/** Per-phase samples that add up to a three-phase total; N (neutral current) is not a line. */
const LINE_OF_PHASE: Readonly<Record<string, "L1" | "L2" | "L3">> = {
  L1: "L1",
  L2: "L2",
  L3: "L3",
  "L1-N": "L1",
  "L2-N": "L2",
  "L3-N": "L3",
};
const LINE_TO_LINE: ReadonlySet<string> = new Set<Phase>(["L1-L2", "L2-L3", "L3-L1"]);

type Combine = "sum" | "average";

/**
 * The reading of one measurand at its latest timestamp. A sample without a phase is the total and
 * wins; otherwise the per-line samples are summed (power, current) or averaged (voltage). Voltage
 * averages line-to-neutral values, and line-to-line ones only when there are no others, since the
 * two differ by √3. Samples in an unexpected unit are ignored rather than mixed in.
 */
function latestReading(
  samples: readonly Reading[],
  measurand: Measurand,
  unit: MeterUnit,
  combine: Combine,
): number | undefined {
  const candidates = samples.filter((s) => s.measurand === measurand && s.unit === unit);
  if (candidates.length === 0) return undefined;
  const latest = candidates.reduce((max, s) => (s.timestamp > max ? s.timestamp : max), "");
  const atLatest = candidates.filter((s) => s.timestamp === latest);

  const total = atLatest.findLast((s) => s.phase === undefined);
  if (total) return total.value;

  const perLine = new Map<string, number>();
  for (const s of atLatest) {
    const line = s.phase === undefined ? undefined : LINE_OF_PHASE[s.phase];
    if (line) perLine.set(line, s.value);
  }
  if (perLine.size === 0 && combine === "average") {
    for (const s of atLatest) if (s.phase && LINE_TO_LINE.has(s.phase)) perLine.set(s.phase, s.value);
  }
  if (perLine.size === 0) return undefined;
  const sum = [...perLine.values()].reduce((a, b) => a + b, 0);
  return combine === "sum" ? sum : sum / perLine.size;
}

/**
 * The live state pushed to the console: the latest energy register (the total, never a per-phase
 * register), import power, import current, voltage and state of charge. Absent readings stay absent.
 */
export function liveReadings(samples: readonly Reading[]): LiveReadings {
  const energyWh = latestTotal(samples, "Energy.Active.Import.Register", "Wh");
  const powerW = latestReading(samples, "Power.Active.Import", "W", "sum");
  const currentA = latestReading(samples, "Current.Import", "A", "sum");
  const voltageV = latestReading(samples, "Voltage", "V", "average");
  const soc = latestTotal(samples, "SoC", "Percent");
  return {
    ...(energyWh !== undefined && { energyWh }),
    ...(powerW !== undefined && { powerW }),
    ...(currentA !== undefined && { currentA }),
    ...(voltageV !== undefined && { voltageV }),
    ...(soc !== undefined && { soc }),
  };
}

function latestTotal(samples: readonly Reading[], measurand: Measurand, unit: MeterUnit): number | undefined {
  return latestReading(
    samples.filter((s) => s.phase === undefined),
    measurand,
    unit,
    "sum",
  );
}

/** Readings of energy flowing now. The energy register is not one of them: it stays true after a session. */
export const FLOW_READINGS = ["powerW", "currentA", "voltageV", "soc"] as const satisfies readonly (keyof LiveReadings)[];
export type FlowReading = (typeof FLOW_READINGS)[number];

/** Connector statuses in which energy flows, or may flow again within the same session (OCPP 1.6 §7.7). */
const FLOWING: ReadonlySet<string> = new Set<ChargePointStatus>(["Charging", "SuspendedEV", "SuspendedEVSE"]);

/**
 * Whether a live event ends its connector's flow readings: the transaction stopped, or the
 * connector left Charging, SuspendedEV and SuspendedEVSE. Power, current, voltage and SoC shown
 * after that would be stale.
 */
export function endsFlow(event: { type: string; phase?: string; status?: string }): boolean {
  if (event.type === "transaction") return event.phase === "stop";
  return event.type === "connector" && !FLOWING.has(event.status ?? "");
}

/** The same readings without power, current, voltage and SoC. */
export function withoutFlow<T extends Partial<Record<FlowReading, number>>>(readings: T): Omit<T, FlowReading> {
  const rest: Partial<T> = { ...readings };
  for (const key of FLOW_READINGS) delete rest[key];
  return rest as Omit<T, FlowReading>;
}

/**
 * An energy register only counts up; a lower reading (meter replaced, reset, or a charger bug) is
 * flagged for review and never billed as negative energy. The first reading has nothing to compare to.
 */
export function registerWentBackwards(previousWh: number | undefined, nextWh: number): boolean {
  return previousWh !== undefined && nextWh < previousWh;
}
