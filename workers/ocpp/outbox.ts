import type { ChargerChange } from "../services/ocpp/charger-changes";
import type { OutboxIds } from "./store";

/** How long a change may wait for the next ones before its batch goes to D1 (docs/rules/ocpp.md "Hot path"). */
export const OUTBOX_FLUSH_MS = 1000;

/**
 * Where the outbox keeps the id of the last row D1 has, somewhere that costs no storage write and
 * outlives a hibernation: the charger's socket (its attachment, workers/ocpp/charge-point.ts).
 */
export interface LandedMark {
  /** The mark as kept, 0 when nothing keeps one (a new object, a process restarted). */
  read(): number;
  /** Keeps the mark; false when nothing can (no socket): the rows are removed at once then. */
  write(id: number): boolean;
}

/**
 * A charger's changes for D1 (online flag, boot, statuses), kept in its own SQLite in the order
 * they happened, in the same write as the state the answer reflects, and sent in batches after
 * the answer. A row is known sent only once D1 has taken its batch, so an eviction or a failed
 * batch loses nothing: the alarm sends it again, and applying a batch twice changes nothing more
 * (`applyChargersChanges`, through the operator's ChangeWriter, workers/ocpp/change-writer.ts).
 * Batches go one at a time, so D1 sees each charger's changes in order.
 *
 * What D1 has is marked, not removed: the landed rows leave in the next commit the object makes
 * anyway (the next change queued, the alarm), so that a status costs one commit, not two
 * (docs/performance.md "The outbox's rows leave with the next write"). The mark lives with the
 * socket; when it is lost (the process restarted), the rows it covered are sent once more, which
 * changes nothing in D1.
 */
export class ChargerOutbox {
  private draining: Promise<void> = Promise.resolve();
  /**
   * Whether rows wait beyond the mark, kept in memory: read from storage at its first use in a
   * wake-up (not when the object is made: a Heartbeat never opens storage), then known from what
   * was queued.
   */
  private waiting: boolean | undefined;
  /** Changes queued in this wake-up: those queued while a batch was on its way are what is left after it. */
  private added = 0;
  /** The id of the last row D1 has (0: none known), read from the mark at its first use in a wake-up. */
  private landedId: number | undefined;
  /** Rows up to this id are gone from storage (known in this wake-up). */
  private removedUpTo = 0;

  constructor(
    // Its table is part of the charger's schema (workers/ocpp/store.ts), with a plain rowid. A new
    // row takes an id above both the largest there is and the mark, so that a mark never covers a
    // row D1 has not had; rows leave only from the oldest up to the mark, so order holds without
    // AUTOINCREMENT's extra write.
    private readonly database: () => SqlStorage,
    private readonly apply: (changes: ChargerChange[]) => Promise<void>,
    /** The ids of the rows when storage was opened (read with `kv` in one statement, workers/ocpp/store.ts). */
    private readonly idsAtOpen: () => OutboxIds | undefined,
    private readonly mark: LandedMark,
  ) {}

  private get sql() {
    return this.database();
  }

  private get landed(): number {
    if (this.landedId === undefined) {
      this.landedId = this.mark.read();
      const ids = this.idsAtOpen();
      // Nothing at or below the mark is left: no removal is owed.
      if (!ids || ids.lowest > this.landedId) this.removedUpTo = this.landedId;
    }
    return this.landedId;
  }

  /** Queues a change; answers whether it is the first of a new batch (the caller arranges the flush). */
  add(change: ChargerChange): boolean {
    const first = !this.pending();
    this.removeLanded();
    this.sql.exec("INSERT INTO outbox (id, change) VALUES (max(coalesce((SELECT max(id) FROM outbox), 0), ?) + 1, ?)", this.landed, JSON.stringify(change));
    this.added++;
    this.waiting = true;
    return first;
  }

  pending(): boolean {
    this.waiting ??= (this.idsAtOpen()?.highest ?? 0) > this.landed;
    return this.waiting;
  }

  /**
   * Removes the rows D1 has, when some are still stored. The caller writes anyway (a change
   * queued, the alarm's housekeeping), so the removal rides on its commit.
   */
  removeLanded() {
    const landed = this.landed;
    if (landed <= this.removedUpTo) return;
    this.sql.exec("DELETE FROM outbox WHERE id <= ?", landed);
    this.removedUpTo = landed;
  }

  /** Sends everything queued so far; resolves once D1 has it (rejects if D1 refused it: it stays queued). */
  drain(): Promise<void> {
    const run = this.draining.then(() => this.send());
    this.draining = run.catch(() => undefined);
    return run;
  }

  private async send() {
    for (;;) {
      const rows = this.sql.exec<{ id: number; change: string }>("SELECT id, change FROM outbox WHERE id > ? ORDER BY id", this.landed).toArray();
      const before = this.added;
      if (rows.length === 0) {
        this.waiting = false;
        return;
      }
      await this.apply(rows.map((r) => JSON.parse(r.change) as ChargerChange));
      this.landedId = rows[rows.length - 1].id;
      // With no socket to keep the mark, the rows go now, in a commit of their own.
      if (!this.mark.write(this.landedId)) this.removeLanded();
      // Every row there was went in this batch: what is left was queued while it was on its way.
      this.waiting = this.added !== before;
      // Those found a batch on its way and armed no timer of their own (`add` answered false):
      // they go now, or they would wait for the offline alarm (the reconnect storm of
      // docs/testing.md "Chaos" left the last statuses of most chargers out of D1 that way).
      if (!this.waiting) return;
    }
  }
}
