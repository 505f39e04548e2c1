import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { BILL_PHASES, BILL_STATUSES, BILL_TYPES } from "../../domain/schemas/bills";
import { MEMBER_LEVELS } from "../../domain/schemas/drivers";
import { customers } from "./drivers";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Bills: every movement of a customer's balance, one row each, for the operator to audit
 * (docs/rules/billing.md "Bills"). Money in minor units of the operator's currency
 * (docs/decisions/0005-money-in-minor-units.md). A charging bill is written by the billing job in
 * the same D1 batch as the debit; its unique key (transaction, phase) is what keeps two jobs from
 * both debiting (docs/decisions/0043-one-debit-per-transaction-and-phase.md).
 */
export const bills = sqliteTable(
  "bills",
  {
    ...tenantColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    /**
     * What moved, positive: a debit for `Charging` and `Member`, a credit for a `Recharge` top-up;
     * a `Recharge` deduction is negative (docs/rules/wallets.md "Recharges").
     */
    cost: integer("cost").notNull(),
    balanceBefore: integer("balance_before").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    memberLevelBefore: text("member_level_before", { enum: MEMBER_LEVELS }),
    memberLevelAfter: text("member_level_after", { enum: MEMBER_LEVELS }),
    type: text("type", { enum: BILL_TYPES }).notNull(),
    paymentMethod: text("payment_method").notNull(),
    status: text("status", { enum: BILL_STATUSES }).notNull(),
    remark: text("remark"),
    /** The charging transaction's number, or the payment channel's reference. */
    transactionNumber: text("transaction_number"),
    /** Charging bills: the transaction and the pricing phase that billed it (the unique key). */
    transactionId: integer("transaction_id"),
    phase: text("phase", { enum: BILL_PHASES }),
    /** Whether the balance has moved by this bill (set in the batch that moves it). */
    applied: integer("applied", { mode: "boolean" }).notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("bills_transaction_phase_uq").on(t.operatorId, t.transactionId, t.phase),
    index("bills_operator_created_idx").on(t.operatorId, t.createdAt),
    index("bills_operator_customer_idx").on(t.operatorId, t.customerId, t.createdAt),
    index("bills_operator_status_idx").on(t.operatorId, t.status, t.createdAt),
    // The bill a recharge or a membership change wrote, found by its number in the same batch.
    index("bills_operator_number_idx").on(t.operatorId, t.transactionNumber),
    // The bill list by type (docs/rules/wallets.md "Bills").
    index("bills_operator_type_idx").on(t.operatorId, t.type, t.createdAt),
    // A membership fee is paid from the balance alone: a fee that would take it below zero fails its batch.
    // A change without a fee (NORMAL, an expiry) is never refused, whatever the balance.
    check("bills_member_covered", sql`type <> 'Member' or cost <= 0 or balance_after >= 0`),
  ],
);
