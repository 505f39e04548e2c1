import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { PRICING_PHASES } from "../../domain/schemas/bills";
import type { RoamingFacts } from "../../domain/ocpi/cdr-price";
import { CHARGE_RECORD_SOURCES, CHARGE_RECORD_STATES, UNSETTLED_REASONS } from "../../domain/schemas/records";
import { operators, timestamps } from "./tenancy";

/**
 * Charge records (docs/rules/records.md "Charge records"): one per transaction, made when the
 * charger's StartTransaction is recorded, keyed by the transaction's id. The transaction keeps
 * what the charger said (meters, stop, its own state); the record keeps what the business adds:
 * its state (docs/rules/records.md "Record states"), its money in minor units of `currency`
 * (docs/decisions/0005-money-in-minor-units.md), null until the billing job prices it, and the
 * public codes of its receipt and bill. The facts a list filters on (point, tag, customer, start
 * time) are copied here at creation, so every filter is served by an index of this table alone
 * (docs/decisions/0025-charge-records-beside-transactions.md).
 *
 * A roaming record (a partner's CDR billed to one of our drivers) has no transaction of ours: its
 * number is `ROAMING_RECORD_BASE` plus its CDR's row, above every OCPP transaction id, so the key
 * has no foreign key to `transactions` (docs/decisions/0063-roaming-charge-records.md).
 */
export const chargeRecords = sqliteTable(
  "charge_records",
  {
    /** The transaction's id; for a roaming record, its own number (docs/decisions/0063-roaming-charge-records.md). */
    transactionId: integer("transaction_id").primaryKey(),
    operatorId: integer("operator_id")
      .notNull()
      .references(() => operators.id),
    pointId: integer("point_id").notNull(),
    connectorNo: integer("connector_no").notNull(),
    /** The OCPP 2.0.1 charger's own transaction id, as on its transaction; null for 1.6 and roaming. */
    chargerTransactionId: text("charger_transaction_id"),
    idTag: text("id_tag").notNull(),
    /** The customer behind the tag, when one is known (customers come with the users' screens). */
    customerId: integer("customer_id"),
    startAt: integer("start_at", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: CHARGE_RECORD_STATES }).notNull().default("CHARGING"),
    currency: text("currency").notNull(),
    /** The strategy version the billing job priced with. */
    strategyVersionId: integer("strategy_version_id"),
    electricCost: integer("electric_cost"),
    serviceCost: integer("service_cost"),
    reservationCost: integer("reservation_cost"),
    /** Idle fees during and after the charge; `occupancyCost` is their sum (the receipt shows them apart). */
    occupancyCost: integer("occupancy_cost"),
    idleDuringCost: integer("idle_during_cost"),
    idleAfterCost: integer("idle_after_cost"),
    discountCost: integer("discount_cost"),
    /** `discountCost` by source, in the order billing applies them (docs/rules/discounts.md "Billing order"). */
    memberDiscountCost: integer("member_discount_cost"),
    cardDiscountCost: integer("card_discount_cost"),
    voucherCost: integer("voucher_cost"),
    taxCost: integer("tax_cost"),
    totalCost: integer("total_cost"),
    paidCost: integer("paid_cost"),
    balanceBefore: integer("balance_before"),
    balanceAfter: integer("balance_after"),
    /** Who paid: the account debited, when one was. */
    paidBy: text("paid_by"),
    /** Why a final price was left RECORD_UNSETTLED (docs/rules/billing.md "Paying from the balance off"); null otherwise. */
    unsettledReason: text("unsettled_reason", { enum: UNSETTLED_REASONS }),
    unplugAt: integer("unplug_at", { mode: "timestamp_ms" }),
    reservationStartAt: integer("reservation_start_at", { mode: "timestamp_ms" }),
    reservationEndAt: integer("reservation_end_at", { mode: "timestamp_ms" }),
    pricedAt: integer("priced_at", { mode: "timestamp_ms" }),
    /**
     * PROVISIONAL while an idle-after fee awaits the unplug (nothing debited), FINAL once priced for
     * good; the final pricing is conditioned on PROVISIONAL, so it runs once
     * (docs/rules/billing.md "Provisional and final").
     */
    pricingPhase: text("pricing_phase", { enum: PRICING_PHASES }),
    /** The public token of the receipt pages (/tourist/…): 128 random bits, never the record's number. */
    receiptToken: text("receipt_token").notNull(),
    /** The public code of the bill page (/valina-bill/…): 128 random bits. */
    billCode: text("bill_code").notNull(),
    /**
     * Delivery of the settled record to the operator's bill-push URL (docs/rules/settings.md
     * "Bill push"): when it was accepted, else the last error and the attempts so far.
     */
    billPushedAt: integer("bill_pushed_at", { mode: "timestamp_ms" }),
    billPushError: text("bill_push_error"),
    billPushAttempts: integer("bill_push_attempts").notNull().default(0),
    /** While a delivery of the push is under way: two deliveries of one queue message never both push (workers/services/billing/deliveries.ts `claimAttempt`). */
    billPushClaimedAt: integer("bill_push_claimed_at", { mode: "timestamp_ms" }),
    /**
     * The fiscal invoice of the settled record (docs/rules/settings.md "Invoice system"): the
     * number the invoice system answered, else its last error, and the attempts so far.
     */
    invoiceNumber: text("invoice_number"),
    invoicedAt: integer("invoiced_at", { mode: "timestamp_ms" }),
    invoiceError: text("invoice_error"),
    invoiceAttempts: integer("invoice_attempts").notNull().default(0),
    /** While a delivery of the invoice request is under way (as `billPushClaimedAt`). */
    invoiceClaimedAt: integer("invoice_claimed_at", { mode: "timestamp_ms" }),
    /** `OCPP`: a session at our chargers; `OCPI`: a partner's CDR (docs/rules/ocpi.md "CDRs billed to the wallet"). */
    source: text("source", { enum: CHARGE_RECORD_SOURCES }).notNull().default("OCPP"),
    /** A roaming record's partner, CDR, place and the partner's cost lines; null for our own sessions. */
    roaming: text("roaming", { mode: "json" }).$type<RoamingFacts>(),
    /**
     * A session at our charger by a partner's driver: the eMSP platform that owes it, never a
     * wallet (docs/rules/billing.md "Roaming at our chargers"); null otherwise.
     */
    roamingPlatformId: integer("roaming_platform_id"),
    ...timestamps(),
  },
  (t) => [
    // The list's order, newest first, and its period filter (docs/rules/lists.md "Filters and sorting").
    index("charge_records_operator_start_idx").on(t.operatorId, t.startAt),
    // One index per exact filter, each leading with the operator and keeping the list's order.
    index("charge_records_operator_point_idx").on(t.operatorId, t.pointId, t.startAt),
    index("charge_records_operator_tag_idx").on(t.operatorId, t.idTag, t.startAt),
    index("charge_records_operator_status_idx").on(t.operatorId, t.status, t.startAt),
    index("charge_records_operator_customer_idx").on(t.operatorId, t.customerId, t.startAt),
    // A partner's sessions at our chargers, by month (the roaming settlement).
    index("charge_records_operator_roaming_idx").on(t.operatorId, t.roamingPlatformId, t.startAt),
    // The cron's provisional records awaiting their final price, across operators.
    index("charge_records_pricing_phase_idx").on(t.pricingPhase),
    uniqueIndex("charge_records_receipt_token_uq").on(t.receiptToken),
    uniqueIndex("charge_records_bill_code_uq").on(t.billCode),
  ],
);

