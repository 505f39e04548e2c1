import type { MeterSample } from "../../domain/ocpp";
import { slices } from "../../domain/slices";
import type { StoredSample } from "../services/monitoring/meter-curve";
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

/** A call sent to the charger and not answered yet: what recognises its answer, even a late one. */
export interface SentCall {
  id: string;
  action: string;
  deadline: number;
}

/** A normalised meter sample as this charger stores it. */
export interface Sample extends MeterSample {
  transactionId: number | null;
  connectorId: number;
  flagged: boolean;
}

/**
 * The object's own bound on its log (docs/rules/ocpp.md "Message log"): housekeeping archives
 * frames past the operator's retention to R2 and removes them (docs/rules/settings.md
 * "Retention"); this cut only keeps one charger's storage bounded should that fall far behind, so
 * it lies past the longest retention an operator may choose (365 days) and past a busy charger's
 * 90 days of frames (about 2 900 a day with a MeterValues a minute).
 */
export const LOG_RETENTION_ROWS = 300_000;
export const LOG_RETENTION_MS = 400 * 24 * 60 * 60 * 1000;

/** A frame of the log as housekeeping archives it. */
export interface ArchivableFrame {
  id: number;
  at: number;
  direction: string;
  type: string;
  action: string | null;
  messageId: string;
  message: string;
}

/** A stored MeterValues row as housekeeping archives it; `at` is its first sample's time. */
export interface ArchivableSamples {
  id: number;
  at: number;
  transactionId: number | null;
  connectorId: number;
  /** The row's samples as stored (`PackedSample`: ts, measurand, phase, location, context, value, unit, flagged). */
  samples: Record<string, string | number>[];
}

/** A connector status kept for a session's pricing, as housekeeping archives it; `at` is the charger's time. */
export interface ArchivableStatus {
  id: number;
  transactionId: number;
  at: number;
  status: string;
}

/** A stored sample as the readers get it (the meter curve, billing): one per sample, with its context. */
export type StoredSampleRow = StoredSample & { context: string };

/** One sample inside a stored MeterValues row (`meter_values.samples`, a JSON array). */
interface PackedSample {
  ts: string;
  measurand: string;
  phase?: string;
  location?: string;
  context: string;
  value: number;
  unit: string;
  flagged?: 1;
}

/**
 * The charger's SQLite schema. It is made, or brought up to date, once per object: its version
 * is kept in `kv`, which the object reads whole when it first opens storage after a wake-up
 * anyway, so that opening runs one statement instead of a dozen (docs/performance.md "Waking
 * up"); a Heartbeat does not open it at all.
 * The hot tables' ids are plain rowids, not AUTOINCREMENT: new rows still take the largest id
 * plus one (rows leave only from the oldest), without a second write to sqlite_sequence per
 * insert. A MeterValues is one row, its samples packed as JSON, like the one row the design pays
 * for, and its id lies in its transaction's range (`meterRange`), so that no index is written
 * beside it; the log has no index but its rowid, which is also its time order.
 * Versions: 2 packed samples into `meter_values`, 3 put its rows into ranges, 4 added the
 * device model of an OCPP 2.0.1 charger (workers/ocpp/v201/device-model.ts). An upgrade runs
 * only the steps past the version it finds.
 */
