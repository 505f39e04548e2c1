import { zonedToUtc } from "../time";
import type { SessionFacts } from "./engine";

/**
 * The sample session of the editor's cost preview (docs/rules/pricing.md "The editor"): energy
 * delivered evenly from a local start time for a duration, idle minutes before (reserved), during
 * (suspended, at the end of the charging time) and after (until the unplug). The preview prices it
 * with the engine the billing uses.
 */
export interface SampleSession {
  energyKwh: string;
  /** Local wall-clock `yyyy-MM-ddTHH:mm` in the station's zone. */
  startTime: string;
  durationMinutes: number;
  idleBeforeMinutes: number;
  idleDuringMinutes: number;
  idleAfterMinutes: number;
}

const MINUTE_MS = 60_000;

export function sampleSession(sample: SampleSession, timeZone: string): SessionFacts | undefined {
  const startAt = zonedToUtc(sample.startTime, timeZone);
  if (startAt === undefined || !/^\d{1,5}(\.\d{1,3})?$/.test(sample.energyKwh)) return undefined;
  const [whole, fraction = ""] = sample.energyKwh.split(".");
  const wh = Number(whole) * 1000 + Number(fraction.padEnd(3, "0"));
  const stopAt = startAt + sample.durationMinutes * MINUTE_MS;
  const suspended = Math.min(sample.idleDuringMinutes, sample.durationMinutes) * MINUTE_MS;
  return {
    startAt,
    stopAt,
    meterStartWh: 0,
    meterStopWh: wh,
    // Energy flows until the car suspends, then the register stands still.
    samples: suspended > 0 ? [{ at: stopAt - suspended, wh }] : [],
    statuses: suspended > 0 ? [{ at: startAt, status: "Charging" }, { at: stopAt - suspended, status: "SuspendedEV" }] : [],
    reservationStartAt: sample.idleBeforeMinutes > 0 ? startAt - sample.idleBeforeMinutes * MINUTE_MS : null,
    unplugAt: stopAt + sample.idleAfterMinutes * MINUTE_MS,
  };
}
