import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ChargerStore, LOG_RETENTION_MS, LOG_RETENTION_ROWS, type Sample } from "../../workers/ocpp/store";
import { ChargerOutbox, type LandedMark } from "../../workers/ocpp/outbox";
import type { ChargerChange } from "../../workers/services/ocpp/charger-changes";

/**
 * A charger's own SQLite (docs/rules/ocpp.md "Hot path"): one row per MeterValues, the schema made
 * once per object, the log cut to its retention by its rowid alone.
 */
let n = 0;
const inCharger = <T>(work: (sql: SqlStorage) => T) =>
  runInDurableObject(env.CHARGE_POINT.getByName(`store-test-${Date.now()}-${n++}`), (_instance, state) => work(state.storage.sql));

const register = (value: number, ts: string, extra: Partial<Sample> = {}): Sample => ({
  timestamp: ts,
  measurand: "Energy.Active.Import.Register",
  context: "Sample.Periodic",
  value,
  unit: "Wh",
  transactionId: 7,
  connectorId: 1,
  flagged: false,
  ...extra,
});

const online = (at: number): ChargerChange => ({ kind: "online", online: true, at });
const landNothing = async () => undefined;
/** An outbox on a store, as the charger's object makes it. */
const outboxOf = (store: ChargerStore, apply: (changes: ChargerChange[]) => Promise<void>, mark: LandedMark) =>
  new ChargerOutbox(
    () => store.database(),
    apply,
    () => store.outboxIds(),
    mark,
  );
const outboxRows = (sql: SqlStorage) => [...sql.exec<{ id: number }>("SELECT id FROM outbox ORDER BY id")].map(({ id }) => id);

/** The outbox's mark as a socket keeps it (workers/ocpp/charge-point.ts): `socket` false is a charger with none. */
function socketMark(kept = 0, socket = true) {
  const mark = {
    kept,
    read: () => mark.kept,
    write: (id: number) => {
      if (socket) mark.kept = id;
      return socket;
    },
  };
  return mark;
}

