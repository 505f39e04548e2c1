import type { ChargerStore, LogEntry, Sample } from "./store";

/** How often the message log is written (docs/rules/ocpp.md "Hot path"). */
export const HOT_FLUSH_MS = 1000;

/**
 * The hot writes of one charger in as few SQLite statements as they allow (docs/performance.md
 * "Where a message spent its time (before)"). Meter samples go at once, in one multi-row insert
 * per MeterValues: the charger is told they are delivered only once they are stored (its energy
 * register is what the next reading is checked against). Log frames, and the stored rows of calls
 * the charger has answered, wait in memory and go about once a second in one transaction: a burst
 * of frames is one multi-row insert, and a reply to the API never waits for a write of the log
 * (a Durable Object holds what it sends behind the writes made before it). The timer is armed
 * once per flush, never per frame; a Durable Object with a timer pending does not hibernate, and
 * the alarm, the socket's close and every read flush too, so a frame is lost only with the process.
 */
export class HotWrites {
  private log: LogEntry[] = [];
  private settled: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly store: ChargerStore) {}

  frame(entry: LogEntry) {
    this.log.push(entry);
    this.arm();
  }

  /** A call to the charger was answered: its stored row goes with the next flush. */
  settledCall(id: string) {
    this.settled.push(id);
    this.arm();
  }

  addSamples(samples: Sample[]) {
    if (samples.length > 0) this.store.insertSamples(samples);
  }

  private arm() {
    this.timer ??= setTimeout(() => this.flush(), HOT_FLUSH_MS);
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.log.length === 0 && this.settled.length === 0) return;
    const { log, settled } = this;
    this.log = [];
    this.settled = [];
    this.store.appendLog(log);
    for (const id of settled) this.store.settlePendingCall(id);
  }
}
