import { count, desc, eq } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { retentionArchives } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { archiveListQuery } from "../../../domain/retention";
import { owned } from "../../../tenants/scope";
import { verb } from "../verb";
import { RETENTION_MENU } from "./settings";

/**
 * The operator's archives in the console (docs/rules/settings.md "Retention"): listed newest month
 * first, paged on the server, and downloaded as the gzip-compressed NDJSON they were written as;
 * only the operator's own, and only those whose rows have left D1 or the charger.
 */
type Row = typeof retentionArchives.$inferSelect;
const present = (r: Row) => ({
  id: r.id,
  kind: r.kind,
  month: r.month,
  source: r.source || null,
  rows: r.rows,
  bytes: r.bytes,
  firstAt: r.firstAt.toISOString(),
  lastAt: r.lastAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  fileName: fileNameOf(r),
  downloadUrl: `/system-service/retention/archive/${r.id}/download`,
});

/** `operation-log-2025-01-1234.ndjson.gz`: kind, month and the key's own part. */
const fileNameOf = (r: Row) => `${r.kind}-${r.month}-${r.fileKey.split("/").pop()}`;

export const listArchives = verb({ menu: RETENTION_MENU }, async (ctx, raw: unknown) => {
  const q = archiveListQuery.parse(raw);
  const where = owned(
    ctx,
    retentionArchives,
    eq(retentionArchives.status, "DONE"),
    q.kind ? eq(retentionArchives.kind, q.kind) : undefined,
    q.month ? eq(retentionArchives.month, q.month) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select()
          .from(retentionArchives)
          .where(where)
          .orderBy(desc(retentionArchives.month), retentionArchives.kind, retentionArchives.source, retentionArchives.firstAt, retentionArchives.id)
          .limit(limit)
          .offset(offset)
      ).map(present),
    async () => (await ctx.db.select({ total: count() }).from(retentionArchives).where(where))[0].total,
  );
});

/** An archive's bytes; another operator's id, one not yet done, or one gone from R2 is 404. */
export const downloadArchive = verb({ menu: RETENTION_MENU }, async (ctx, id: number) => {
  const [row] = await ctx.db
    .select()
    .from(retentionArchives)
    .where(owned(ctx, retentionArchives, eq(retentionArchives.id, id), eq(retentionArchives.status, "DONE")))
    .limit(1);
  if (!row) throw new NotFound("retention.errors.archiveNotFound");
  const object = await ctx.env.FILES.get(row.fileKey);
  if (!object) throw new NotFound("retention.errors.archiveNotFound");
  return { name: fileNameOf(row), body: object.body };
});
