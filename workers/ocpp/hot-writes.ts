import type { ChargerStore, LogEntry, Sample } from "./store";

/** How often the message log is written (docs/rules/ocpp.md "Hot path"). */
export const HOT_FLUSH_MS = 1000;

/**
 * The hot writes of one charger in as few SQLite statements and commits as they allow
 * (docs/performance.md "Where a message spent its time (before)", "One commit per message",
 * "A Heartbeat writes nothing"). Meter samples go at once, one row per MeterValues: the charger is
 * told they are delivered only once they are stored (its energy register is what the next reading
 * is checked against). Log frames, and the stored rows of calls the charger has answered, wait in
 * memory. When the message being answered wrote storage anyway (samples, a change for D1), they go
 * right after its answer has left, in the same commit. When it wrote nothing (a Heartbeat), they
 * are parked with the socket instead (its attachment, which outlives a hibernation and costs no
 * storage write) until a message that writes, the alarm, the socket's close or a read of the log
 * takes them to storage; frames that do not fit there go about once a second in one multi-row
 * insert. A reply never waits for a write of the log: a Durable Object holds what it sends behind
 * the writes made before it, and these come after. A frame is lost only with the process.
 */
export class HotWrites {
  private log: LogEntry[] = [];
  private settled: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Storage was written since the last flush: the frames waiting may join that commit. */
  private writing = false;
  /** Some of the frames in memory are also parked with a socket. */
  private parked = false;

  /** `release`: the frames parked with a socket are in storage now, and the socket lets go of them. */
  constructor(
    private readonly store: ChargerStore,
    private readonly release?: () => void,
  ) {}

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
    if (samples.length === 0) return;
    this.store.insertSamples(samples);
    this.writing = true;
  }

  /** The message being answered wrote something else to storage (a change queued for D1). */
  wrote() {
    this.writing = true;
  }

  /**
   * An answer has left: if its message wrote storage, the frames waiting go now, in the same
   * commit; otherwise `park` keeps them with the socket that was answered (when they fit, it
   * answers true) and nothing waits for the timer.
   */
  answered(park?: (frames: readonly LogEntry[]) => boolean) {
    if (this.writing || this.settled.length > 0) return this.flush();
    if (!park || this.log.length === 0 || !park(this.log)) return;
    this.parked = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Frames parked before a hibernation, back in memory before any frame of this wake-up. */
  restore(frames: readonly LogEntry[]) {
    if (frames.length === 0) return;
    this.log = [...frames, ...this.log];
    this.parked = true;
  }

  private arm() {
    this.timer ??= setTimeout(() => this.flush(), HOT_FLUSH_MS);
  }

  /** Everything waiting goes to storage, and the socket lets go of the frames it held. */
  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.writing = false;
    if (this.log.length === 0 && this.settled.length === 0) return;
    const { log, settled } = this;
    this.log = [];
    this.settled = [];
    this.store.appendLog(log);
    for (const id of settled) this.store.settlePendingCall(id);
    if (this.parked) {
      this.parked = false;
      this.release?.();
    }
  }
}
