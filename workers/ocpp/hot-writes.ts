import type { ChargerStore, LogEntry, Sample, SentCall } from "./store";

/** How often the message log is written (docs/rules/ocpp.md "Hot path"). */
export const HOT_FLUSH_MS = 1000;

const BEYOND_LATIN_1 = /[\u0100-\uffff]/;
const stringBytes = (s: string) => (BEYOND_LATIN_1.test(s) ? 2 : 1) * s.length + 8;

/**
 * At most how many bytes a frame takes in a socket's attachment (a structured clone, whose limit
 * is 2 KB): its strings, two bytes a character beyond Latin-1 as V8 keeps them, and room for its
 * field names and numbers. Counted once per frame, so that parking costs no serialisation of
 * the frames waiting (docs/performance.md "Waking up, again").
 */
export const parkedBytes = (entry: LogEntry) =>
  stringBytes(entry.message) + stringBytes(entry.messageId) + (entry.action === null ? 0 : stringBytes(entry.action)) + 64;

/**
 * The hot writes of one charger in as few SQLite statements and commits as they allow
 * (docs/performance.md "Where a message spent its time (before)", "One commit per message",
 * "A Heartbeat writes nothing"). Meter samples go at once, one row per MeterValues: the charger is
 * told they are delivered only once they are stored (its energy register is what the next reading
 * is checked against). Log frames, the rows of calls sent to the charger (which their socket keeps
 * meanwhile) and the removal of rows of calls it has answered wait in memory; a call answered
 * before the flush is never written. When the message being answered wrote samples, they go
 * right after its answer has left, in the same commit. Otherwise (a Heartbeat, a status) they
 * are parked with the socket instead (its attachment, which outlives a hibernation and costs no
 * storage write) until a message that writes, the alarm, the socket's close or a read of the log
 * takes them to storage; frames that do not fit there go about once a second in one multi-row
 * insert. A reply never waits for a write of the log: a Durable Object holds what it sends behind
 * the writes made before it, and these come after. A frame is lost only with the process.
 */
export class HotWrites {
  private log: LogEntry[] = [];
  /** `parkedBytes` of the frames in `log`. */
  private logBytes = 0;
  private settled: string[] = [];
  /** Calls sent whose rows are not written yet. */
  private sent: SentCall[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Samples were written since the last flush: the frames waiting join that commit. */
  private writing = false;
  /** A change for D1 was queued since the last flush: the frames join its commit only when they cannot be parked. */
  private queuedChange = false;
  /** Some of the frames in memory are also parked with a socket. */
  private parked = false;

  /** `release`: the frames parked with a socket are in storage now, and the socket lets go of them. */
  constructor(
    private readonly store: ChargerStore,
    private readonly release?: () => void,
  ) {}

  /**
   * `answerFollows`: the frame belongs to a message whose answer is about to go (`answered`
   * decides then where the frames go), so no timer is armed only to be cleared again.
   */
  frame(entry: LogEntry, answerFollows = false) {
    this.log.push(entry);
    this.logBytes += parkedBytes(entry);
    if (!answerFollows) this.arm();
  }

  /**
   * A call went out: its row is written with the next flush, never before its frame (a frame sent
   * after a write waits for its commit); the socket keeps the call until then.
   */
  sentCall(call: SentCall) {
    this.sent.push(call);
    this.arm();
  }

  /** A call to the charger was answered: its stored row goes with the next flush, and one not written yet never is. */
  settledCall(id: string) {
    const unwritten = this.sent.findIndex((call) => call.id === id);
    if (unwritten >= 0) {
      this.sent.splice(unwritten, 1);
      return;
    }
    this.settled.push(id);
    this.arm();
  }

  addSamples(samples: Sample[]) {
    if (samples.length === 0) return;
    this.store.insertSamples(samples);
    this.writing = true;
  }

  /** The message being answered queued a change for D1 in storage. */
  wrote() {
    this.queuedChange = true;
  }

  /**
   * An answer has left: if its message wrote samples, the frames waiting go now, in the same
   * commit; otherwise `park` keeps them with the socket that was answered (when `bytes` fit, it
   * answers true) and nothing waits for the timer. A status or a boot parks its frames too: in a
   * burst of statuses to objects asleep the log's insert was the dearest statement of each
   * (docs/performance.md "A status's frames parked"). Frames that do not fit join a queued
   * change's commit, or else wait for the timer.
   */
  answered(park?: (frames: readonly LogEntry[], bytes: number) => boolean) {
    if (this.writing || this.settled.length > 0) return this.flush();
    if (this.log.length === 0) return;
    if (!park || !park(this.log, this.logBytes)) return this.queuedChange ? this.flush() : this.arm();
    this.queuedChange = false;
    this.parked = true;
    // The rows of calls sent still wait for the timer.
    if (this.sent.length > 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Frames parked before a hibernation, back in memory before any frame of this wake-up. */
  restore(frames: readonly LogEntry[]) {
    if (frames.length === 0) return;
    this.log = [...frames, ...this.log];
    this.logBytes += frames.reduce((bytes, entry) => bytes + parkedBytes(entry), 0);
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
    this.queuedChange = false;
    if (this.log.length === 0 && this.settled.length === 0 && this.sent.length === 0) return;
    const { log, settled, sent } = this;
    this.log = [];
    this.logBytes = 0;
    this.settled = [];
    this.sent = [];
    this.store.appendLog(log);
    for (const call of sent) this.store.addPendingCall(call);
    for (const id of settled) this.store.settlePendingCall(id);
    if (this.parked) {
      this.parked = false;
      this.release?.();
    }
  }
}
