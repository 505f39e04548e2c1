import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { DISCOUNT_CARD_STATUSES, DISCOUNT_SOURCES, DISCOUNT_TYPES, DISCOUNT_UNITS } from "../../domain/schemas/discounts";
import { customers } from "./drivers";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Discount strategies and the cards made from them (docs/rules/discounts.md). Quotas and what
 * is left of them count minor units (MONEY) or Wh (DEGREE)
 * (docs/decisions/0005-money-in-minor-units.md).
 */
export const discountStrategies = sqliteTable(
  "discount_strategies",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    type: text("type", { enum: DISCOUNT_TYPES }).notNull(),
    unit: text("unit", { enum: DISCOUNT_UNITS }).notNull(),
    quota: integer("quota").notNull(),
    /** Percent taken off by a DISCOUNT (0–100); null for a VOUCHER. */
    discount: integer("discount"),
    /** Validity: the operator's days `startDate`..`endDate` (both included), or `months` from the day a card is given. */
    startDate: text("start_date"),
    endDate: text("end_date"),
    months: integer("months"),
    /** The prefix of the generated cards' activation codes. */
    activationCode: text("activation_code"),
    /** How many cards were generated from the strategy. */
    generateNumber: integer("generate_number").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("discount_strategies_operator_idx").on(t.operatorId, t.id)],
);

/**
 * Discount cards: one activation code each, unique per operator (the unique index is what keeps
 * two generations from making the same code). A card is given to one customer, once.
 */
export const discountCards = sqliteTable(
  "discount_cards",
  {
    ...tenantColumns(),
    strategyId: integer("strategy_id").notNull().references(() => discountStrategies.id),
    code: text("code").notNull(),
    customerId: integer("customer_id").references(() => customers.id),
    /** Stored state; an IN_USE card past `expiresAt` reads as EXPIRED (docs/rules/discounts.md "Card states"). */
    status: text("status", { enum: DISCOUNT_CARD_STATUSES }).notNull().default("INVALID"),
    remaining: integer("remaining").notNull(),
    /** The card is usable from this instant until `expiresAt` (exclusive), set when it is given. */
    validFrom: integer("valid_from", { mode: "timestamp_ms" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    activatedAt: integer("activated_at", { mode: "timestamp_ms" }),
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("discount_cards_code_uq").on(t.operatorId, t.code),
    index("discount_cards_strategy_idx").on(t.operatorId, t.strategyId, t.id),
    index("discount_cards_customer_idx").on(t.operatorId, t.customerId, t.status),
    check("discount_cards_remaining_ck", sql`${t.remaining} >= 0`),
  ],
);

/**
 * What each discount took from a charge record (docs/rules/discounts.md "Billing order"): one row
 * per record and source, written in the debit's batch. Its unique key and `applied` mark are what
 * keep a card from being drawn on twice for one session.
 */
export const chargeRecordDiscounts = sqliteTable(
  "charge_record_discounts",
  {
    ...tenantColumns(),
    transactionId: integer("transaction_id").notNull(),
    source: text("source", { enum: DISCOUNT_SOURCES }).notNull(),
    cardId: integer("card_id").references(() => discountCards.id),
    /** Minor units taken off the session's cost. */
    amount: integer("amount").notNull(),
    /** What the card gave up: minor units (MONEY) or Wh (DEGREE); 0 for the membership discount. */
    consumed: integer("consumed").notNull(),
    applied: integer("applied", { mode: "boolean" }).notNull().default(false),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    uniqueIndex("charge_record_discounts_uq").on(t.operatorId, t.transactionId, t.source),
    index("charge_record_discounts_card_idx").on(t.operatorId, t.cardId),
  ],
);
