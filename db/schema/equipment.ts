import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { customers } from "./drivers";
import { operators, tenantColumns, timestamps } from "./tenancy";

/**
 * Stations (locations; docs/rules/equipment.md "Stations"). Money in minor units, coordinates as
 * decimal degrees.
 */
export const stations = sqliteTable(
  "stations",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    address: text("address").notNull().default(""),
    lat: text("lat"),
    lng: text("lng"),
    parkingFee: integer("parking_fee", { mode: "boolean" }).notNull().default(false),
    parkingFeeAmount: integer("parking_fee_amount"),
    servicePhone: text("service_phone"),
    maintainer: text("maintainer"),
    rank: integer("rank").notNull().default(0),
    price: text("price"),
    businessHours: text("business_hours"),
    description: text("description"),
    logoKey: text("logo_key"),
    /** The station's map marker, an upload of the operator's (at most 80 KB, docs/rules/equipment.md "Images"). */
    mapIconKey: text("map_icon_key"),
    timeZone: text("time_zone"),
    /** The station's load limit in W, for load monitoring. */
    powerLimitW: integer("power_limit_w"),
    status: text("status", { enum: ["VALID", "INVALID"] }).notNull().default("INVALID"),
    /** Published to roaming partners as an OCPI Location (docs/rules/ocpi.md "Locations we publish"). */
    publishToRoaming: integer("publish_to_roaming", { mode: "boolean" }).notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    // Station list of one operator, highest rank first (docs/rules/lists.md "Filters and sorting").
    index("stations_operator_rank_idx").on(t.operatorId, t.rank),
    index("stations_operator_status_idx").on(t.operatorId, t.status),
    // The locations sender's pages: an operator's published stations by last change.
    index("stations_published_idx").on(t.operatorId, t.publishToRoaming, t.updatedAt),
  ],
);

/** Point push status per item (docs/rules/equipment.md "Point pages"). */
export const PUSH_STATUSES = ["NotIssue", "Issued", "NotSupport"] as const;

/**
 * Charging points (chargers). The serial number is the OCPP chargeBoxId, unique across the
 * platform. The charger key is kept only as a keyed hash
 * (docs/decisions/0008-charger-keys-as-keyed-hmac.md).
 */
