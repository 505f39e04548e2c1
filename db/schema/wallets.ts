import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { RECHARGE_WAYS } from "../../domain/schemas/wallets";
import { accounts } from "./access";
import { customers } from "./drivers";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Recharge records: every top-up and deduction of a customer's balance (docs/rules/wallets.md
 * "Recharges"), written in the same D1 batch as the balance change and its `Recharge` bill. The
 * balances are computed in SQL from the customer's row inside the batch, so two recharges at
 * once both count; the check keeps a deduction from taking a balance below zero: a deduction
 * that would fails the whole batch (docs/decisions/0045-recharges-guarded-in-one-batch.md).
 */
export const recharges = sqliteTable(
  "recharges",
  {
    ...tenantColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    /** Ours, unique within the operator; the `Recharge` bill's transaction number. */
    transactionCode: text("transaction_code").notNull(),
    way: text("way", { enum: RECHARGE_WAYS }).notNull(),
    /** Minor units; negative for a deduction. */
    amount: integer("amount").notNull(),
    balanceBefore: integer("balance_before").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    /** The payment channel's reference, for a recharge through a channel. */
    thirdPartyCode: text("third_party_code"),
    /** Who recharged by hand (ADMIN): the account and its name at the time. */
    administratorId: integer("administrator_id").references(() => accounts.id),
    administrator: text("administrator"),
    remark: text("remark"),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    uniqueIndex("recharges_operator_code_uq").on(t.operatorId, t.transactionCode),
    // The list: newest first, alone or by customer or way.
    index("recharges_operator_created_idx").on(t.operatorId, t.createdAt),
    index("recharges_operator_customer_idx").on(t.operatorId, t.customerId, t.createdAt),
    index("recharges_operator_way_idx").on(t.operatorId, t.way, t.createdAt),
    check("recharges_deduction_covered", sql`amount > 0 or balance_after >= 0`),
  ],
);
