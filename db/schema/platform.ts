import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * What the platform charges an operator (docs/rules/platform.md "Price packages"): per connector
 * per day, AC and DC apart, for the connectors the package authorises. The operator's authorised
 * counts are the sums of its effective packages.
 */
export const pricePackages = sqliteTable(
  "price_packages",
  {
    ...tenantColumns(),
    type: text("type", { enum: ["default", "temporary", "regular"] }).notNull(),
    status: text("status", { enum: ["ineffective", "effective", "expired", "void"] }).notNull(),
    /** Unit prices per connector per day, decimal strings (docs/decisions/0005-money-in-minor-units.md). */
    acPrice: text("ac_price").notNull(),
    dcPrice: text("dc_price").notNull(),
    currency: text("currency").notNull(),
    currencyDecimals: integer("currency_decimals").notNull(),
    acConnectors: integer("ac_connectors").notNull(),
    dcConnectors: integer("dc_connectors").notNull(),
    beginAt: integer("begin_at", { mode: "timestamp_ms" }).notNull(),
    endAt: integer("end_at", { mode: "timestamp_ms" }).notNull(),
    remark: text("remark"),
    voidedAt: integer("voided_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [
    // An operator's packages, newest first, and its effective ones for the quota.
    index("price_packages_operator_status_idx").on(t.operatorId, t.status, t.beginAt),
    // The daily run finds packages by state across operators.
    index("price_packages_status_idx").on(t.status, t.beginAt),
  ],
);

/**
 * One bill line per package per day (docs/rules/platform.md "Daily billing"): the unique index
 * makes the daily run idempotent.
 */
export const packageBills = sqliteTable(
  "package_bills",
  {
    ...tenantColumns(),
    packageId: integer("package_id").notNull().references(() => pricePackages.id),
    /** The UTC day billed, `YYYY-MM-DD`. */
    day: text("day").notNull(),
    acConnectors: integer("ac_connectors").notNull(),
    dcConnectors: integer("dc_connectors").notNull(),
    acAmount: integer("ac_amount").notNull(),
    dcAmount: integer("dc_amount").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    recorded: integer("recorded", { mode: "boolean" }).notNull().default(false),
    settled: integer("settled", { mode: "boolean" }).notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("package_bills_package_day_uq").on(t.packageId, t.day),
    // An operator's bills of one package, by day.
    index("package_bills_operator_package_idx").on(t.operatorId, t.packageId, t.day),
  ],
);