describe("a charger's own storage", () => {
  it("stores a MeterValues as one row and reads a transaction's samples back in order, across rows", async () => {
    await inCharger((sql) => {
      const store = new ChargerStore(sql);
      store.insertSamples([register(100, "2026-11-24T10:00:00Z"), register(230, "2026-11-24T10:00:00Z", { measurand: "Voltage", unit: "V", phase: "L1" })]);
      store.insertSamples([register(150, "2026-11-24T10:01:00Z")]);
      store.insertSamples([register(999, "2026-11-24T10:01:00Z", { transactionId: 8 })]);
      expect(sql.exec("SELECT count(*) AS n FROM meter_values WHERE transaction_id = 7").one().n).toBe(2);
      expect(store.samplesOf(7)).toEqual([
        { ts: "2026-11-24T10:00:00Z", measurand: "Energy.Active.Import.Register", phase: null, value: 100, unit: "Wh", context: "Sample.Periodic", flagged: 0 },
        { ts: "2026-11-24T10:00:00Z", measurand: "Voltage", phase: "L1", value: 230, unit: "V", context: "Sample.Periodic", flagged: 0 },
        { ts: "2026-11-24T10:01:00Z", measurand: "Energy.Active.Import.Register", phase: null, value: 150, unit: "Wh", context: "Sample.Periodic", flagged: 0 },
      ]);
      // A limit may end inside a row.
      expect(store.samplesOf(7, 2).map((s) => s.value)).toEqual([100, 230]);
    });
  });

  it("finds a transaction's last good register from the newest row back, past a flagged one", async () => {
    await inCharger((sql) => {
      const store = new ChargerStore(sql);
      expect(store.lastEnergyWh(7)).toBeUndefined();
      store.insertSamples([register(100, "2026-11-24T10:00:00Z"), register(120, "2026-11-24T10:00:30Z")]);
      store.insertSamples([register(90, "2026-11-24T10:01:00Z", { flagged: true })]);
      store.insertSamples([register(5, "2026-11-24T10:01:00Z", { measurand: "SoC", unit: "Percent" })]);
      expect(store.lastEnergyWh(7)).toBe(120);
      expect(store.samplesOf(7).find((s) => s.value === 90)?.flagged).toBe(1);
    });
  });

  it("brings a charger stored one row per sample up to date, every sample kept in order, once", async () => {
    await inCharger((sql) => {
      // What an object made before this schema holds (the object makes its schema at its first use).
      new ChargerStore(sql).database();
      sql.exec("DROP TABLE meter_values");
      sql.exec("DELETE FROM kv");
      sql.exec(`CREATE TABLE meter_samples (
        id INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id INTEGER, connector_id INTEGER NOT NULL,
        ts TEXT NOT NULL, measurand TEXT NOT NULL, phase TEXT, location TEXT, context TEXT NOT NULL,
        value REAL NOT NULL, unit TEXT NOT NULL, flagged INTEGER NOT NULL DEFAULT 0)`);
      sql.exec("CREATE INDEX ocpp_log_at ON ocpp_log (at)");
      const old = "INSERT INTO meter_samples (transaction_id, connector_id, ts, measurand, phase, context, value, unit, flagged) VALUES (?, 1, ?, ?, ?, 'Sample.Periodic', ?, ?, ?)";
      sql.exec(old, 7, "2026-11-24T10:00:00Z", "Energy.Active.Import.Register", null, 100, "Wh", 0);
      sql.exec(old, 7, "2026-11-24T10:00:00Z", "Current.Import", "L2", 16, "A", 0);
      sql.exec(old, 7, "2026-11-24T10:01:00Z", "Energy.Active.Import.Register", null, 80, "Wh", 1);

      const store = new ChargerStore(sql);
      expect(store.samplesOf(7).map((s) => [s.measurand, s.phase, s.value, s.flagged])).toEqual([
        ["Energy.Active.Import.Register", null, 100, 0],
        ["Current.Import", "L2", 16, 0],
        ["Energy.Active.Import.Register", null, 80, 1],
      ]);
      expect(store.lastEnergyWh(7)).toBe(100);
      const tables = sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name IN ('meter_samples', 'ocpp_log_at', 'meter_values_tx')").toArray();
      expect(tables).toEqual([]);
      // The next wake-up finds the schema current and changes nothing.
      store.insertSamples([register(130, "2026-11-24T10:02:00Z")]);
      expect(new ChargerStore(sql).samplesOf(7)).toHaveLength(4);
    });
  });

  it("keeps each transaction's MeterValues in a range of ids of its own, with no index, rows of no transaction or of a charger's own id apart", async () => {
    await inCharger((sql) => {
      const store = new ChargerStore(sql);
      const at = (minute: number) => `2026-11-24T10:0${minute}:00Z`;
      // Interleaved as a charger with two connectors and a stray reading sends them.
      for (const minute of [0, 1, 2]) {
        store.insertSamples([register(100 + minute, at(minute))]);
        store.insertSamples([register(500 + minute, at(minute), { transactionId: 8, connectorId: 2 })]);
        store.insertSamples([register(900 + minute, at(minute), { transactionId: null })]);
        store.insertSamples([register(700 + minute, at(minute), { transactionId: 2 ** 31 })]);
        store.insertSamples([register(300 + minute, at(minute), { transactionId: -3 })]);
      }
      expect(store.samplesOf(7).map((s) => s.value)).toEqual([100, 101, 102]);
      expect(store.samplesOf(8).map((s) => s.value)).toEqual([500, 501, 502]);
      expect(store.samplesOf(2 ** 31).map((s) => s.value)).toEqual([700, 701, 702]);
      expect(store.samplesOf(-3).map((s) => s.value)).toEqual([300, 301, 302]);
      expect(store.lastEnergyWh(8)).toBe(502);
      const ranges = sql.exec<{ range: number; n: number }>("SELECT id >> 32 AS range, count(*) AS n FROM meter_values GROUP BY range ORDER BY range").toArray();
      expect(ranges).toEqual([
        { range: 0, n: 9 },
        { range: 7, n: 3 },
        { range: 8, n: 3 },
      ]);
      expect(sql.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'meter_values'").toArray()).toEqual([]);
    });
  });

  it("moves the MeterValues of an object stored with an index on transactions into their ranges, in order, once", async () => {
    await inCharger((sql) => {
      // What an object of schema version 2 holds: ids in the order stored, an index beside them.
      new ChargerStore(sql).database();
      sql.exec("DROP TABLE meter_values");
      sql.exec("CREATE TABLE meter_values (id INTEGER PRIMARY KEY, transaction_id INTEGER, connector_id INTEGER NOT NULL, samples TEXT NOT NULL)");
      sql.exec("CREATE INDEX meter_values_tx ON meter_values (transaction_id, id)");
      const packed = (value: number) => JSON.stringify([{ ts: "2026-11-24T10:00:00Z", measurand: "Energy.Active.Import.Register", context: "Sample.Periodic", value, unit: "Wh" }]);
      for (const [transactionId, value] of [[7, 100], [8, 500], [null, 900], [7, 110], [8, 510], [7, 120]] as const) {
        sql.exec("INSERT INTO meter_values (transaction_id, connector_id, samples) VALUES (?, 1, ?)", transactionId, packed(value));
      }
      sql.exec("UPDATE kv SET value = '2' WHERE key = 'schema'");

      const store = new ChargerStore(sql);
      expect(store.samplesOf(7).map((s) => s.value)).toEqual([100, 110, 120]);
      expect(store.samplesOf(8).map((s) => s.value)).toEqual([500, 510]);
      expect(sql.exec("SELECT count(*) AS n FROM meter_values WHERE transaction_id IS NULL AND id >> 32 = 0").one().n).toBe(1);
      expect(sql.exec("SELECT name FROM sqlite_master WHERE name IN ('meter_values_tx', 'meter_values_ranged')").toArray()).toEqual([]);
      // New rows follow the moved ones; the next wake-up finds the schema current and moves nothing.
      store.insertSamples([register(130, "2026-11-24T10:02:00Z")]);
      expect(new ChargerStore(sql).samplesOf(7).map((s) => s.value)).toEqual([100, 110, 120, 130]);
      expect(store.lastEnergyWh(7)).toBe(130);
    });
  });

  it("keeps what it was given under a key across a wake-up", async () => {
    await inCharger((sql) => {
      const store = new ChargerStore(sql);
      store.put("connection", "abc");
      store.put("connection", "def");
      expect(store.get("connection")).toBe("def");
      expect(new ChargerStore(sql).get("connection")).toBe("def");
      expect(new ChargerStore(sql).get("missing")).toBeUndefined();
    });
  });

  it("tells the ids of the outbox's rows when storage was opened, from the statement that reads kv", async () => {
    await inCharger((sql) => {
      new ChargerStore(sql).put("state", { a: 1 });
      expect(new ChargerStore(sql).outboxIds()).toBeUndefined();
      sql.exec("INSERT INTO outbox (id, change) VALUES (4, '{}'), (9, '{}')");
      const opened = new ChargerStore(sql);
      expect(opened.outboxIds()).toEqual({ lowest: 4, highest: 9 });
      // The marker is not a stored key.
      expect(opened.get("#outbox")).toBeUndefined();
      expect(opened.get("state")).toEqual({ a: 1 });
    });
  });

  it("sends the changes queued while a batch was on its way in the next batch of the same drain, in order, and knows when none wait", async () => {
    await inCharger(async (sql) => {
      const store = new ChargerStore(sql);
      const batches: ChargerChange[][] = [];
      const landings: (() => void)[] = [];
      const outbox = outboxOf(store, (changes) => (batches.push(changes), new Promise<void>((resolve) => landings.push(resolve))), socketMark());
      outbox.add(online(1));
      outbox.add(online(2));
      const drained = outbox.drain();
      await Promise.resolve();
      // Queued while the first batch is on its way: it armed no timer, so the same drain sends it
      // right after the first lands (docs/rules/ocpp.md "Hot path").
      outbox.add(online(3));
      expect(outbox.pending()).toBe(true);
      landings.shift()!();
      await vi.waitFor(() => expect(batches).toHaveLength(2));
      landings.shift()!();
      await drained;
      expect(batches).toEqual([[online(1), online(2)], [online(3)]]);
      expect(outbox.pending()).toBe(false);
    });
  });

  it("marks what D1 has with the socket and removes it with the next change queued, in that change's commit", async () => {
    await inCharger(async (sql) => {
      const store = new ChargerStore(sql);
      const mark = socketMark();
      const outbox = outboxOf(store, landNothing, mark);
      outbox.add(online(1));
      outbox.add(online(2));
      await outbox.drain();
      // Landed: marked, not removed in a commit of its own.
      expect(mark.kept).toBe(2);
      expect(outboxRows(sql)).toEqual([1, 2]);
      expect(outbox.pending()).toBe(false);
      outbox.add(online(3));
      expect(outboxRows(sql)).toEqual([3]);
      // The alarm's housekeeping removes them too.
      await outbox.drain();
      expect(outboxRows(sql)).toEqual([3]);
      outbox.removeLanded();
      expect(outboxRows(sql)).toEqual([]);
      // An empty table does not give a row an id the mark covers.
      outbox.add(online(4));
      expect(outboxRows(sql)).toEqual([4]);
    });
  });

  it("after a wake-up sends nothing the socket's mark says D1 has, and sends it once more when the mark was lost", async () => {
    await inCharger(async (sql) => {
      const first = new ChargerStore(sql);
      const mark = socketMark();
      const before = outboxOf(first, landNothing, mark);
      before.add(online(1));
      before.add(online(2));
      await before.drain();
      before.add(online(3));
      // The object is made again: the socket kept the mark, the row of online(3) was never sent.
      const woken = new ChargerStore(sql);
      const sent: ChargerChange[][] = [];
      const after = outboxOf(woken, async (changes) => void sent.push(changes), socketMark(mark.kept));
      expect(after.pending()).toBe(true);
      await after.drain();
      expect(sent).toEqual([[online(3)]]);
      // The process restarted: no socket keeps a mark, so what was landed goes again, in order, then leaves.
      const restarted = new ChargerStore(sql);
      const again: ChargerChange[][] = [];
      const lost = outboxOf(restarted, async (changes) => void again.push(changes), socketMark(0, false));
      expect(lost.pending()).toBe(true);
      await lost.drain();
      expect(again).toEqual([[online(3)]]);
      expect(outboxRows(sql)).toEqual([]);
    });
  });

  it("removes what D1 has at once when no socket can keep the mark", async () => {
    await inCharger(async (sql) => {
      const store = new ChargerStore(sql);
      const outbox = outboxOf(store, landNothing, socketMark(0, false));
      outbox.add(online(1));
      await outbox.drain();
      expect(outboxRows(sql)).toEqual([]);
      expect(outbox.pending()).toBe(false);
    });
  });

  it("makes a table an older object lacks before it reads, keeping what it stored", async () => {
    await inCharger((sql) => {
      new ChargerStore(sql).put("identity", { pointId: 9 });
      sql.exec("DROP TABLE outbox");
      const opened = new ChargerStore(sql);
      expect(opened.get("identity")).toEqual({ pointId: 9 });
      expect(opened.outboxIds()).toBeUndefined();
      expect(sql.exec("SELECT count(*) AS n FROM outbox").one().n).toBe(0);
    });
  });

  it("cuts the log to its last LOG_RETENTION_ROWS frames and to those younger than LOG_RETENTION_MS", async () => {
    await inCharger((sql) => {
      const store = new ChargerStore(sql);
      const now = Date.UTC(2026, 10, 24);
      const entry = (at: number) => ({ at, direction: "IN" as const, type: "CALL" as const, action: "Heartbeat", messageId: "m", message: "[]" });
      store.appendLog([entry(now - LOG_RETENTION_MS - 2), entry(now - LOG_RETENTION_MS - 1), entry(now - LOG_RETENTION_MS), entry(now)]);
      store.pruneLog(now);
      expect(sql.exec<{ at: number }>("SELECT at FROM ocpp_log ORDER BY id").toArray().map((r) => r.at)).toEqual([now - LOG_RETENTION_MS, now]);

      sql.exec(
        `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)
         INSERT INTO ocpp_log (at, direction, type, action, message_id, message) SELECT ?, 'IN', 'CALL', 'Heartbeat', 'm', '[]' FROM c`,
        LOG_RETENTION_ROWS + 3,
        now,
      );
      const newest = sql.exec<{ id: number }>("SELECT MAX(id) AS id FROM ocpp_log").one().id;
      store.pruneLog(now);
      const kept = sql.exec<{ n: number; first: number }>("SELECT count(*) AS n, MIN(id) AS first FROM ocpp_log").one();
      expect(kept).toEqual({ n: LOG_RETENTION_ROWS, first: newest - LOG_RETENTION_ROWS + 1 });
    });
  });
});
