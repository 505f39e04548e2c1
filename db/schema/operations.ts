import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DELIVERY_STATUSES, PROFILE_PURPOSES, REPEATS, ROLLOUT_DELIVERIES, ROLLOUT_STATUSES, type Slot } from "../../domain/schemas/operations";
import { points, stations } from "./equipment";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Operations that reach the chargers (docs/rules/operations.md): load-balancing configurations
 * and their delivery per point, firmware versions and their rollout per point, and the operator's
 * fault-code catalogue.
 */

/** A station's load-balancing configuration, delivered to its points as a charging profile. */
export const loadBalancings = sqliteTable(
  "load_balancings",
  {
    ...tenantColumns(),
    stationId: integer("station_id").notNull().references(() => stations.id),
    name: text("name").notNull(),
    /** W: the station's limit shared over its points, or each point's (by `purpose`). */
    powerLimitW: integer("power_limit_w").notNull(),
    purpose: text("purpose", { enum: PROFILE_PURPOSES }).notNull(),
    stackLevel: integer("stack_level").notNull(),
    repeat: text("repeat", { enum: REPEATS }).notNull(),
    /** `[{start, end, limitKw}]` in the station's local time. */
    slots: text("slots", { mode: "json" }).$type<Slot[]>().notNull(),
    validFrom: integer("valid_from", { mode: "timestamp_ms" }),
    validTo: integer("valid_to", { mode: "timestamp_ms" }),
    status: text("status", { enum: ["VALID", "INVALID"] }).notNull().default("VALID"),
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  // The list of one operator, newest first, by station.
  (t) => [index("load_balancings_operator_station_idx").on(t.operatorId, t.stationId, t.id)],
);

/** The points of a configuration and the delivery of its profile to each (docs/rules/operations.md "Delivery"). */
export const loadBalancingPoints = sqliteTable(
  "load_balancing_points",
  {
    ...tenantColumns(),
    loadBalancingId: integer("load_balancing_id")
      .notNull()
      .references(() => loadBalancings.id, { onDelete: "cascade" }),
    pointId: integer("point_id").notNull().references(() => points.id),
    /** SetChargingProfile or, once disabled, ClearChargingProfile. */
    action: text("action", { enum: ["set", "clear"] }).notNull().default("set"),
    delivery: text("delivery", { enum: DELIVERY_STATUSES }).notNull().default("NotSent"),
    /** The charger's reply or why there is none. */
    detail: text("detail"),
    updatedAt: timestamps.updatedAt(),
  },
  (t) => [
    uniqueIndex("load_balancing_points_uq").on(t.loadBalancingId, t.pointId),
    // A point's configurations (overlap check), within the operator.
    index("load_balancing_points_operator_point_idx").on(t.operatorId, t.pointId),
  ],
);

/** A firmware version an operator can issue (UpdateFirmware, OCPP 1.6 §5.19). */
export const firmwares = sqliteTable(
  "firmwares",
  {
    ...tenantColumns(),
    version: text("version").notNull(),
    location: text("location").notNull(),
    retries: integer("retries"),
    retryIntervalS: integer("retry_interval_s"),
    retrieveDate: integer("retrieve_date", { mode: "timestamp_ms" }),
    description: text("description"),
    /** A signed version's certificate (PEM) and signature (base64): sent as a signed update (docs/rules/operations.md "Firmware"). */
    signingCertificate: text("signing_certificate"),
    signature: text("signature"),
    /** Set at the first issue; an issued version is never deleted. */
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("firmwares_operator_version_uq").on(t.operatorId, t.version)],
);

/** One point's rollout of a firmware version: its wave, the UpdateFirmware call, and the charger's last report. */
export const firmwareRollouts = sqliteTable(
  "firmware_rollouts",
  {
    ...tenantColumns(),
    firmwareId: integer("firmware_id")
      .notNull()
      .references(() => firmwares.id),
    pointId: integer("point_id").notNull().references(() => points.id),
    wave: integer("wave").notNull(),
    delivery: text("delivery", { enum: ROLLOUT_DELIVERIES }).notNull().default("Queued"),
    status: text("status", { enum: ROLLOUT_STATUSES }).notNull().default("Issued"),
    issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: timestamps.updatedAt(),
  },
  (t) => [
    uniqueIndex("firmware_rollouts_uq").on(t.firmwareId, t.pointId),
    index("firmware_rollouts_operator_firmware_idx").on(t.operatorId, t.firmwareId, t.pointId),
    // The newest rollout of a point, which its FirmwareStatusNotification moves.
    index("firmware_rollouts_operator_point_idx").on(t.operatorId, t.pointId, t.issuedAt),
  ],
);

/**
 * The operator's own settings of a fault code: one of OCPP's (overriding its defaults) or a
 * vendor's (docs/rules/operations.md "Fault codes").
 */
export const faultCodes = sqliteTable(
  "fault_codes",
  {
    ...tenantColumns(),
    code: text("code").notNull(),
    source: text("source", { enum: ["OCPP", "VENDOR"] }).notNull(),
    name: text("name").notNull(),
    level: text("level", { enum: ["ERROR", "WARN"] }).notNull(),
    /** Occurrences in a period after which a failure counts as repeated. */
    count: integer("count").notNull(),
    description: text("description"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("fault_codes_operator_code_uq").on(t.operatorId, t.code)],
);
