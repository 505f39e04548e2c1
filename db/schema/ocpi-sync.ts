import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PULL_MODULES, PULL_STATES, TOKEN_PUSH_STATES } from "../../domain/schemas/ocpi/sync";
import { ocpiPlatforms } from "./ocpi";
import { tenantColumns } from "./tenancy";

/**
 * Keeping in step with roaming partners (docs/rules/ocpi.md "Pulls", "Token pushes"): the progress
 * of pulling each module of a partner's sender interfaces, and the delivery of each of our tokens
 * to each partner's tokens receiver.
 */

export const ocpiPulls = sqliteTable(
  "ocpi_pulls",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    module: text("module", { enum: PULL_MODULES }).notNull(),
    state: text("state", { enum: PULL_STATES }).notNull(),
    /** Pages read and objects stored by the current (or last) pull. */
    pages: integer("pages").notNull().default(0),
    objects: integer("objects").notNull().default(0),
    /** The partner's `X-Total-Count` on the last page read. */
    total: integer("total"),
    /** Objects refused by the receivers' rules, and the first reasons (`[{ id, reason }]`). */
    skipped: integer("skipped").notNull().default(0),
    problems: text("problems", { mode: "json" }).$type<{ id: string | null; reason: string }[]>().notNull().default([]),
    /** The `date_to` of the current pull: becomes `lastSuccessAt` when every page is read. */
    windowTo: integer("window_to", { mode: "timestamp_ms" }),
    /** The `date_to` of the last pull that read every page: the next pull's `date_from`. */
    lastSuccessAt: integer("last_success_at", { mode: "timestamp_ms" }),
    lastError: text("last_error"),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("ocpi_pulls_module_uq").on(t.operatorId, t.platformId, t.module)],
);

export const ocpiTokenPushes = sqliteTable(
  "ocpi_token_pushes",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    /** The token's uid as our registry writes it, and its OCPI type (kept for a deleted token). */
    uid: text("uid").notNull(),
    type: text("type", { enum: ["RFID", "APP_USER"] }).notNull(),
    state: text("state", { enum: TOKEN_PUSH_STATES }).notNull(),
    /** Attempts since the last change was queued. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When the last change was queued: a delivery settles only the change it read. */
    queuedAt: integer("queued_at", { mode: "timestamp_ms" }).notNull(),
    pushedAt: integer("pushed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("ocpi_token_pushes_token_uq").on(t.operatorId, t.platformId, t.uid),
    index("ocpi_token_pushes_operator_uid_idx").on(t.operatorId, t.uid),
    // The cron's look across operators for pushes whose message was lost.
    index("ocpi_token_pushes_state_idx").on(t.state, t.queuedAt),
  ],
);
