import { env, runInDurableObject, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { archiveHistory } from "../../workers/jobs/housekeeping";
import { platformCtx, systemCtx } from "../../workers/services/context";
import { runRetention, type RetentionBudget } from "../../workers/services/retention/archive";
import { chargePointName } from "../../workers/ocpp/identity";
import { ChargerStore, type Sample } from "../../workers/ocpp/store";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";
import { addSessions } from "./support/sessions";

/**
 * Retention (docs/rules/settings.md "Retention"): history past the operator's retention leaves D1
 * and the charger's object for R2 as gzip-compressed NDJSON per operator, kind and local month,
 * listed and downloadable by the operator only; charge records and bills stay.
 */

/** The run's clock: 29 November 2026, noon UTC. Records before 29 October 2025 (Warsaw) and frames before 31 August 2026 go. */
const NOW = Date.UTC(2026, 10, 29, 12);
const PROBE = "retention_probe";

let admin: string;
let other: string;
let charger: Awaited<ReturnType<typeof makeCharger>>;

const all = <T>(sql: string, ...args: unknown[]) => env.DB.prepare(sql).bind(...args).all<T>().then((r) => r.results);
const run = (budget: Partial<RetentionBudget> = {}, target: Env = env) =>
  runRetention(systemCtx(target, { id: charger.operatorId, code: "0PL002" }, "test", () => NOW), { rows: 10, batches: 100, chargers: 100, ...budget });

const inCharger = <T>(work: (store: ChargerStore, sql: SqlStorage) => T) =>
  runInDurableObject(env.CHARGE_POINT.getByName(chargePointName(charger.operatorId, charger.serialNumber)), (_instance, state) =>
    work(new ChargerStore(state.storage.sql), state.storage.sql),
  );

async function gunzipLines(body: ReadableStream | ArrayBuffer): Promise<Record<string, unknown>[]> {
  const stream = body instanceof ArrayBuffer ? new Blob([body]).stream() : body;
  const text = await new Response(stream.pipeThrough(new DecompressionStream("gzip"))).text();
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every row of every finished archive of a kind, read back from R2. */
async function archived(operatorId: number, kind: string) {
  const rows = await all<{ file_key: string; month: string; rows: number }>(
    "SELECT file_key, month, rows FROM retention_archives WHERE operator_id = ? AND kind = ? AND status = 'DONE' ORDER BY id",
    operatorId,
    kind,
  );
  const lines: (Record<string, unknown> & { month: string })[] = [];
  for (const r of rows) {
    const object = await env.FILES.get(r.file_key);
    expect(object, r.file_key).not.toBeNull();
    const read = await gunzipLines(await object!.arrayBuffer());
    expect(read).toHaveLength(r.rows);
    lines.push(...read.map((l) => ({ ...l, month: r.month })));
  }
  return lines;
}

const probeIds = async (operatorId: number) =>
  (await all<{ id: number }>("SELECT id FROM operation_logs WHERE operator_id = ? AND table_name = ? ORDER BY id", operatorId, PROBE)).map((r) => r.id);

const sample = (value: number, ts: string, transactionId: number): Sample => ({
  timestamp: ts,
  measurand: "Energy.Active.Import.Register",
  context: "Sample.Periodic",
  value,
  unit: "Wh",
  transactionId,
  connectorId: 1,
  flagged: false,
});

const oldProbe: number[] = [];
const recentProbe: number[] = [];
let records: { transactions: number; charge_records: number };

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  other = await tokenFor("0DE001", "deadmin1");
  charger = await makeCharger("0PL002");
  // 25 old rows over March and April 2024 (the last one 31 March 22:30 UTC, which is 1 April in
  // Warsaw), and 3 from this month.
  const insert = (at: number) =>
    env.DB.prepare(
      "INSERT INTO operation_logs (operator_id, operator_code, table_name, module, operation_type, account, new_data, created_at) VALUES (?, '0PL002', ?, 'test', 'UPDATE', 'probe', ?, ?) RETURNING id",
    )
      .bind(charger.operatorId, PROBE, JSON.stringify({ at }), at)
      .first<{ id: number }>();
  for (let i = 0; i < 24; i++) oldProbe.push((await insert(Date.UTC(2024, 2, 1 + i, 10)))!.id);
  oldProbe.push((await insert(Date.UTC(2024, 2, 31, 22, 30)))!.id);
  for (let i = 0; i < 3; i++) recentProbe.push((await insert(Date.UTC(2026, 10, 1 + i, 10)))!.id);
  // A session of 2024 with its charge record and bill, which retention never touches.
  await addSessions(charger, [{ start: "2024-03-10T10:00:00Z", stop: "2024-03-10T11:00:00Z", meterStart: 0, meterStop: 5000 }]);
  [records] = await all<{ transactions: number; charge_records: number }>(
    "SELECT (SELECT count(*) FROM transactions WHERE point_id = ?1) AS transactions, (SELECT count(*) FROM charge_records WHERE point_id = ?1) AS charge_records",
    charger.pointId,
  );
  // The charger's own storage: 15 frames of June 2026 and 2 of last week; MeterValues of a 2024 session and of last week.
  await inCharger((store) => {
    const frame = (at: number, i: number) => ({ at, direction: "IN" as const, type: "CALL" as const, action: "MeterValues", messageId: `m${i}`, message: `[2,"m${i}","MeterValues",{}]` });
    store.appendLog([...Array.from({ length: 15 }, (_, i) => frame(Date.UTC(2026, 5, 1, 0, i), i)), frame(Date.UTC(2026, 10, 22), 100), frame(Date.UTC(2026, 10, 23), 101)]);
    for (let i = 0; i < 12; i++) store.insertSamples([sample(i * 100, `2024-05-10T10:${String(i).padStart(2, "0")}:00.000Z`, 7001)]);
    store.insertSamples([sample(5, "2026-11-22T10:00:00.000Z", 7002)]);
    // Statuses kept for the idle fee during charging: 12 of the 2024 session, 1 of last week's.
    for (let i = 0; i < 12; i++) store.addSessionStatus(7001, Date.UTC(2024, 4, 10, 10, i), i % 2 === 0 ? "SuspendedEV" : "Charging");
    store.addSessionStatus(7002, Date.UTC(2026, 10, 22, 10), "SuspendedEVSE");
  });
});