export const points = sqliteTable(
  "points",
  {
    ...tenantColumns(),
    stationId: integer("station_id").notNull().references(() => stations.id),
    serialNumber: text("serial_number").notNull(),
    pointNo: text("point_no").notNull(),
    name: text("name").notNull(),
    code: text("code"),
    type: text("type", { enum: ["DC", "AC", "MIXED"] }).notNull(),
    /** Rated power in W (the console shows kW with two decimals). */
    ratedPowerW: integer("rated_power_w").notNull(),
    connectorCount: integer("connector_count").notNull(),
    privateType: text("private_type", { enum: ["Public", "Private", "PrivateHidden"] }).notNull().default("Public"),
    status: text("status", { enum: ["VALID", "INVALID"] }).notNull().default("INVALID"),
    online: integer("online", { mode: "boolean" }).notNull().default(false),
    /**
     * Which OCPP versions the point's charger may connect with: AUTO takes what it offers
     * (2.0.1 first), OCPP16 or OCPP201 refuse the other (docs/rules/ocpp.md "Connection").
     */
    ocppVersion: text("ocpp_version", { enum: ["AUTO", "OCPP16", "OCPP201"] }).notNull().default("AUTO"),
    /** The version of the charger's connection, while it is connected ("1.6" | "2.0.1"); null offline. */
    connectedVersion: text("connected_version", { enum: ["1.6", "2.0.1"] }),
    /** When the online flag last changed (offline-since for an offline point). */
    onlineChangedAt: integer("online_changed_at", { mode: "timestamp_ms" }),
    /**
     * Until when the charger is quarantined for reconnecting too often, as its object last said
     * (docs/rules/ocpp.md "A charger that keeps reconnecting"); null, or past, when it is not.
     */
    quarantinedUntil: integer("quarantined_until", { mode: "timestamp_ms" }),
    /** How many connections within the hour began that quarantine. */
    quarantineConnections: integer("quarantine_connections"),
    vendor: text("vendor"),
    model: text("model"),
    firmwareVersion: text("firmware_version"),
    boxSerialNumber: text("box_serial_number"),
    iccid: text("iccid"),
    imsi: text("imsi"),
    meterSerialNumber: text("meter_serial_number"),
    meterType: text("meter_type"),
    lastBootAt: integer("last_boot_at", { mode: "timestamp_ms" }),
    keyHash: text("key_hash"),
    keySetAt: integer("key_set_at", { mode: "timestamp_ms" }),
    firmwareStatus: text("firmware_status"),
    diagnosticsStatus: text("diagnostics_status"),
    stationType: text("station_type"),
    /**
     * The charging strategy the point charges by, at most one (docs/rules/pricing.md
     * "Assigning points").
     */
    chargeStrategyId: integer("charge_strategy_id"),
    // What has been pushed to the charger, per item, and when
    // (docs/rules/equipment.md "Point pages").
    pricePushStatus: text("price_push_status", { enum: PUSH_STATUSES }).notNull().default("NotIssue"),
    currencyPushStatus: text("currency_push_status", { enum: PUSH_STATUSES }).notNull().default("NotIssue"),
    preAuthPushStatus: text("pre_auth_push_status", { enum: PUSH_STATUSES }).notNull().default("NotIssue"),
    pushedAt: integer("pushed_at", { mode: "timestamp_ms" }),
    /** The strategy version whose price the charger last answered (docs/rules/pricing.md "Price push"). */
    pricePushedVersionId: integer("price_pushed_version_id"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("points_serial_number_uq").on(t.serialNumber),
    // Point list of one operator, filtered by station, status or online state.
    index("points_operator_station_idx").on(t.operatorId, t.stationId),
    index("points_operator_status_idx").on(t.operatorId, t.status, t.online),
    // Points of one strategy: assigning, and refusing to delete an assigned strategy.
    index("points_operator_strategy_idx").on(t.operatorId, t.chargeStrategyId),
    // The point picker's prefix search on serial number or name, case-insensitive (LIKE 'x%' in NOCASE order).
    index("points_operator_serial_nocase_idx").on(t.operatorId, sql`${t.serialNumber} COLLATE NOCASE`),
    index("points_operator_name_nocase_idx").on(t.operatorId, sql`${t.name} COLLATE NOCASE`),
  ],
);

/**
 * Connectors of a point (docs/rules/equipment.md "Connectors"). An empty status means offline
 * (docs/rules/monitoring.md "Connector states").
 */
export const connectors = sqliteTable(
  "connectors",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    connectorNo: integer("connector_no").notNull(),
    code: text("code"),
    name: text("name"),
    standard: text("standard", {
      enum: ["SAE1", "SAE2", "IIS", "IEC1", "IEC2", "IEC3", "GBT1", "GBT2", "GBT3"],
    }).notNull(),
    powerW: integer("power_w").notNull(),
    chargeSpeed: text("charge_speed", { enum: ["QUICK", "SLOW"] }).notNull(),
    status: text("status"),
    errorCode: text("error_code"),
    statusAt: integer("status_at", { mode: "timestamp_ms" }),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    uniqueIndex("connectors_point_no_uq").on(t.pointId, t.connectorNo),
    index("connectors_operator_status_idx").on(t.operatorId, t.status),
  ],
);

/**
 * The id tags that are not RFID cards (docs/rules/ocpp.md "Transactions"): the operator's
 * remote-start tag, app users' tokens and OCPI tokens. RFID cards are `rf_cards`; Authorize reads
 * both (docs/decisions/0018-rfid-cards-are-the-tag-registry.md). Status as OCPP's
 * AuthorizationStatus. A tag with a customer follows the customer's status and points.
 */
