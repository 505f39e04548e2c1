import type { ChargerChange } from "../services/ocpp/charger-changes";

/** How long a change may wait for the next ones before its batch goes to D1 (docs/rules/ocpp.md "Hot path"). */
export const OUTBOX_FLUSH_MS = 1000;

/**
 * A charger's changes for D1 (online flag, boot, statuses), kept in its own SQLite in the order
 * they happened, in the same write as the state the answer reflects, and sent in batches after
 * the answer. A row leaves only once D1 has taken its batch, so an eviction or a failed batch
 * loses nothing: the alarm sends it again, and applying a batch twice changes nothing more
 * (`applyChargersChanges`, through the operator's ChangeWriter, workers/ocpp/change-writer.ts).
 * Batches go one at a time, so D1 sees each charger's changes in order.
 */
export class ChargerOutbox {
  private draining: Promise<void> = Promise.resolve();
  /**
   * Whether rows wait, kept in memory: read from storage at its first use in a wake-up (not when
   * the object is made: a Heartbeat never opens storage), then known from what was queued.
   */
  private waiting: boolean | undefined;
  /** Changes queued in this wake-up: those queued while a batch was on its way are what is left after it. */
  private added = 0;

  constructor(
    // Its table is part of the charger's schema (workers/ocpp/store.ts), with a plain rowid: a new
    // row takes the largest id plus one, and rows leave only from the oldest up to a batch's last
    // id once D1 has the batch, so order holds without AUTOINCREMENT's extra write.
    private readonly database: () => SqlStorage,
    private readonly apply: (changes: ChargerChange[]) => Promise<void>,
    /** Whether rows waited when storage was opened (read with `kv` in one statement, workers/ocpp/store.ts). */
    private readonly waitingAtOpen: () => boolean,
  ) {}

  private get sql() {
    return this.database();
  }

  /** Queues a change; answers whether it is the first of a new batch (the caller arranges the flush). */
  add(change: ChargerChange): boolean {
    const first = !this.pending();
    this.sql.exec("INSERT INTO outbox (change) VALUES (?)", JSON.stringify(change));
    this.added++;
    this.waiting = true;
    return first;
  }

  pending(): boolean {
    this.waiting ??= this.waitingAtOpen();
    return this.waiting;
  }

  /** Sends everything queued so far; resolves once D1 has it (rejects if D1 refused it: it stays queued). */
  drain(): Promise<void> {
    const run = this.draining.then(() => this.send());
    this.draining = run.catch(() => undefined);
    return run;
  }

  private async send() {
    for (;;) {
      const rows = this.sql.exec<{ id: number; change: string }>("SELECT id, change FROM outbox ORDER BY id").toArray();
      const before = this.added;
      if (rows.length === 0) {
        this.waiting = false;
        return;
      }
      await this.apply(rows.map((r) => JSON.parse(r.change) as ChargerChange));
      this.sql.exec("DELETE FROM outbox WHERE id <= ?", rows[rows.length - 1].id);
      // Every row there was went in this batch: what is left was queued while it was on its way.
      this.waiting = this.added !== before;
      // Those found a batch on its way and armed no timer of their own (`add` answered false):
      // they go now, or they would wait for the offline alarm (the reconnect storm of
      // docs/testing.md "Chaos" left the last statuses of most chargers out of D1 that way).
      if (!this.waiting) return;
    }
  }
}
