import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { backfillRecordCountsOf } from "../../workers/jobs/housekeeping";
import { backfillRecordCounts, recordCountGaps } from "../../workers/services/charge-records/backfill";
import { platformCtx, systemCtx } from "../../workers/services/context";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { addSessions } from "./support/sessions";

/**
 * The daily record counts recounted by housekeeping for records made before the counts existed
 * (docs/decisions/0069-daily-record-counts-backfilled-by-housekeeping.md, docs/rules/records.md "Fast at scale").
 */
let admin: string;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
});

const all = <T>(sql: string, ...args: unknown[]) => env.DB.prepare(sql).bind(...args).all<T>().then((r) => r.results);
const total = async () => (await call("GET", "/station-service/charge/record?size=10", { token: admin })).body.data.total as number;
const records = async (operatorId: number) => (await all<{ n: number }>("SELECT count(*) AS n FROM charge_records WHERE operator_id = ?", operatorId))[0].n;
const counts = (operatorId: number) =>
  all<{ day: string; point_id: number; records: number }>(
    "SELECT day, point_id, records FROM daily_charge_totals WHERE operator_id = ? AND records > 0 ORDER BY day, point_id",
    operatorId,
  );

describe("daily record counts backfilled by housekeeping", () => {
  it("recounts records that have no daily counts, by local start day and point, once however often it runs", async () => {
    const [a, b] = [await makeCharger("0PL002"), await makeCharger("0PL002")];
    // Months apart (several windows), across a local midnight (23:30 UTC on 30 March is 31 March in Warsaw) and the spring DST change.
    await addSessions(a, [{ start: "2024-01-10T10:00:00Z" }, { start: "2024-03-30T23:30:00Z" }, { start: "2024-03-31T01:30:00Z", stop: "2024-03-31T02:30:00Z", meterStop: 1000, bill: true }]);
    await addSessions(b, [{ start: "2024-03-31T08:00:00Z" }, { start: "2024-07-01T12:00:00Z" }]);
    const operatorId = a.operatorId;
    expect(await total()).toBe(await records(operatorId));
    const kept = await counts(operatorId);
    expect(kept.filter((c) => c.point_id === a.pointId)).toEqual([
      { day: "2024-01-10", point_id: a.pointId, records: 1 },
      { day: "2024-03-31", point_id: a.pointId, records: 2 },
    ]);

    // A database migrated from before the counts: billed days kept their totals with no record
    // count, days of records never billed had no row at all.
    await env.DB.prepare("DELETE FROM daily_charge_totals WHERE operator_id = ? AND sessions = 0").bind(operatorId).run();
    await env.DB.prepare("UPDATE daily_charge_totals SET records = 0 WHERE operator_id = ?").bind(operatorId).run();
    expect(await total()).toBe(0);
    const platform = await platformCtx(env, "test");
    expect((await recordCountGaps(platform)).map((o) => o.id)).toContain(operatorId);

    await backfillRecordCountsOf(env, platform, "test");
    expect(await total()).toBe(await records(operatorId));
    expect(await counts(operatorId)).toEqual(kept);
    // The billed day kept its session beside the recount.
    expect((await all<{ sessions: number }>("SELECT sessions FROM daily_charge_totals WHERE point_id = ? AND day = '2024-03-31'", a.pointId))[0].sessions).toBe(1);

    // Nothing left to do: no gap, no window recounted, the counts unchanged.
    expect((await recordCountGaps(platform)).map((o) => o.id)).not.toContain(operatorId);
    const ctx = systemCtx(env, { id: operatorId, code: "0PL002" }, "test");
    expect(await backfillRecordCounts(ctx)).toBe(0);
    expect(await counts(operatorId)).toEqual(kept);
  });

  it("recounts only the windows whose counts differ, and a count off in either direction", async () => {
    const made = await makeCharger("0PL002");
    await addSessions(made, [{ start: "2023-02-01T10:00:00Z" }, { start: "2023-06-01T10:00:00Z" }]);
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test");
    expect(await backfillRecordCounts(ctx)).toBe(0);
    const kept = await counts(made.operatorId);
    // One month's window short of a record, a later one with a count too many: two windows recounted, none between.
    await env.DB.prepare("UPDATE daily_charge_totals SET records = 0 WHERE point_id = ? AND day = '2023-02-01'").bind(made.pointId).run();
    await env.DB.prepare("UPDATE daily_charge_totals SET records = 5 WHERE point_id = ? AND day = '2023-06-01'").bind(made.pointId).run();
    expect(await backfillRecordCounts(ctx)).toBe(2);
    expect(await counts(made.operatorId)).toEqual(kept);
    expect(await total()).toBe(await records(made.operatorId));
  });
});
