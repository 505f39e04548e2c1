import { liveReadings, type Reading } from "../../../domain/ocpp";

/**
 * Meter curves for the console's charts, from the normalised samples a charger's Durable Object
 * keeps (docs/rules/monitoring.md "Charging sessions"). Pure: the verbs fetch the samples, these
 * shape them.
 */

/** A sample as the charger's storage gives it back (phase is null there, never undefined). */
export interface StoredSample {
  ts: string;
  measurand: string;
  phase: string | null;
  value: number;
  unit: string;
  flagged: number;
}

/** One instant of a transaction: energy delivered so far and the readings at that instant. */
export interface CurvePoint {
  at: string;
  /** Energy delivered since the start (register minus meter start), Wh. */
  energyWh?: number;
  powerW?: number;
  currentA?: number;
  voltageV?: number;
  soc?: number;
}

/** A chart draws at most this many points; longer sessions are thinned evenly, keeping the last. */
export const MAX_CURVE_POINTS = 500;

const toReading = (s: StoredSample): Reading => ({
  timestamp: s.ts,
  measurand: s.measurand,
  unit: s.unit,
  value: s.value,
  ...(s.phase !== null && { phase: s.phase }),
});

/** Samples grouped by their timestamp, oldest first; flagged registers (gone backwards) are left out. */
function byInstant(samples: readonly StoredSample[]): [string, Reading[]][] {
  const groups = new Map<string, Reading[]>();
  for (const sample of samples) {
    if (sample.flagged) continue;
    const list = groups.get(sample.ts) ?? [];
    list.push(toReading(sample));
    groups.set(sample.ts, list);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Evenly spaced picks from a list, always keeping the first and the last. */
export function thin<T>(list: readonly T[], max = MAX_CURVE_POINTS): T[] {
  if (list.length <= max) return [...list];
  const step = (list.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => list[Math.round(i * step)]);
}

/** The curve of one transaction: one point per instant the charger reported. */
export function meterCurve(samples: readonly StoredSample[], meterStartWh: number): CurvePoint[] {
  const curve = byInstant(samples).map(([at, readings]): CurvePoint => {
    const live = liveReadings(readings);
    return {
      at,
      // The register never counts below the start; a lower one would be a meter swap.
      ...(live.energyWh !== undefined && { energyWh: Math.max(0, live.energyWh - meterStartWh) }),
      ...(live.powerW !== undefined && { powerW: live.powerW }),
      ...(live.currentA !== undefined && { currentA: live.currentA }),
      ...(live.voltageV !== undefined && { voltageV: live.voltageV }),
      ...(live.soc !== undefined && { soc: live.soc }),
    };
  });
  return thin(curve);
}

/** The last energy register a transaction's samples hold, or undefined. */
export function lastRegisterWh(samples: readonly StoredSample[]): number | undefined {
  for (let i = samples.length - 1; i >= 0; i--) {
    const s = samples[i];
    if (!s.flagged && s.measurand === "Energy.Active.Import.Register" && s.phase === null && s.unit === "Wh") return s.value;
  }
  return undefined;
}

/**
 * A station's power over a window, in steps ending at `to`, summed over its transactions (load monitoring).
 * Each transaction counts with its latest power reading at or before the step, from its first
 * reading on, and nothing after its end.
 */
export function powerHistory(
  sessions: readonly { samples: readonly StoredSample[]; endAt?: number }[],
  from: number,
  to: number,
  stepMs: number,
): { at: string; powerW: number }[] {
  const series = sessions.map((session) => ({
    endAt: session.endAt,
    readings: byInstant(session.samples)
      .map(([at, readings]) => ({ at: Date.parse(at), powerW: liveReadings(readings).powerW }))
      .filter((r): r is { at: number; powerW: number } => r.powerW !== undefined),
  }));
  const instants: number[] = [];
  for (let at = from; at < to; at += stepMs) instants.push(at);
  // The window always ends at `to`, so the latest readings are in it.
  instants.push(to);
  const steps: { at: string; powerW: number }[] = [];
  for (const at of instants) {
    let total = 0;
    for (const { readings, endAt } of series) {
      if (endAt !== undefined && at > endAt) continue;
      let latest: number | undefined;
      for (const r of readings) {
        if (r.at > at) break;
        latest = r.powerW;
      }
      total += latest ?? 0;
    }
    steps.push({ at: new Date(at).toISOString(), powerW: Math.round(total) });
  }
  return steps;
}
