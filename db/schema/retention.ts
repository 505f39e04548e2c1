import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ARCHIVE_KINDS } from "../../domain/retention";
import { operators, tenantColumns, timestamps } from "./tenancy";

/**
 * One archive object in R2: a batch of an operator's history of one kind and local month, written
 * as gzip-compressed NDJSON before its rows were removed (docs/rules/settings.md "Retention").
 * `WRITING` until its rows are gone from D1 or the charger's object; a run killed in between
 * writes the same key again (the batch is chosen the same way), so re-running never adds a copy.
 */
export const retentionArchives = sqliteTable(
  "retention_archives",
  {
    ...tenantColumns(),
    kind: text("kind", { enum: ARCHIVE_KINDS }).notNull(),
    /** The operator's local month of the rows, `yyyy-MM`. */
    month: text("month").notNull(),
    /** Where the rows came from: a charger's serial number, or empty for D1's own tables. */
    source: text("source").notNull().default(""),
    fileKey: text("file_key").notNull(),
    rows: integer("rows").notNull(),
    bytes: integer("bytes").notNull().default(0),
    firstAt: integer("first_at", { mode: "timestamp_ms" }).notNull(),
    lastAt: integer("last_at", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: ["WRITING", "DONE"] }).notNull().default("WRITING"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("retention_archives_key_uq").on(t.fileKey),
    // The console's list of one operator's archives, newest month first, by kind.
    index("retention_archives_operator_month_idx").on(t.operatorId, t.status, t.month, t.kind),
  ],
);

/**
 * Where an operator's sweep of its chargers' objects stands: the last point swept, and the local
 * day the last full sweep began. A killed run continues after `pointCursor` at the next cron.
 */
export const retentionProgress = sqliteTable("retention_progress", {
  operatorId: integer("operator_id").primaryKey().references(() => operators.id),
  pointCursor: integer("point_cursor").notNull().default(0),
  /** The local day (`yyyy-MM-dd`) of the sweep in progress or last finished; a new day starts a new sweep. */
  sweepDay: text("sweep_day"),
  sweptAt: integer("swept_at", { mode: "timestamp_ms" }),
  updatedAt: timestamps.updatedAt(),
});