const SCHEMA_VERSION = 4;
const SCHEMA_KEY = "schema";
/** Not a key of `kv`: the row the opening read adds when the outbox holds rows, its lowest and highest id. */
const OUTBOX_IDS = "#outbox";
const KV_AND_OUTBOX_IDS = `SELECT key, value FROM kv UNION ALL SELECT '${OUTBOX_IDS}', min(id) || ' ' || max(id) FROM outbox HAVING count(*) > 0`;
export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS meter_values (
    id INTEGER PRIMARY KEY, transaction_id INTEGER, connector_id INTEGER NOT NULL, samples TEXT NOT NULL);
  DROP INDEX IF EXISTS meter_values_tx;
  CREATE TABLE IF NOT EXISTS ocpp_log (
    id INTEGER PRIMARY KEY, at INTEGER NOT NULL, direction TEXT NOT NULL, type TEXT NOT NULL,
    action TEXT, message_id TEXT NOT NULL, message TEXT NOT NULL);
  DROP INDEX IF EXISTS ocpp_log_at;
  CREATE TABLE IF NOT EXISTS session_statuses (
    id INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id INTEGER NOT NULL, at INTEGER NOT NULL, status TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS session_statuses_tx ON session_statuses (transaction_id, id);
  CREATE TABLE IF NOT EXISTS pending_calls (
    id TEXT PRIMARY KEY, action TEXT NOT NULL, deadline INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'waiting');
  CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY, change TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS device_model (
    component TEXT NOT NULL COLLATE NOCASE, component_instance TEXT NOT NULL COLLATE NOCASE,
    evse_id INTEGER NOT NULL, connector_id INTEGER NOT NULL,
    variable TEXT NOT NULL COLLATE NOCASE, variable_instance TEXT NOT NULL COLLATE NOCASE,
    attributes TEXT NOT NULL, characteristics TEXT,
    PRIMARY KEY (component, evse_id, connector_id, component_instance, variable, variable_instance));
  CREATE TABLE IF NOT EXISTS device_model_parts (
    request_id INTEGER NOT NULL, seq_no INTEGER NOT NULL, at INTEGER NOT NULL, tbc INTEGER NOT NULL, report_data TEXT NOT NULL,
    PRIMARY KEY (request_id, seq_no));
`;

/** Samples stored one row each (schema version 1) move into one row each of the new table, in order. */
const SAMPLES_FROM_VERSION_1 = `
  INSERT INTO meter_values (transaction_id, connector_id, samples)
    SELECT transaction_id, connector_id, json_array(json_object(
      'ts', ts, 'measurand', measurand, 'phase', phase, 'location', location, 'context', context,
      'value', value, 'unit', unit, 'flagged', flagged))
    FROM meter_samples ORDER BY id;
  DROP TABLE meter_samples;
`;

/**
 * The ids of a transaction's MeterValues rows: 2^32 of them from the transaction id times 2^32,
 * in the order stored. A transaction's rows are then one range of the table's own key, read
 * without an index and appended without one: the index on (transaction_id, id) cost each
 * MeterValues a second page in its commit, about 10 µs (docs/performance.md "MeterValues in
 * pairs"). Rows without a transaction, and the rare transaction id outside 1..2^31 − 1 (a
 * charger's own), share range 0; readers also match `transaction_id`, so a shared range is only
 * read further. The shifts are SQLite's, on 64-bit integers.
 */
const METER_RANGES = 2 ** 31;
export const meterRange = (transactionId: number | null) =>
  transactionId !== null && Number.isSafeInteger(transactionId) && transactionId > 0 && transactionId < METER_RANGES ? transactionId : 0;
const IN_METER_RANGE = "id BETWEEN ?1 << 32 AND (?1 << 32) + 4294967295";

/** Rows stored before ranges (schema version 2 and older) move into their transaction's range, in order. */
const METER_VALUES_INTO_RANGES = `
  CREATE TABLE meter_values_ranged (
    id INTEGER PRIMARY KEY, transaction_id INTEGER, connector_id INTEGER NOT NULL, samples TEXT NOT NULL);
  INSERT INTO meter_values_ranged (id, transaction_id, connector_id, samples)
    SELECT (range << 32) + row_number() OVER (PARTITION BY range ORDER BY id), transaction_id, connector_id, samples
    FROM (SELECT *, CASE WHEN transaction_id > 0 AND transaction_id < ${METER_RANGES} THEN transaction_id ELSE 0 END AS range FROM meter_values);
  DROP TABLE meter_values;
  ALTER TABLE meter_values_ranged RENAME TO meter_values;
`;

/** The lowest and highest id of the outbox's rows. */
export interface OutboxIds {
  lowest: number;
  highest: number;
}

export class ChargerStore {
  /** The key-value rows as stored (JSON text), read once per wake-up; this object is their only writer. */
  private kv = new Map<string, string>();
  private opened: SqlStorage | undefined;
  private outboxAtOpen: OutboxIds | undefined;

  /**
   * `source`: the Durable Object's SQLite, or how to reach it. It is opened at its first use in a
   * wake-up, not when the object is made: a Heartbeat, answered from memory and the socket's
   * attachment, never opens it (docs/performance.md "A Heartbeat writes nothing").
   */
  constructor(
    private readonly source: SqlStorage | (() => SqlStorage),
    private readonly onOpen?: () => void,
  ) {}

  /** The charger's SQLite, its schema current and `kv` read, from its first use in this wake-up on. */
  private get sql(): SqlStorage {
    if (this.opened) return this.opened;
    this.opened = typeof this.source === "function" ? this.source() : this.source;
    this.kv = this.readKv();
    if (Number(this.kv.get(SCHEMA_KEY) ?? 0) < SCHEMA_VERSION) this.upgrade();
    this.onOpen?.();
    return this.opened;
  }

  /** The SQLite of this charger for a module that keeps its own table in it (the outbox). */
  database(): SqlStorage {
    return this.sql;
  }

  /**
   * `kv` whole, and in the same statement the ids of the outbox's rows (the one other thing every
   * opening asks). A table missing (a new object, or one made before the outbox) is made first.
   */
  private readKv(): Map<string, string> {
    const read = () => {
      const rows = this.sql.exec<{ key: string; value: string }>(KV_AND_OUTBOX_IDS).toArray();
      const kv = new Map(rows.map((r) => [r.key, r.value]));
      const ids = kv.get(OUTBOX_IDS)?.split(" ").map(Number);
      this.outboxAtOpen = ids && { lowest: ids[0], highest: ids[1] };
      kv.delete(OUTBOX_IDS);
      return kv;
    };
    try {
      return read();
    } catch (error) {
      if (!/no such table/i.test(String(error))) throw error;
      this.sql.exec(SCHEMA);
      return read();
    }
  }

  /** The ids of the outbox's rows when storage was opened in this wake-up, if it held any (workers/ocpp/outbox.ts). */
  outboxIds(): OutboxIds | undefined {
    this.database();
    return this.outboxAtOpen;
  }

  /** New tables come with SCHEMA; the moves of old rows run only from a version before them (a ranged table is not ranged again). */
  private upgrade() {
    const from = Number(this.kv.get(SCHEMA_KEY) ?? 0);
    this.sql.exec(SCHEMA);
    if (from < 3) {
      const oldSamples = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meter_samples'").toArray().length > 0;
      if (oldSamples) this.sql.exec(SAMPLES_FROM_VERSION_1);
      if (this.sql.exec("SELECT 1 FROM meter_values LIMIT 1").toArray().length > 0) this.sql.exec(METER_VALUES_INTO_RANGES);
    }
    this.put(SCHEMA_KEY, SCHEMA_VERSION);
  }

  get<T>(key: string): T | undefined {
    this.database();
    const value = this.kv.get(key);
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  put(key: string, value: unknown) {
    const text = JSON.stringify(value);
    this.sql.exec("INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, text);
    this.kv.set(key, text);
  }

  /**
   * The samples of one MeterValues or StopTransaction (one transaction, one connector) as one row:
   * the one write a MeterValues pays for.
   */
  insertSamples(samples: Sample[]) {
    if (samples.length === 0) return;
    const { transactionId, connectorId } = samples[0];
    const packed = samples.map(
      (s): PackedSample => ({
        ts: s.timestamp,
        measurand: s.measurand,
        ...(s.phase && { phase: s.phase }),
        ...(s.location && { location: s.location }),
        context: s.context,
        value: s.value,
        unit: s.unit,
        ...(s.flagged && { flagged: 1 as const }),
      }),
    );
    this.sql.exec(
      `INSERT INTO meter_values (id, transaction_id, connector_id, samples)
        VALUES ((SELECT coalesce(max(id), ?1 << 32) + 1 FROM meter_values WHERE ${IN_METER_RANGE}), ?2, ?3, ?4)`,
      meterRange(transactionId),
      transactionId,
      connectorId,
      JSON.stringify(packed),
    );
  }

  /** A transaction's stored MeterValues rows, newest or oldest first, read lazily (a reader may stop early). */
  private *valuesOf(transactionId: number, newestFirst: boolean): Generator<StoredSampleRow[]> {
    const cursor = this.sql.exec<{ samples: string }>(
      `SELECT samples FROM meter_values WHERE ${IN_METER_RANGE} AND transaction_id = ?2 ORDER BY id ${newestFirst ? "DESC" : "ASC"}`,
      meterRange(transactionId),
      transactionId,
    );
    for (const row of cursor) {
      yield (JSON.parse(row.samples) as PackedSample[]).map((p) => ({
        ts: p.ts,
        measurand: p.measurand,
        phase: p.phase ?? null,
        value: p.value,
        unit: p.unit,
        context: p.context,
        flagged: p.flagged ? 1 : 0,
      }));
    }
  }

  /**
   * The last energy register of a transaction (after a wake-up, memory has none): the newest
   * rows are read first and the reading stops at the first good register.
   */
  lastEnergyWh(transactionId: number): number | undefined {
    for (const samples of this.valuesOf(transactionId, true)) {
      const register = samples.findLast((s) => s.measurand === "Energy.Active.Import.Register" && s.phase === null && !s.flagged);
      if (register) return register.value;
    }
    return undefined;
  }

  samplesOf(transactionId: number, limit = 5000): StoredSampleRow[] {
    const out: StoredSampleRow[] = [];
    for (const samples of this.valuesOf(transactionId, false)) {
      out.push(...samples.slice(0, limit - out.length));
      if (out.length >= limit) break;
    }
    return out;
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

  /**
   * Session statuses reported before `before` (ms), at most `limit`, in id order: a scan of the
   * table, run by housekeeping about once a day (docs/rules/settings.md "Retention").
   */
  sessionStatusesBefore(before: number, limit: number): ArchivableStatus[] {
    return this.sql
      .exec<{ id: number; transaction_id: number; at: number; status: string }>("SELECT id, transaction_id, at, status FROM session_statuses WHERE at < ? ORDER BY id LIMIT ?", before, limit)
      .toArray()
      .map((r) => ({ id: r.id, transactionId: r.transaction_id, at: r.at, status: r.status }));
  }

  /** Removes archived session statuses by id. */
  forgetSessionStatuses(ids: readonly number[]) {
    if (ids.length > 0) this.sql.exec("DELETE FROM session_statuses WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
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
   * Keeps the log within its retention in one delete of its oldest rows, bounded by the rowid
   * (the log's only index, and its time order): whatever is past LOG_RETENTION_ROWS, and the rows
   * before the first that is younger than LOG_RETENTION_MS, found by walking from the oldest.
   * Called about once a minute, not with every write.
   */
  pruneLog(now: number) {
    this.sql.exec(
      `DELETE FROM ocpp_log WHERE id < max(
        (SELECT MAX(id) FROM ocpp_log) - ? + 1,
        coalesce((SELECT id FROM ocpp_log WHERE at >= ? ORDER BY id LIMIT 1), 0))`,
      LOG_RETENTION_ROWS,
      now - LOG_RETENTION_MS,
    );
  }

  /**
   * The oldest frames logged before `before`, at most `limit`, oldest first. The rowid is the
   * log's time order, so they are the head of the table: read without an index, stopping at the
   * first younger frame.
   */
  framesBefore(before: number, limit: number): ArchivableFrame[] {
    const out: ArchivableFrame[] = [];
    const cursor = this.sql.exec<{ id: number; at: number; direction: string; type: string; action: string | null; message_id: string; message: string }>(
      "SELECT id, at, direction, type, action, message_id, message FROM ocpp_log ORDER BY id LIMIT ?",
      limit,
    );
    for (const r of cursor) {
      if (r.at >= before) break;
      out.push({ id: r.id, at: r.at, direction: r.direction, type: r.type, action: r.action, messageId: r.message_id, message: r.message });
    }
    return out;
  }

  /** Removes archived frames: those up to `throughId` logged before `before`. */
  forgetFrames(throughId: number, before: number) {
    this.sql.exec("DELETE FROM ocpp_log WHERE id <= ? AND at < ?", throughId, before);
  }

  /**
   * Stored MeterValues rows whose first sample is older than `before` (an ISO instant: samples
   * are stored in UTC ISO form, so text order is time order), at most `limit`, in id order. A scan
   * of the table, run by housekeeping about once a day.
   */
  samplesBefore(before: string, limit: number): ArchivableSamples[] {
    return this.sql
      .exec<{ id: number; transaction_id: number | null; connector_id: number; samples: string; ts: string }>(
        "SELECT id, transaction_id, connector_id, samples, json_extract(samples, '$[0].ts') AS ts FROM meter_values WHERE json_extract(samples, '$[0].ts') < ? ORDER BY id LIMIT ?",
        before,
        limit,
      )
      .toArray()
      .map((r) => ({ id: r.id, at: Date.parse(r.ts), transactionId: r.transaction_id, connectorId: r.connector_id, samples: JSON.parse(r.samples) as Record<string, string | number>[] }));
  }

  /** Removes archived MeterValues rows by id. */
  forgetSamples(ids: readonly number[]) {
    if (ids.length > 0) this.sql.exec("DELETE FROM meter_values WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
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

  /** A call's row, written after its frame left (workers/ocpp/hot-writes.ts `sentCall`); until then its socket keeps it. */
  addPendingCall(call: SentCall) {
    this.sql.exec("INSERT OR REPLACE INTO pending_calls (id, action, deadline) VALUES (?, ?, ?)", call.id, call.action, call.deadline);
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