/**
 * Daily totals per point (docs/rules/records.md "Daily totals"): what the dashboard and the
 * point's monthly report read instead of scanning charge records. `day` is the local date
 * (`yyyy-MM-dd`) of the sessions' start in the operator's time zone; the billing job adds each
 * billed session once. `revenue` is the sum of the records' `totalCost` in the operator's
 * currency's minor units; `pricedSessions` counts the sessions that had a price. `records` counts
 * the charge records made that day (running, abnormal and billed alike), added in the batch that
 * makes each record: the unfiltered record list's total (docs/rules/records.md "Fast at scale").
 */
export const dailyChargeTotals = sqliteTable(
  "daily_charge_totals",
  {
    operatorId: integer("operator_id")
      .notNull()
      .references(() => operators.id),
    day: text("day").notNull(),
    pointId: integer("point_id").notNull(),
    sessions: integer("sessions").notNull().default(0),
    energyWh: integer("energy_wh").notNull().default(0),
    durationS: integer("duration_s").notNull().default(0),
    revenue: integer("revenue").notNull().default(0),
    pricedSessions: integer("priced_sessions").notNull().default(0),
    records: integer("records").notNull().default(0),
  },
  (t) => [
    // One row per operator, day and point: the dashboard reads a day range of one operator.
    uniqueIndex("daily_charge_totals_uq").on(t.operatorId, t.day, t.pointId),
    // A point's month (reportByPoint).
    index("daily_charge_totals_point_idx").on(t.operatorId, t.pointId, t.day),
  ],
);
