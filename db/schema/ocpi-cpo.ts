import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CPO_PUSH_MODULES, CPO_PUSH_STATES } from "../../domain/schemas/ocpi/cpo";
import { ocpiPlatforms } from "./ocpi";
import { tenantColumns } from "./tenancy";

/**
 * What we publish as a CPO (docs/rules/ocpi.md "CPO role"): the delivery of each published
 * object (a location, a tariff) to each registered eMSP or hub. One row per partner and object; a
 * new change makes it PENDING again, and the delivery sends the object as it is then.
 */
export const ocpiCpoPushes = sqliteTable(
  "ocpi_cpo_pushes",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    module: text("module", { enum: CPO_PUSH_MODULES }).notNull(),
    /** The OCPI object's id (a location's id is the station's, a tariff's the strategy's). */
    objectId: text("object_id").notNull(),
    /**
     * Of a location, the EVSEs whose status changed since the last delivery (PATCHed one by one);
     * null when the whole object is to be sent again (PUT): a first delivery, an edit.
     */
    evseUids: text("evse_uids", { mode: "json" }).$type<string[]>(),
    state: text("state", { enum: CPO_PUSH_STATES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When the last change was recorded: a delivery settles only the change it read. */
    changedAt: integer("changed_at", { mode: "timestamp_ms" }).notNull(),
    pushedAt: integer("pushed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("ocpi_cpo_pushes_object_uq").on(t.operatorId, t.platformId, t.module, t.objectId),
    // The cron's look across operators for pushes whose message was lost.
    index("ocpi_cpo_pushes_state_idx").on(t.state, t.changedAt),
  ],
);
