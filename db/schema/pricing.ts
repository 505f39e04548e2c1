import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { StrategyPrices } from "../../domain/pricing/strategy";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Charging strategies (price plans; docs/rules/pricing.md "Strategies"). The strategy is the name
 * points are assigned to; its prices live in versions that are never changed once written: an edit
 * adds a version, and a transaction keeps the version in force when its start was received
 * (docs/decisions/0022-strategies-are-versioned.md). A deleted strategy keeps its versions for the
 * charge records that name them.
 */
export const chargeStrategies = sqliteTable(
  "charge_strategies",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    currency: text("currency").notNull(),
    /** The current version: its number and its row (set in the same batch that writes it). */
    version: integer("version").notNull().default(1),
    currentVersionId: integer("current_version_id"),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [
    // The strategy list of one operator, newest first, filtered by name.
    index("charge_strategies_operator_updated_idx").on(t.operatorId, t.deletedAt, t.updatedAt),
  ],
);

/** One version of a strategy's prices: written once, never changed. */
export const chargeStrategyVersions = sqliteTable(
  "charge_strategy_versions",
  {
    ...tenantColumns(),
    strategyId: integer("strategy_id").notNull().references(() => chargeStrategies.id),
    /** 1, 2, 3… per strategy; the unique index refuses two edits that would both make the same one. */
    version: integer("version").notNull(),
    name: text("name").notNull(),
    currency: text("currency").notNull(),
    prices: text("prices", { mode: "json" }).$type<StrategyPrices>().notNull(),
    /** Who wrote it: the account, or the system part. */
    createdBy: text("created_by").notNull(),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    uniqueIndex("charge_strategy_versions_strategy_version_uq").on(t.strategyId, t.version),
    // A strategy's versions within its operator (the current one is the highest).
    index("charge_strategy_versions_operator_strategy_idx").on(t.operatorId, t.strategyId, t.version),
  ],
);
