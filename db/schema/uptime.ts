import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { EXCLUSION_REASONS } from "../../domain/uptime";
import { points } from "./equipment";
import { tenantColumns } from "./tenancy";

/**
 * The index by which a point's history is read and written (point, connector, start). Statements
 * that look for a point's open intervals name it (`INDEXED BY`): without the planner's statistics,
 * SQLite takes the operator's index for `operator_id = ? AND started_at < ?` instead, every
 * interval the operator ever had (decision 0110).
 */
export const POINT_HISTORY_INDEX = "status_intervals_point_connector_start_uq";
/** `INDEXED BY` that index, after the table's name in a statement's `from` or `update`. */
export const throughPointHistory = sql`indexed by ${sql.identifier(POINT_HISTORY_INDEX)}`;

/**
 * A connector's status history as intervals (docs/rules/monitoring.md "Uptime"): one row from each
 * status or connection change to the next, written by the charger change writer in the same
 * batches as the connector row (docs/rules/ocpp.md "Hot path"); the open interval has no end.
 * Connector 0 is the point itself. `online` is the point's connection state during the interval
 * (offline: its connectors are down). An outage row the operator excludes carries the reason.
 */
export const statusIntervals = sqliteTable(
  "status_intervals",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    connectorNo: integer("connector_no").notNull(),
    /** The OCPP 1.6 status the connector reported last (null: none yet). */
    status: text("status"),
    online: integer("online", { mode: "boolean" }).notNull(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    excludedReason: text("excluded_reason", { enum: EXCLUSION_REASONS }),
    excludedNote: text("excluded_note"),
    excludedBy: text("excluded_by"),
    excludedAt: integer("excluded_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // One interval per connector and start: the change writer's replayed batch inserts nothing twice,
    // and it closes the open interval of one connector through this index.
    uniqueIndex(POINT_HISTORY_INDEX).on(t.pointId, t.connectorNo, t.startedAt),
    // Outages of one operator in a period, newest first (the reliability screen's list).
    index("status_intervals_operator_start_idx").on(t.operatorId, t.startedAt),
  ],
);