export const idTags = sqliteTable(
  "id_tags",
  {
    ...tenantColumns(),
    idTag: text("id_tag").notNull(),
    status: text("status", { enum: ["Accepted", "Blocked", "Expired", "Invalid"] }).notNull().default("Accepted"),
    expiryDate: integer("expiry_date", { mode: "timestamp_ms" }),
    parentIdTag: text("parent_id_tag"),
    // AD_HOC: an ad-hoc session's one-time tag (docs/rules/payments.md "Ad-hoc payment").
    kind: text("kind", { enum: ["RFID", "APP", "REMOTE", "OCPI", "AD_HOC"] }).notNull().default("RFID"),
    customerId: integer("customer_id").references(() => customers.id),
    createdAt: timestamps.createdAt(),
  },
  // Unique and looked up case-insensitively, as OCPP compares id tags (OCPP 1.6 §7.28 IdToken).
  (t) => [uniqueIndex("id_tags_operator_tag_ci_uq").on(t.operatorId, sql`upper(${t.idTag})`)],
);

/**
 * Charging transactions. The integer id is the OCPP transactionId (1 … 2^31−1, unique across
 * the system). A repeated identical StartTransaction finds its row through the unique index.
 */
export const transactions = sqliteTable(
  "transactions",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    connectorNo: integer("connector_no").notNull(),
    /**
     * An OCPP 2.0.1 charger's own transaction id (a string it chose, E01); null for 1.6, where
     * `id` is what the charger was told (docs/decisions/0078-one-charger-model-two-protocols.md).
     */
    chargerTransactionId: text("charger_transaction_id"),
    idTag: text("id_tag").notNull(),
    /** The AuthorizationStatus answered at start (a refused tag still gets an id). */
    authStatus: text("auth_status").notNull(),
    reservationId: integer("reservation_id"),
    meterStartWh: integer("meter_start_wh").notNull(),
    startAt: integer("start_at", { mode: "timestamp_ms" }).notNull(),
    meterStopWh: integer("meter_stop_wh"),
    stopAt: integer("stop_at", { mode: "timestamp_ms" }),
    stopReason: text("stop_reason"),
    status: text("status", { enum: ["ACTIVE", "COMPLETED", "ABNORMAL"] }).notNull().default("ACTIVE"),
    abnormalReason: text("abnormal_reason"),
    /** When the pricing reference was taken (docs/rules/ocpp.md "Transactions"). */
    strategySnapshot: text("strategy_snapshot", { mode: "json" }).$type<Record<string, unknown> | null>(),
    /**
     * The strategy version of the point when the server received the StartTransaction: the
     * session is priced by it, whatever changes later (docs/decisions/0022-strategies-are-versioned.md).
     */
    strategyVersionId: integer("strategy_version_id"),
    energyWh: integer("energy_wh"),
    durationS: integer("duration_s"),
    billedAt: integer("billed_at", { mode: "timestamp_ms" }),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    uniqueIndex("transactions_start_uq").on(t.pointId, t.connectorNo, t.idTag, t.meterStartWh, t.startAt),
    // Ongoing and recent transactions of one operator.
    index("transactions_operator_status_idx").on(t.operatorId, t.status, t.startAt),
    index("transactions_point_idx").on(t.pointId, t.status),
    // A tag's transactions, as every authorization compares tags (`sameTag`): whether it charges
    // now, and whether an ad-hoc session's one-time tag has been used, without reading the
    // operator's whole history (docs/decisions/0110-a-points-history-through-its-own-index.md).
    index("transactions_operator_tag_idx").on(t.operatorId, sql`upper(${t.idTag})`),
    // Suspect sessions of one operator: the open transactions, oldest first (docs/rules/monitoring.md "Suspect sessions").
    index("transactions_open_idx").on(t.operatorId, t.startAt).where(sql`${t.stopAt} is null`),
    // A 2.0.1 event finds its transaction by the charger's id; a repeated Started finds the same row.
    uniqueIndex("transactions_charger_tx_uq").on(t.pointId, t.chargerTransactionId),
  ],
);

