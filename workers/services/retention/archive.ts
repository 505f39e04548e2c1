import { asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { batchOf } from "../../../db/statements";
import { operationLogs, operators, points, retentionArchives, retentionProgress } from "../../../db/schema";
import { archiveKey, byLocalMonth, framesCutoff, ndjson, recordsCutoff, type ArchiveKind } from "../../../domain/retention";
import { dayKey, localDate } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { SystemCtx } from "../context";
import { chargePointName } from "../../ocpp/identity";
import { verb } from "../verb";
import { retentionOf } from "./settings";

/**
 * Retention (docs/rules/settings.md "Retention"): history past the operator's retention leaves D1
 * and the chargers' objects for R2, as gzip-compressed NDJSON under the operator, by kind and
 * local month, in batches. Each batch is written to R2 before its rows are removed, under a key
 * named after its first row, so a run killed between the two writes the same object again instead
 * of a second one; its archive row is listed once the batch is done. Charge records, transactions
 * and bills are never touched.
 */

/** Rows per archive object: one D1 read and one R2 write, well inside a Worker's memory. */
export const ARCHIVE_BATCH_ROWS = 1000;
/** Archive objects one operator writes per cron run; the rest waits for the next run (every 15 minutes). */
export const ARCHIVE_BATCHES_PER_RUN = 40;
/** Chargers' objects one operator's sweep visits per cron run; the sweep goes on at the next run from its cursor. */
export const CHARGERS_PER_RUN = 100;

export interface RetentionBudget {
  rows: number;
  batches: number;
  chargers: number;
}
export const DEFAULT_BUDGET: RetentionBudget = { rows: ARCHIVE_BATCH_ROWS, batches: ARCHIVE_BATCHES_PER_RUN, chargers: CHARGERS_PER_RUN };

/** What one run did for one operator. */
export interface RetentionRun {
  archives: number;
  rows: number;
  chargers: number;
  /** Whether the chargers' sweep of the operator's local day is complete. */
  swept: boolean;
}

/** Every operator, for housekeeping to run each one's retention in its own context. */
export const retentionOperators = verb({ actors: ["system"] }, async (ctx) => {
  return ctx.db.select({ id: operators.id, code: operators.code }).from(operators).orderBy(asc(operators.id));
});

/** Text compressed with gzip by the runtime's CompressionStream. */
export async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

interface Part<T> {
  kind: ArchiveKind;
  month: string;
  source: string;
  rows: T[];
  at: (row: T) => number;
  id: (row: T) => number;
  line: (row: T) => unknown;
}

/**
 * Writes one part to R2 with its archive row (WRITING until `finish` runs). Written again for the
 * same rows, it replaces the same object and updates the same row.
 */
async function writePart<T>(ctx: SystemCtx, part: Part<T>) {
  const first = part.rows[0];
  const key = archiveKey(ctx.operator.id, part.kind, part.month, part.source ? `${part.source}-${part.id(first)}` : String(part.id(first)));
  const body = await gzip(ndjson(part.rows.map(part.line)));
  const times = part.rows.map(part.at);
  const values = {
    kind: part.kind,
    month: part.month,
    source: part.source,
    fileKey: key,
    rows: part.rows.length,
    bytes: body.byteLength,
    firstAt: new Date(Math.min(...times)),
    lastAt: new Date(Math.max(...times)),
    status: "WRITING" as const,
    updatedAt: new Date(ctx.now()),
  };
  await ctx.db
    .insert(retentionArchives)
    .values(ownedRow(ctx, values))
    .onConflictDoUpdate({ target: retentionArchives.fileKey, set: values });
  await ctx.env.FILES.put(key, body, {
    httpMetadata: { contentType: "application/gzip" },
    customMetadata: { kind: part.kind, month: part.month, rows: String(part.rows.length) },
  });
  return { key, rows: part.rows.length, bytes: body.byteLength };
}

const done = (ctx: SystemCtx, key: string) =>
  ctx.db
    .update(retentionArchives)
    .set({ status: "DONE", updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, retentionArchives, eq(retentionArchives.fileKey, key)));

/**
 * One batch of the operation log older than the cut-off, within one local month, oldest first:
 * archived, then removed in one D1 batch with the archive marked done and the log row saying so.
 * Answers the rows archived (0: nothing left).
 */
async function operationLogBatch(ctx: SystemCtx, before: Date, timeZone: string, limit: number): Promise<number> {
  const rows = await ctx.db
    .select()
    .from(operationLogs)
    .where(owned(ctx, operationLogs, lt(operationLogs.createdAt, before)))
    .orderBy(asc(operationLogs.createdAt), asc(operationLogs.id))
    .limit(limit);
  if (rows.length === 0) return 0;
  const [[month, monthRows]] = byLocalMonth(rows, (r) => r.createdAt.getTime(), timeZone);
  const written = await writePart(ctx, {
    kind: "operation-log",
    month,
    source: "",
    rows: monthRows,
    at: (r) => r.createdAt.getTime(),
    id: (r) => r.id,
    line: (r) => ({ ...r, createdAt: r.createdAt.toISOString() }),
  });
  const ids = monthRows.map((r) => r.id);
  await ctx.db.batch([
    // json_each keeps a batch of up to ARCHIVE_BATCH_ROWS ids in one bound parameter (D1 binds at most 100).
    ctx.db.delete(operationLogs).where(owned(ctx, operationLogs, inArray(operationLogs.id, sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`))),
    done(ctx, written.key),
    auditRow(ctx, { table: "operation_logs", module: "retention", type: "DELETE", newData: { archived: written.key, rows: written.rows, month } }),
  ]);
  return written.rows;
}

/** A charger's rows of one kind, one object per local month of theirs; answers the objects' keys. */
async function chargerParts<T extends { id: number; at: number }>(
  ctx: SystemCtx,
  kind: ArchiveKind,
  serialNumber: string,
  rows: readonly T[],
  timeZone: string,
  line: (row: T) => unknown,
): Promise<string[]> {
  const keys: string[] = [];
  for (const [month, monthRows] of byLocalMonth(rows, (r) => r.at, timeZone)) {
    keys.push((await writePart(ctx, { kind, month, source: serialNumber, rows: monthRows, at: (r) => r.at, id: (r) => r.id, line })).key);
  }
  return keys;
}

/**
 * One charger's frames, MeterValues rows and session statuses past their cut-offs, a batch at a
 * time: each local month of a batch is one object; the archive is marked done before the object
 * forgets the rows, so a run killed after that writes the same object again and the listing never
 * loses it.
 * Answers the rows archived, and whether the charger has more.
 */
async function chargerBatch(ctx: SystemCtx, serialNumber: string, cut: { frames: number; records: number }, timeZone: string, limit: number) {
  const charger = ctx.env.CHARGE_POINT.getByName(chargePointName(ctx.operator.id, serialNumber));
  const { frames, samples, statuses } = await charger.retentionBatch({ framesBefore: cut.frames, samplesBefore: cut.records, limit });
  if (frames.length === 0 && samples.length === 0 && statuses.length === 0) return { rows: 0, archives: 0, more: false };
  const keys = [
    ...(await chargerParts(ctx, "ocpp-log", serialNumber, frames, timeZone, (f) => ({ serialNumber, ...f, at: new Date(f.at).toISOString() }))),
    ...(await chargerParts(ctx, "meter-values", serialNumber, samples, timeZone, (s) => ({
      serialNumber,
      id: s.id,
      transactionId: s.transactionId,
      connectorId: s.connectorId,
      samples: s.samples,
    }))),
    ...(await chargerParts(ctx, "session-statuses", serialNumber, statuses, timeZone, (s) => ({
      serialNumber,
      id: s.id,
      transactionId: s.transactionId,
      at: new Date(s.at).toISOString(),
      status: s.status,
    }))),
  ];
  const archived = frames.length + samples.length + statuses.length;
  await batchOf(ctx.db, [
    ...keys.map((key) => done(ctx, key)),
    auditRow(ctx, {
      table: "charger_storage",
      module: "retention",
      type: "DELETE",
      newData: { serialNumber, frames: frames.length, meterValues: samples.length, sessionStatuses: statuses.length, archived: keys },
    }),
  ]);
  await charger.retentionForget({
    framesThrough: frames.length > 0 ? frames[frames.length - 1].id : null,
    framesBefore: cut.frames,
    sampleIds: samples.map((s) => s.id),
    statusIds: statuses.map((s) => s.id),
  });
  return { rows: archived, archives: keys.length, more: frames.length === limit || samples.length === limit || statuses.length === limit };
}

/**
 * Runs one operator's retention within a budget: its operation log first, then the sweep of its
 * chargers' objects, resumed from the progress row's cursor; a sweep runs once per local day.
 */
export const runRetention = verb({ actors: ["system"], mutates: true }, async (ctx: SystemCtx, budget: RetentionBudget = DEFAULT_BUDGET): Promise<RetentionRun> => {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const timeZone = settings.timeZone;
  const retention = retentionOf(settings.document);
  const now = ctx.now();
  const cut = { records: recordsCutoff(now, timeZone, retention.recordsMonths), frames: framesCutoff(now, timeZone, retention.framesDays) };
  const run: RetentionRun = { archives: 0, rows: 0, chargers: 0, swept: false };

  while (run.archives < budget.batches) {
    const rows = await operationLogBatch(ctx, new Date(cut.records), timeZone, budget.rows);
    if (rows === 0) break;
    run.archives += 1;
    run.rows += rows;
  }
  if (run.archives >= budget.batches) return run;

  const today = dayKey(localDate(now, timeZone));
  const [progress] = await ctx.db.select().from(retentionProgress).where(owned(ctx, retentionProgress)).limit(1);
  const fresh = !progress || progress.sweepDay !== today;
  if (!fresh && progress.sweptAt) return { ...run, swept: true };
  let cursor = fresh ? 0 : progress.pointCursor;
  const saveProgress = (values: { pointCursor: number; sweptAt: Date | null }) => {
    const row = { ...values, sweepDay: today, updatedAt: new Date(ctx.now()) };
    return ctx.db.insert(retentionProgress).values(ownedRow(ctx, row)).onConflictDoUpdate({ target: retentionProgress.operatorId, set: row });
  };
  if (fresh) await saveProgress({ pointCursor: 0, sweptAt: null });

  const chargers = await ctx.db
    .select({ id: points.id, serialNumber: points.serialNumber })
    .from(points)
    .where(owned(ctx, points, gt(points.id, cursor)))
    .orderBy(asc(points.id))
    .limit(budget.chargers + 1);
  for (const point of chargers.slice(0, budget.chargers)) {
    for (;;) {
      if (run.archives >= budget.batches) return run;
      const batch = await chargerBatch(ctx, point.serialNumber, cut, timeZone, budget.rows);
      run.archives += batch.archives;
      run.rows += batch.rows;
      if (!batch.more) break;
    }
    cursor = point.id;
    run.chargers += 1;
    await saveProgress({ pointCursor: cursor, sweptAt: null });
  }
  if (chargers.length <= budget.chargers) {
    await saveProgress({ pointCursor: 0, sweptAt: new Date(ctx.now()) });
    run.swept = true;
  }
  return run;
});