describe("retention", () => {
  it("computes nothing to archive for an operator without old history, and keeps its list empty", async () => {
    const list = await call("GET", "/system-service/retention/archive?size=100", { token: other });
    expect(list.status).toBe(200);
    expect(list.body.data.records).toEqual([]);
  });

  it("writes the archive before removing rows: a run killed after the write leaves the rows and lists nothing", async () => {
    const killedAfterWrite = {
      ...env,
      FILES: {
        put: async (...args: Parameters<R2Bucket["put"]>) => {
          await env.FILES.put(...args);
          throw new Error("killed");
        },
      },
    } as unknown as Env;
    await expect(run({}, killedAfterWrite)).rejects.toThrow("killed");
    expect(await probeIds(charger.operatorId)).toEqual([...oldProbe, ...recentProbe]);
    const writing = await all<{ status: string }>("SELECT status FROM retention_archives WHERE operator_id = ?", charger.operatorId);
    expect(writing.map((w) => w.status)).toEqual(["WRITING"]);
    const list = await call("GET", "/system-service/retention/archive?size=100", { token: admin });
    expect(list.body.data.total).toBe(0);
  });

  it("resumes within a budget: each run archives a few batches, the next continues where it stopped", async () => {
    const first = await run({ batches: 2 });
    expect(first.archives).toBe(2);
    expect(first.swept).toBe(false);
    // The batch the killed run wrote was written again under the same key, not beside it.
    const keys = await all<{ file_key: string; n: number }>("SELECT file_key, count(*) AS n FROM retention_archives WHERE operator_id = ? GROUP BY file_key HAVING n > 1", charger.operatorId);
    expect(keys).toEqual([]);
    expect((await probeIds(charger.operatorId)).length).toBeLessThan(oldProbe.length + recentProbe.length);
    let rest = await run({ batches: 3 });
    for (let i = 0; i < 20 && !rest.swept; i++) rest = await run({ batches: 3 });
    expect(rest.swept).toBe(true);
    // The killed run's archive was finished under its own key: none is left half-written.
    expect(await all("SELECT file_key FROM retention_archives WHERE operator_id = ? AND status = 'WRITING'", charger.operatorId)).toEqual([]);
  });

  it("archives old operation log rows once each, by the operator's local month, and keeps recent ones", async () => {
    expect(await probeIds(charger.operatorId)).toEqual(recentProbe);
    const lines = (await archived(charger.operatorId, "operation-log")).filter((l) => l.tableName === PROBE);
    expect(lines.map((l) => l.id).sort((a, b) => Number(a) - Number(b))).toEqual(oldProbe);
    const lastOfMarch = lines.find((l) => l.id === oldProbe[oldProbe.length - 1])!;
    expect(lastOfMarch.createdAt).toBe("2024-03-31T22:30:00.000Z");
    expect(lastOfMarch.month).toBe("2024-04");
    expect(lines.filter((l) => l.month === "2024-03")).toHaveLength(24);
    const keys = await all<{ file_key: string }>("SELECT file_key FROM retention_archives WHERE operator_id = ? AND kind = 'operation-log'", charger.operatorId);
    for (const { file_key } of keys) expect(file_key).toMatch(new RegExp(`^operators/${charger.operatorId}/archives/operation-log/\\d{4}-\\d{2}/\\d+\\.ndjson\\.gz$`));
  });

  it("archives the charger's old frames and meter samples and removes them from its object, keeping recent ones", async () => {
    const frames = (await archived(charger.operatorId, "ocpp-log")).filter((l) => l.serialNumber === charger.serialNumber);
    expect(frames).toHaveLength(15);
    expect(new Set(frames.map((f) => f.month))).toEqual(new Set(["2026-06"]));
    expect(frames[0]).toMatchObject({ direction: "IN", type: "CALL", action: "MeterValues", messageId: "m0", at: "2026-06-01T00:00:00.000Z" });
    const samples = (await archived(charger.operatorId, "meter-values")).filter((l) => l.serialNumber === charger.serialNumber);
    expect(samples).toHaveLength(12);
    expect(samples.every((s) => s.transactionId === 7001 && s.month === "2024-05")).toBe(true);
    expect((samples[0].samples as { value: number }[])[0].value).toBe(0);
    await inCharger((store, sql) => {
      expect(sql.exec<{ message_id: string }>("SELECT message_id FROM ocpp_log ORDER BY id").toArray().map((r) => r.message_id)).toEqual(["m100", "m101"]);
      expect(store.samplesOf(7001)).toEqual([]);
      expect(store.samplesOf(7002)).toHaveLength(1);
    });
  });

  it("archives the charger's old session statuses and removes them from its object, keeping recent ones", async () => {
    const statuses = (await archived(charger.operatorId, "session-statuses")).filter((l) => l.serialNumber === charger.serialNumber);
    expect(statuses).toHaveLength(12);
    expect(statuses.every((s) => s.transactionId === 7001 && s.month === "2024-05")).toBe(true);
    expect(statuses[0]).toMatchObject({ at: "2024-05-10T10:00:00.000Z", status: "SuspendedEV" });
    expect(statuses[11]).toMatchObject({ at: "2024-05-10T10:11:00.000Z", status: "Charging" });
    const keys = await all<{ file_key: string }>("SELECT file_key FROM retention_archives WHERE operator_id = ? AND kind = 'session-statuses'", charger.operatorId);
    for (const { file_key } of keys) expect(file_key).toMatch(new RegExp(`^operators/${charger.operatorId}/archives/session-statuses/2024-05/${charger.serialNumber}-\\d+\\.ndjson\\.gz$`));
    await inCharger((store) => {
      expect(store.sessionStatusesOf(7001)).toEqual([]);
      expect(store.sessionStatusesOf(7002)).toEqual([{ at: Date.UTC(2026, 10, 22, 10), status: "SuspendedEVSE" }]);
    });
  });

  it("never removes charge records, transactions or bills", async () => {
    const [after] = await all<{ transactions: number; charge_records: number }>(
      "SELECT (SELECT count(*) FROM transactions WHERE point_id = ?1) AS transactions, (SELECT count(*) FROM charge_records WHERE point_id = ?1) AS charge_records",
      charger.pointId,
    );
    expect(after).toEqual(records);
    expect(records.charge_records).toBe(1);
  });

  it("changes nothing when run again: no new archive, no row moved, the day's sweep done", async () => {
    const before = await all<{ id: number; file_key: string; rows: number }>("SELECT id, file_key, rows FROM retention_archives WHERE operator_id = ? ORDER BY id", charger.operatorId);
    const again = await run();
    expect(again).toEqual({ archives: 0, rows: 0, chargers: 0, swept: true });
    // Housekeeping's own call, for every operator, with its default budget.
    await archiveHistory(env, await platformCtx(env, "test", () => NOW), "test");
    expect(await all("SELECT id, file_key, rows FROM retention_archives WHERE operator_id = ? ORDER BY id", charger.operatorId)).toEqual(before);
    expect(await probeIds(charger.operatorId)).toEqual(recentProbe);
  });

  it("lists the operator's archives and downloads one as gzip NDJSON; another operator neither sees nor downloads them", async () => {
    const list = await call("GET", "/system-service/retention/archive?size=100&kind=operation-log", { token: admin });
    expect(list.status).toBe(200);
    const mine = list.body.data.records as { id: number; kind: string; month: string; rows: number; downloadUrl: string; fileName: string }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => a.kind === "operation-log")).toBe(true);
    const march = mine.find((a) => a.month === "2024-03")!;
    const download = await fetchAs(admin, march.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/gzip");
    expect(download.headers.get("Content-Disposition")).toContain(march.fileName);
    const lines = await gunzipLines(await download.arrayBuffer());
    expect(lines).toHaveLength(march.rows);

    const theirs = await call("GET", "/system-service/retention/archive?size=100", { token: other });
    expect((theirs.body.data.records as { id: number }[]).map((a) => a.id)).not.toContain(march.id);
    expect((await fetchAs(other, march.downloadUrl)).status).toBe(404);
    expect((await fetchAs(admin, "/system-service/retention/archive/999999999/download")).status).toBe(404);

    // An account of the operator without the settings menu is refused the list, the download and the settings.
    const clerk = await tokenWithMenus(admin, ["carrier.operationLog"]);
    expect((await call("GET", "/system-service/retention/archive", { token: clerk })).status).toBe(403);
    expect((await fetchAs(clerk, march.downloadUrl)).status).toBe(403);
    expect((await call("PUT", "/system-service/retention", { token: clerk, body: { recordsMonths: 24, framesDays: 30 } })).status).toBe(403);
  });

  it("refuses a bad list query and a bad retention with the request's language, and saves a good one", async () => {
    expect((await call("GET", "/system-service/retention/archive?kind=everything", { token: admin })).status).toBe(400);
    const refused = await call("PUT", "/system-service/retention?lang=de", { token: admin, body: { recordsMonths: 0, framesDays: 3 } });
    expect(refused.status).toBe(400);
    expect(refused.body.data.fields).toEqual({ recordsMonths: "Geben Sie ganze Monate von 1 bis 120 ein", framesDays: "Geben Sie ganze Tage von 7 bis 365 ein" });
    expect((await call("PUT", "/system-service/retention", { token: admin, body: { recordsMonths: 24, framesDays: 30, extra: 1 } })).status).toBe(400);
    expect((await call("GET", "/system-service/retention", { token: admin })).body.data).toEqual({ recordsMonths: 13, framesDays: 90 });
    const saved = await call("PUT", "/system-service/retention", { token: admin, body: { recordsMonths: 24, framesDays: 30 } });
    expect(saved.status).toBe(200);
    expect((await call("GET", "/system-service/retention", { token: admin })).body.data).toEqual({ recordsMonths: 24, framesDays: 30 });
    // The parameter-settings document keeps its other items.
    expect((await call("GET", "/system-service/parameter-settings", { token: admin })).body.data.timeZone).toBe("Europe/Warsaw");
  });

  it("pages the archive list on the server: 100 and then the rest of 130", async () => {
    const [{ id: operatorId }] = await all<{ id: number }>("SELECT id FROM operators WHERE code = '0DE001'");
    for (let i = 0; i < 130; i += 10) {
      const values = Array.from({ length: 10 }, (_, j) => `(${operatorId}, 'ocpp-log', '2025-0${1 + ((i + j) % 9)}', 'SN', 'operators/${operatorId}/archives/ocpp-log/x/${i + j}.ndjson.gz', 1, 10, 0, 0, 'DONE')`);
      await env.DB.prepare(`INSERT INTO retention_archives (operator_id, kind, month, source, file_key, rows, bytes, first_at, last_at, status) VALUES ${values.join(", ")}`).run();
    }
    const first = await call("GET", "/system-service/retention/archive?size=100&current=1", { token: other });
    const second = await call("GET", "/system-service/retention/archive?size=100&current=2", { token: other });
    expect(first.body.data.total).toBe(130);
    expect(first.body.data.records).toHaveLength(100);
    expect(second.body.data.records).toHaveLength(30);
    const ids = [...first.body.data.records, ...second.body.data.records].map((r: { id: number }) => r.id);
    expect(new Set(ids).size).toBe(130);
    expect(first.body.data.records[0].month).toBe("2025-09");
    expect((await call("GET", "/system-service/retention/archive?size=101", { token: other })).status).toBe(400);
  });
});

function fetchAs(token: string, path: string) {
  return SELF.fetch(`${ORIGIN}${path}`, { headers: { Authorization: `Bearer ${token}` } });
}