/** What a charger sent that needs a person's look: unknown stops, abnormal ends, odd data. */
export const ocppReviews = sqliteTable(
  "ocpp_reviews",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    // BELOW_THRESHOLD: a tag refused for its strategy's minimum threshold (docs/rules/pricing.md "Minimum threshold").
    // METER_JUMP: a register reading beyond the connector's power over the time since the last (docs/rules/monitoring.md "Suspect sessions").
    kind: text("kind", { enum: ["UNKNOWN_STOP", "ABNORMAL", "REGISTER_BACKWARDS", "BELOW_THRESHOLD", "METER_JUMP"] }).notNull(),
    transactionId: integer("transaction_id"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    index("ocpp_reviews_operator_created_idx").on(t.operatorId, t.createdAt),
    // The reviews of one transaction: whether a suspect session's meter was flagged.
    index("ocpp_reviews_transaction_idx").on(t.operatorId, t.transactionId).where(sql`${t.transactionId} is not null`),
  ],
);

/** Firmware, diagnostics and data-transfer notifications, recorded against the point. */
export const pointEvents = sqliteTable(
  "point_events",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    // Event: an OCPP 2.0.1 NotifyEvent that reports no problem (N07–N08; problems raise alarms).
    // SecurityEvent, CertificateRequest, InstalledCertificates: the 1.6 security extension and 2.0.1's A02–A04 (docs/rules/ocpp.md "Security extension").
    kind: text("kind", { enum: ["FirmwareStatus", "DiagnosticsStatus", "DataTransfer", "Event", "SecurityEvent", "CertificateRequest", "InstalledCertificates"] }).notNull(),
    status: text("status"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: timestamps.createdAt(),
  },
  (t) => [index("point_events_operator_point_idx").on(t.operatorId, t.pointId, t.createdAt)],
);

/** Alarms raised by StatusNotification error codes and OCPP 2.0.1 events (docs/rules/monitoring.md "Alarms"). */
export const alarms = sqliteTable(
  "alarms",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    connectorNo: integer("connector_no").notNull(),
    level: text("level", { enum: ["ERROR", "WARN"] }).notNull(),
    type: text("type").notNull(),
    message: text("message"),
    status: text("status", { enum: ["Undisposed", "AutoRecovery", "ManualDisposed"] }).notNull().default("Undisposed"),
    comment: text("comment"),
    occurredAt: integer("occurred_at", { mode: "timestamp_ms" }).notNull(),
    recoveredAt: integer("recovered_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("alarms_operator_status_idx").on(t.operatorId, t.status, t.occurredAt),
    index("alarms_point_open_idx").on(t.pointId, t.connectorNo, t.status),
  ],
);

/**
 * Stations and points a parent operator assigns to a sub-operator
 * (docs/rules/tenancy.md "Sub-operators").
 */
export const subOperatorDevices = sqliteTable(
  "sub_operator_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The parent operator that owns the devices. */
    operatorId: integer("operator_id").notNull().references(() => operators.id),
    subOperatorId: integer("sub_operator_id").notNull().references(() => operators.id),
    stationId: integer("station_id").references(() => stations.id),
    pointId: integer("point_id").references(() => points.id),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    index("sub_operator_devices_operator_sub_idx").on(t.operatorId, t.subOperatorId),
    uniqueIndex("sub_operator_devices_point_uq").on(t.subOperatorId, t.pointId),
    uniqueIndex("sub_operator_devices_station_uq").on(t.subOperatorId, t.stationId),
  ],
);

/**
 * Diagnostics requests (GetDiagnostics) and their upload status: -1 failed, 1 waiting, 2 uploading,
 * 3 uploaded (docs/rules/ocpp.md "Diagnostics").
 */
export const diagnostics = sqliteTable(
  "diagnostics",
  {
    ...tenantColumns(),
    pointId: integer("point_id").notNull().references(() => points.id),
    /** 1 normal, 2 the '1768' type (docs/rules/ocpp.md "Diagnostics"). */
    type: integer("type").notNull().default(1),
    location: text("location").notNull(),
    fileName: text("file_name"),
    status: integer("status").notNull().default(1),
    requestedAt: integer("requested_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: timestamps.updatedAt(),
  },
  (t) => [index("diagnostics_operator_point_idx").on(t.operatorId, t.pointId, t.requestedAt)],
);
