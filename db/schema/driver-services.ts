import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CHARGEABLE_TYPES, MAX_RESERVATION_ID, PUSH_STATUSES, RESERVATION_STATUSES, UPDATE_TYPES } from "../../domain/schemas/driver-services";
import { customerGroups, customers } from "./drivers";
import { points } from "./equipment";
import { accounts } from "./access";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Vehicles of customers (docs/rules/driver-services.md "Vehicles"). At most one default vehicle
 * per customer, held by a partial unique index so that two requests cannot both make one.
 */
export const vehicles = sqliteTable(
  "vehicles",
  {
    ...tenantColumns(),
    customerId: integer("customer_id").notNull().references(() => customers.id),
    name: text("name").notNull(),
    plate: text("plate").notNull(),
    brand: text("brand"),
    model: text("model"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    remark: text("remark"),
    ...timestamps(),
  },
  (t) => [
    // The vehicle list, newest first, and a customer's vehicles.
    index("vehicles_operator_customer_idx").on(t.operatorId, t.customerId),
    uniqueIndex("vehicles_one_default_uq").on(t.operatorId, t.customerId).where(sql`${t.isDefault} = 1`),
  ],
);

/**
 * Offline authorisation lists (docs/rules/driver-services.md "Offline lists"): which customers'
 * tags a charger may accept without asking, as its local authorisation list (OCPP 1.6 §3.5.2).
 */
export const offlineLists = sqliteTable(
  "offline_lists",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    chargeableType: text("chargeable_type", { enum: CHARGEABLE_TYPES }).notNull(),
    /** A push before this instant waits for it. */
    effectiveTime: integer("effective_time", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [index("offline_lists_operator_idx").on(t.operatorId, t.id)],
);

/** The customers and groups a list names; exactly one of the two per row. */
export const offlineListMembers = sqliteTable(
  "offline_list_members",
  {
    ...tenantColumns(),
    listId: integer("list_id").notNull().references(() => offlineLists.id),
    customerId: integer("customer_id").references(() => customers.id),
    groupId: integer("group_id").references(() => customerGroups.id),
  },
  (t) => [
    index("offline_list_members_list_idx").on(t.operatorId, t.listId),
    check("offline_list_members_one_kind", sql`(${t.customerId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

/**
 * Each charger's local list as the server last had it accepted: its version (what
 * GetLocalListVersion reports) and whether the next push must be Full (never pushed, or the charger
 * answered VersionMismatch). docs/decisions/0040-local-list-versions-per-point.md.
 */
export const localListPoints = sqliteTable(
  "local_list_points",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    version: integer("version").notNull().default(0),
    needsFull: integer("needs_full", { mode: "boolean" }).notNull().default(true),
    updatedAt: timestamps.updatedAt(),
  },
  (t) => [uniqueIndex("local_list_points_point_uq").on(t.operatorId, t.pointId)],
);

/**
 * The entries a charger holds after its last accepted push, with the list that put them there: a
 * Differential push sends only what differs from these (OCPP 1.6 §5.15).
 */
export const localListEntries = sqliteTable(
  "local_list_entries",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    listId: integer("list_id").notNull().references(() => offlineLists.id),
    idTag: text("id_tag").notNull(),
    status: text("status", { enum: ["Accepted", "Blocked", "Expired", "Invalid", "ConcurrentTx"] }).notNull(),
    expiryDate: integer("expiry_date", { mode: "timestamp_ms" }),
    parentIdTag: text("parent_id_tag"),
  },
  (t) => [
    uniqueIndex("local_list_entries_point_tag_uq").on(t.operatorId, t.pointId, sql`upper(${t.idTag})`),
    index("local_list_entries_list_idx").on(t.operatorId, t.listId, t.pointId),
  ],
);

/**
 * One delivery of a list to one point: SendLocalList through the push queue, its outcome (the
 * charger's status, `offline` or `timeout`) and when. A failed item can be sent again.
 */
export const offlineListPushItems = sqliteTable(
  "offline_list_push_items",
  {
    ...tenantColumns(),
    listId: integer("list_id").notNull().references(() => offlineLists.id),
    pointId: integer("point_id").notNull().references(() => points.id),
    status: text("status", { enum: PUSH_STATUSES }).notNull().default("PENDING"),
    /** The charger's answer (Accepted, Failed, NotSupported, VersionMismatch), or offline, timeout, error. */
    reason: text("reason"),
    updateType: text("update_type", { enum: UPDATE_TYPES }),
    listVersion: integer("list_version"),
    entryCount: integer("entry_count"),
    attempts: integer("attempts").notNull().default(0),
    /** The list's effective time: the queue delivers the item from then on. */
    notBefore: integer("not_before", { mode: "timestamp_ms" }),
    requestedBy: integer("requested_by").references(() => accounts.id),
    createdAt: timestamps.createdAt(),
    answeredAt: integer("answered_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // The list's items, newest first, and the points it reached.
    index("offline_list_push_items_list_idx").on(t.operatorId, t.listId, t.id),
    index("offline_list_push_items_point_idx").on(t.operatorId, t.pointId, t.id),
    // Items waiting for their list's effective time, for the cron.
    index("offline_list_push_items_due_idx").on(t.status, t.notBefore),
  ],
);

/**
 * Reservations (OCPP 1.6 §5.13). The id is the reservationId the charger keeps: one sequence
 * across the system, within int32. docs/decisions/0041-reservations.md.
 */
export const reservations = sqliteTable(
  "reservations",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    connectorId: integer("connector_id").notNull(),
    idTag: text("id_tag").notNull(),
    parentIdTag: text("parent_id_tag"),
    customerId: integer("customer_id").references(() => customers.id),
    status: text("status", { enum: RESERVATION_STATUSES }).notNull(),
    expiryDate: integer("expiry_date", { mode: "timestamp_ms" }).notNull(),
    /** The transaction that used it, or null. */
    transactionId: integer("transaction_id"),
    /** Why it finished: used by a transaction, expired, or removed by the charger before its expiry (OCPP 2.0.1 H04). */
    endReason: text("end_reason", { enum: ["used", "expired", "removed"] }),
    createdBy: integer("created_by").references(() => accounts.id),
    /**
     * A roaming driver's reservation: the eMSP (OCPI platform) whose RESERVE_NOW made it and its
     * `reservation_id` (OCPI 2.2.1 §13.3.3); null for the operator's own.
     */
    roamingPlatformId: integer("roaming_platform_id"),
    roamingReservationId: text("roaming_reservation_id"),
    ...timestamps(),
  },
  (t) => [
    // The reservation list, by expiry, newest first; a point's reservations.
    index("reservations_operator_expiry_idx").on(t.operatorId, t.expiryDate),
    index("reservations_operator_point_idx").on(t.operatorId, t.pointId, t.connectorId, t.status),
    // Reservations still held, for the cron that finishes the expired ones.
    index("reservations_status_expiry_idx").on(t.status, t.expiryDate),
    // A partner's CANCEL_RESERVATION or repeated RESERVE_NOW finds its reservation.
    index("reservations_operator_roaming_idx").on(t.operatorId, t.roamingPlatformId, t.roamingReservationId),
    check("reservations_id_int32", sql`${t.id} <= ${sql.raw(String(MAX_RESERVATION_ID))}`),
  ],
);

/**
 * Reservation ids handed out before the charger answers: the row of `reservations` is written only
 * once the charger accepted, so a refusal leaves nothing half-written; the ids still never repeat.
 */
export const reservationIds = sqliteTable(
  "reservation_ids",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    createdAt: timestamps.createdAt(),
  },
  (t) => [check("reservation_ids_int32", sql`${t.id} <= ${sql.raw(String(MAX_RESERVATION_ID))}`)],
);
