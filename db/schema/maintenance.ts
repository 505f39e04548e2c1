import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./access";
import { customers } from "./drivers";
import { alarms, points, stations } from "./equipment";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Maintenance staff (docs/rules/maintenance.md "Maintainers"): an account of a MAINTAINER role
 * with its manufacturer, warden account and the fault codes it is bound to.
 */
export const maintainers = sqliteTable(
  "maintainers",
  {
    ...tenantColumns(),
    accountId: integer("account_id").notNull().references(() => accounts.id),
    manufacturer: text("manufacturer"),
    wardenAccount: text("warden_account"),
    /** Fault codes of the catalogue (OCPP or vendor) whose alarms this maintainer handles. */
    faultCodes: text("fault_codes", { mode: "json" }).$type<string[]>().notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("maintainers_operator_account_uq").on(t.operatorId, t.accountId),
    index("maintainers_operator_created_idx").on(t.operatorId, t.createdAt),
  ],
);

/** The stations and points a maintainer is responsible for (one of the two per row). */
export const maintainerDevices = sqliteTable(
  "maintainer_devices",
  {
    ...tenantColumns(),
    maintainerId: integer("maintainer_id").notNull().references(() => maintainers.id),
    stationId: integer("station_id").references(() => stations.id),
    pointId: integer("point_id").references(() => points.id),
  },
  (t) => [
    index("maintainer_devices_operator_maintainer_idx").on(t.operatorId, t.maintainerId),
    index("maintainer_devices_operator_point_idx").on(t.operatorId, t.pointId),
    index("maintainer_devices_operator_station_idx").on(t.operatorId, t.stationId),
  ],
);

/**
 * Work orders (docs/rules/maintenance.md "Work orders"): ALREADY (to do) → PASS (processed) →
 * CLOSE (audit passed), or back to ALREADY when the audit does not pass.
 */
export const workOrders = sqliteTable(
  "work_orders",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    /** The alarm it was opened from; an alarm opens at most one work order. */
    alarmId: integer("alarm_id").references(() => alarms.id),
    source: text("source", { enum: ["MANUAL", "ALARM", "AUTO"] }).notNull(),
    faultCode: text("fault_code").notNull(),
    serialNumber: text("serial_number").notNull(),
    status: text("status", { enum: ["ALREADY", "PASS", "CLOSE"] }).notNull().default("ALREADY"),
    abnormalTime: integer("abnormal_time", { mode: "timestamp_ms" }).notNull(),
    cause: text("cause"),
    remarks: text("remarks"),
    /** The handler: the maintainer it is assigned to (null: nobody yet). */
    maintainerId: integer("maintainer_id").references(() => maintainers.id),
    handlingProcess: text("handling_process"),
    opinion: text("opinion"),
    processedBy: text("processed_by"),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }),
    auditResult: text("audit_result", { enum: ["PASS", "NO_PASS"] }),
    auditOpinion: text("audit_opinion"),
    auditedBy: text("audited_by"),
    auditedAt: integer("audited_at", { mode: "timestamp_ms" }),
    createdBy: text("created_by").notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("work_orders_operator_alarm_uq").on(t.operatorId, t.alarmId),
    index("work_orders_operator_created_idx").on(t.operatorId, t.createdAt),
    index("work_orders_operator_status_idx").on(t.operatorId, t.status, t.createdAt),
    index("work_orders_operator_maintainer_idx").on(t.operatorId, t.maintainerId, t.status),
  ],
);

/** Every step of a work order, for its detail: created, edited, assigned, processed, audited. */
export const workOrderHistory = sqliteTable(
  "work_order_history",
  {
    ...tenantColumns(),
    workOrderId: integer("work_order_id").notNull().references(() => workOrders.id),
    action: text("action", { enum: ["CREATE", "UPDATE", "PROCESS", "AUDIT_PASS", "AUDIT_NO_PASS"] }).notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    account: text("account").notNull(),
    note: text("note"),
    maintainerId: integer("maintainer_id"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("work_order_history_operator_order_idx").on(t.operatorId, t.workOrderId, t.at)],
);

/** Per operator: whether an alarm opens a work order on its own (docs/rules/maintenance.md "Automatic work orders"). */
export const maintenanceSettings = sqliteTable(
  "maintenance_settings",
  {
    ...tenantColumns(),
    autoOpen: integer("auto_open", { mode: "boolean" }).notNull().default(false),
    updatedAt: timestamps.updatedAt(),
  },
  (t) => [uniqueIndex("maintenance_settings_operator_uq").on(t.operatorId)],
);

/**
 * A driver's request to delete their account (docs/rules/maintenance.md "Account deletion"),
 * from the public page; the operator completes it, erasing the customer's personal fields.
 */
export const accountDeletionRequests = sqliteTable(
  "account_deletion_requests",
  {
    ...tenantColumns(),
    contact: text("contact").notNull(),
    customerId: integer("customer_id").references(() => customers.id),
    reason: text("reason"),
    status: text("status", { enum: ["PENDING", "DONE", "REJECTED"] }).notNull().default("PENDING"),
    processedBy: text("processed_by"),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }),
    createdAt: timestamps.createdAt(),
  },
  (t) => [index("account_deletion_requests_operator_created_idx").on(t.operatorId, t.status, t.createdAt)],
);

/**
 * Banners and images shown in the driver app (docs/rules/maintenance.md "Banners and images"): a
 * checked JPG/PNG in R2, UNAUDITED until approved, enabled or not, in the operator's order.
 */
export const banners = sqliteTable(
  "banners",
  {
    ...tenantColumns(),
    type: text("type", { enum: ["POINT", "STATION"] }).notNull(),
    fileKey: text("file_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: integer("bytes").notNull(),
    auditStatus: text("audit_status", { enum: ["UNAUDITED", "AUDITED"] }).notNull().default("UNAUDITED"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    sort: integer("sort").notNull().default(0),
    uploadedBy: text("uploaded_by").notNull(),
    auditedBy: text("audited_by"),
    createdAt: timestamps.createdAt(),
  },
  (t) => [index("banners_operator_sort_idx").on(t.operatorId, t.sort, t.id)],
);

/**
 * The operator's own files (docs/rules/maintenance.md "File management"): stored in R2 under
 * `operators/<id>/files/`, never public, listed from this table.
 */
export const storedFiles = sqliteTable(
  "stored_files",
  {
    ...tenantColumns(),
    fileKey: text("file_key").notNull(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    uploadedBy: text("uploaded_by").notNull(),
    createdAt: timestamps.createdAt(),
  },
  (t) => [index("stored_files_operator_created_idx").on(t.operatorId, t.createdAt)],
);
