import type { ChargerStore, LogEntry, Sample } from "./store";

/** How often the message log and meter samples are written (docs/rules/ocpp.md "Hot path"). */
export const HOT_FLUSH_MS = 1000;
/** How often the log is cut to its retention (docs/rules/ocpp.md "Message log"). */
const PRUNE_EVERY_MS = 60_000;

/**
 * The message log and the meter samples of one charger in as few SQLite transactions as they
 * allow (docs/performance.md "Where a message spends its time"). Log frames wait in memory and
 * go about once a second, or with the next meter samples, whichever comes first; meter samples go
 * at once, with the frames waiting, in the same transaction: a MeterValues costs the one write
 * its samples need, and a sample the charger was told it delivered is in storage (its energy
 * register is what the next reading is checked against). The timer is armed once per flush,
 * never per frame; a Durable Object with a timer pending does not hibernate, and the alarm, the
 * socket's close and every read flush too, so a frame is lost only with the process.
 */
export class HotWrites {
  private log: LogEntry[] = [];
  private samples: Sample[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private prunedAt = 0;

  constructor(private readonly store: ChargerStore) {}

  frame(entry: LogEntry) {
    this.log.push(entry);
    this.timer ??= setTimeout(() => this.flush(), HOT_FLUSH_MS);
  }

  addSamples(samples: Sample[]) {
    if (samples.length === 0) return;
    this.samples.push(...samples);
    this.flush();
  }

  flush(now = Date.now()) {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.log.length === 0 && this.samples.length === 0) return;
    const samples = this.samples;
    const log = this.log;
    this.samples = [];
    this.log = [];
    this.store.insertSamples(samples);
    this.store.appendLog(log);
    if (now - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = now;
      this.store.pruneLog(now);
    }
  }
}
