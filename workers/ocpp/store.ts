import type { MeterSample } from "../../domain/ocpp";
import { slices } from "../../domain/slices";
/**
 * A charger's own storage (Durable Object SQLite): meter samples, the OCPP message log and the
 * calls awaiting an answer. D1 holds records; this holds the hot, per-charger data
 * (docs/decisions/0003-one-durable-object-per-charger.md; docs/rules/ocpp.md "Hot path"). Every
 * method is one statement or one batch.
 */
export interface LogEntry {
  at: number;
  direction: "IN" | "OUT";
  type: "CALL" | "CALLRESULT" | "CALLERROR";
  action: string | null;
  messageId: string;
  message: string;
}

/** A normalised meter sample as this charger stores it. */
export interface Sample extends MeterSample {
  transactionId: number | null;
  connectorId: number;
  flagged: boolean;
}

/** The log keeps this many frames, and none older than this (docs/rules/ocpp.md "Message log"). */
export const LOG_RETENTION_ROWS = 20_000;
export const LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export class ChargerStore {
  constructor(private readonly sql: SqlStorage) {
    // The hot tables' ids are plain rowids, not AUTOINCREMENT: new rows still take the largest
    // id plus one (retention deletes the oldest rows only), without a second write to
    // sqlite_sequence per insert (docs/performance.md "The hot path after the fleet run").
    // Tables made before this keep their AUTOINCREMENT; both read the same.
    sql.exec(`
      CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS meter_samples (
        id INTEGER PRIMARY KEY, transaction_id INTEGER, connector_id INTEGER NOT NULL,
        ts TEXT NOT NULL, measurand TEXT NOT NULL, phase TEXT, location TEXT, context TEXT NOT NULL,
        value REAL NOT NULL, unit TEXT NOT NULL, flagged INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX IF NOT EXISTS meter_samples_tx ON meter_samples (transaction_id, id);
      CREATE TABLE IF NOT EXISTS ocpp_log (
        id INTEGER PRIMARY KEY, at INTEGER NOT NULL, direction TEXT NOT NULL, type TEXT NOT NULL,
        action TEXT, message_id TEXT NOT NULL, message TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS ocpp_log_at ON ocpp_log (at);
      CREATE TABLE IF NOT EXISTS session_statuses (
        id INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id INTEGER NOT NULL, at INTEGER NOT NULL, status TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS session_statuses_tx ON session_statuses (transaction_id, id);
      CREATE TABLE IF NOT EXISTS pending_calls (
        id TEXT PRIMARY KEY, action TEXT NOT NULL, deadline INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'waiting');
    `);
  }

  get<T>(key: string): T | undefined {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM kv WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  put(key: string, value: unknown) {
    this.sql.exec("INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, JSON.stringify(value));
  }

  /**
   * All samples of one MeterValues or StopTransaction, in as few statements as the bound-parameter
   * limit of Durable Object SQLite (100) allows, inside one implicit transaction.
   */
  insertSamples(samples: Sample[]) {
    for (const slice of slices(samples, 10)) this.insertSampleSlice(slice);
  }

  private insertSampleSlice(samples: Sample[]) {
    const placeholders = samples.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ");
    const values = samples.flatMap((s) => [
      s.transactionId,
      s.connectorId,
      s.timestamp,
      s.measurand,
      s.phase ?? null,
      s.location ?? null,
      s.context,
      s.value,
      s.unit,
      s.flagged ? 1 : 0,
    ]);
    this.sql.exec(
      `INSERT INTO meter_samples (transaction_id, connector_id, ts, measurand, phase, location, context, value, unit, flagged) VALUES ${placeholders}`,
      ...values,
    );
  }

  /** The last energy register of a transaction (after a wake-up, memory has none). */
  lastEnergyWh(transactionId: number): number | undefined {
    const row = this.sql
      .exec<{ value: number }>(
        "SELECT value FROM meter_samples WHERE transaction_id = ? AND measurand = 'Energy.Active.Import.Register' AND phase IS NULL AND flagged = 0 ORDER BY id DESC LIMIT 1",
        transactionId,
      )
      .toArray()[0];
    return row?.value;
  }

  samplesOf(transactionId: number, limit = 5000) {
    return this.sql
      .exec<{ ts: string; measurand: string; phase: string | null; value: number; unit: string; context: string; flagged: number }>(
        "SELECT ts, measurand, phase, value, unit, context, flagged FROM meter_samples WHERE transaction_id = ? ORDER BY id LIMIT ?",
        transactionId,
        limit,
      )
      .toArray();
  }

  /**
   * A connector status reported while a transaction ran on it, at the charger's timestamp: the
   * idle fee during charging counts its SuspendedEV and SuspendedEVSE periods
   * (docs/rules/pricing.md "The engine", idle fees).
   */
  addSessionStatus(transactionId: number, at: number, status: string) {
    this.sql.exec("INSERT INTO session_statuses (transaction_id, at, status) VALUES (?, ?, ?)", transactionId, at, status);
  }

  sessionStatusesOf(transactionId: number, limit = 5000) {
    return this.sql
      .exec<{ at: number; status: string }>("SELECT at, status FROM session_statuses WHERE transaction_id = ? ORDER BY id LIMIT ?", transactionId, limit)
      .toArray();
  }

  appendLog(entries: LogEntry[]) {
    if (entries.length === 0) return;
    for (const slice of slices(entries, 16)) {
      const placeholders = slice.map(() => "(?, ?, ?, ?, ?, ?)").join(", ");
      this.sql.exec(
        `INSERT INTO ocpp_log (at, direction, type, action, message_id, message) VALUES ${placeholders}`,
        ...slice.flatMap((e) => [e.at, e.direction, e.type, e.action, e.messageId, e.message]),
      );
    }
  }

  /**
   * Keeps the log within its retention: two deletes, each on an index (the rowid, `at`); one with
   * OR scanned the whole log. Called about once a minute, not with every write.
   */
  pruneLog(now: number) {
    this.sql.exec("DELETE FROM ocpp_log WHERE id <= (SELECT MAX(id) FROM ocpp_log) - ?", LOG_RETENTION_ROWS);
    this.sql.exec("DELETE FROM ocpp_log WHERE at < ?", now - LOG_RETENTION_MS);
  }

  logPage(current: number, size: number, action?: string) {
    const where = action ? "WHERE action = ?" : "";
    const args = action ? [action] : [];
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ocpp_log ${where}`, ...args).one().n;
    const records = this.sql
      .exec<{ id: number; at: number; direction: string; type: string; action: string | null; message_id: string; message: string }>(
        `SELECT id, at, direction, type, action, message_id, message FROM ocpp_log ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
        ...args,
        size,
        (current - 1) * size,
      )
      .toArray();
    return { records, total };
  }

  addPendingCall(id: string, action: string, deadline: number) {
    this.sql.exec("INSERT OR REPLACE INTO pending_calls (id, action, deadline) VALUES (?, ?, ?)", id, action, deadline);
  }

  settlePendingCall(id: string) {
    return this.sql.exec<{ action: string; state: string }>("DELETE FROM pending_calls WHERE id = ? RETURNING action, state", id).toArray()[0];
  }

  /** Calls past their deadline are kept a while as timed out, so a late answer is recognised. */
  expirePendingCalls(now: number) {
    this.sql.exec("UPDATE pending_calls SET state = 'timedOut' WHERE state = 'waiting' AND deadline < ?", now);
    this.sql.exec("DELETE FROM pending_calls WHERE deadline < ?", now - 60 * 60 * 1000);
  }

  nextPendingDeadline(): number | undefined {
    return this.sql.exec<{ d: number | null }>("SELECT MIN(deadline) AS d FROM pending_calls WHERE state = 'waiting'").one().d ?? undefined;
  }
}
