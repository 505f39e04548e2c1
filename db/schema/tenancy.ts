import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`);
const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch() * 1000)`);

/**
 * When a row was made and last changed, ms since the epoch (UTC): `...timestamps()` spreads both
 * into a table, `timestamps.createdAt()` gives one.
 */
export const timestamps = Object.assign(() => ({ createdAt: createdAt(), updatedAt: updatedAt() }), { createdAt, updatedAt });

/**
 * The first columns of a tenant-owned table: its own id and the operator that owns the row
 * (docs/rules/tenancy.md "Tenant-owned tables"). A function, so each table gets its own builders.
 */
export const tenantColumns = () => ({
  id: integer("id").primaryKey({ autoIncrement: true }),
  operatorId: integer("operator_id")
    .notNull()
    .references(() => operators.id),
});

/** The one platform that owns every operator (docs/rules/tenancy.md "Operators"). */
export const platforms = sqliteTable("platforms", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

/**
 * Operators are the tenants. The platform's own tenant is an operator of kind PLATFORM (code
 * `PLATFORM`); sub-operators point at their parent and carry sub = 1
 * (docs/rules/tenancy.md "Operators").
 */
export const operators = sqliteTable(
  "operators",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    platformId: integer("platform_id").notNull().references(() => platforms.id),
    parentId: integer("parent_id"),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["PLATFORM", "OPERATOR"] }).notNull().default("OPERATOR"),
    sub: integer("sub").notNull().default(0),
    edition: text("edition", { enum: ["basic", "standard", "ultimate"] }).notNull().default("standard"),
    status: text("status", { enum: ["VALID", "INVALID"] }).notNull().default("VALID"),
    /**
     * The operator is in service from `validFrom` until `validUntil` (either open); outside it, or
     * INVALID, nobody logs in and its chargers are Rejected at boot (docs/rules/platform.md "Validity").
     */
    validFrom: integer("valid_from", { mode: "timestamp_ms" }),
    validUntil: integer("valid_until", { mode: "timestamp_ms" }),
    /**
     * Connectors the operator's price package authorises it to run
     * (docs/rules/equipment.md "Authorised connectors").
     */
    authorizedAcConnectors: integer("authorized_ac_connectors").notNull().default(0),
    authorizedDcConnectors: integer("authorized_dc_connectors").notNull().default(0),
    contactName: text("contact_name"),
    contactPhone: text("contact_phone"),
    contactEmail: text("contact_email"),
    homeUrl: text("home_url"),
    logoKey: text("logo_key"),
    /** What the operator pays the platform for its subscription, in minor units of its currency. */
    subscriptionAmount: integer("subscription_amount"),
    chargeAccount: text("charge_account"),
    clearingAccount: text("clearing_account"),
    cardPaymentAccount: text("card_payment_account"),
    paypalAccount: text("paypal_account"),
    openingHours: text("opening_hours"),
    eipaAccount: text("eipa_account"),
    /** Sealed with the platform's key (workers/auth/sealed.ts); never answered back. */
    eipaPasswordSealed: text("eipa_password_sealed"),
    joinOcpi: integer("join_ocpi", { mode: "boolean" }).notNull().default(false),
    /**
     * The provisioning request that created the row: the rest of the provisioning batch inserts
     * only for the row it created itself (docs/rules/platform.md "Provisioning").
     */
    provisionKey: text("provision_key"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("operators_code_uq").on(t.code),
    // Lists a parent's sub-operators.
    index("operators_parent_idx").on(t.parentId),
  ],
);

/**
 * Branded domains: the host of a request names its operator
 * (docs/rules/tenancy.md "Operator domains").
 */
export const operatorDomains = sqliteTable(
  "operator_domains",
  {
    ...tenantColumns(),
    domain: text("domain").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("operator_domains_domain_uq").on(t.domain), index("operator_domains_operator_idx").on(t.operatorId)],
);

/**
 * The part of an operator's parameter settings needed by the console shell
 * (docs/rules/tenancy.md "Operators"). Later settings join this row as columns or in `document`.
 */
export const parameterSettings = sqliteTable("parameter_settings", {
  operatorId: integer("operator_id").primaryKey().references(() => operators.id),
  defaultLanguage: text("default_language").notNull().default("en"),
  timeZone: text("time_zone").notNull().default("UTC"),
  currencyCode: text("currency_code").notNull().default("USD"),
  currencySign: text("currency_sign").notNull().default("$"),
  currencyDecimals: integer("currency_decimals").notNull().default(0),
  /**
   * JSON array of telephone area codes, e.g. ["48"]; '86' by default
   * (docs/rules/tenancy.md "Operators").
   */
  areaCodes: text("area_codes", { mode: "json" }).$type<string[]>().notNull().default(sql`'["86"]'`),
  /** OCPP: heartbeat interval answered at boot, in seconds. */
  heartbeatIntervalS: integer("heartbeat_interval_s").notNull().default(300),
  /**
   * OCPP: what a disabled point's BootNotification gets (docs/rules/ocpp.md "Boot and acceptance").
   */
  disabledPointBoot: text("disabled_point_boot", { enum: ["Pending", "Rejected"] }).notNull().default("Pending"),
  /** The operator's own id tag for remote starts without a driver's tag. */
  remoteIdTag: text("remote_id_tag"),
  /** JSON document for the settings later work adds. */
  document: text("document", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  updatedAt: updatedAt(),
});
