import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ENVIRONMENTS, PAYMENT_KINDS, PAYMENT_STATUSES } from "../../domain/schemas/payments";
import { customers } from "./drivers";
import { bills } from "./finance";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Payment channels (docs/rules/payments.md "Channels"): one row per operator and channel type
 * (the unique index is what refuses a second one). Credentials are one JSON object sealed with
 * AES-GCM under `SECRETS_KEY` (docs/rules/settings.md "Secrets at rest"); nothing else is secret.
 */
export const paymentChannels = sqliteTable(
  "payment_channels",
  {
    ...tenantColumns(),
    /** 0 PayPal … 4 Stripe … 8 MSU (domain/schemas/payments.ts CHANNEL_TYPES). */
    type: integer("type").notNull(),
    name: text("name").notNull(),
    environment: text("environment", { enum: ENVIRONMENTS }).notNull(),
    bankId: text("bank_id").notNull().default(""),
    bankName: text("bank_name").notNull().default(""),
    gateway: text("gateway").notNull().default(""),
    currentAccount: text("current_account").notNull().default(""),
    /** The smallest amount the channel takes, minor units. */
    minimumValue: integer("minimum_value").notNull().default(0),
    currency: text("currency").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    /** `v1.<sealed JSON of the credentials>`. */
    credentials: text("credentials"),
    ...timestamps(),
  },
  // Serves the list (by operator) and refuses a second channel of one type.
  (t) => [uniqueIndex("payment_channels_operator_type_uq").on(t.operatorId, t.type)],
);

/**
 * A customer's card on file with a processor: the processor's customer and payment method
 * references, never a card number (docs/rules/payments.md "Cards on file").
 */
export const paymentCards = sqliteTable(
  "payment_cards",
  {
    ...tenantColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    channelType: integer("channel_type").notNull(),
    customerRef: text("customer_ref").notNull(),
    paymentMethodRef: text("payment_method_ref").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("payment_cards_customer_uq").on(t.operatorId, t.customerId, t.channelType)],
);

/**
 * One payment at a processor (docs/rules/payments.md "Payments"): a top-up behind a `Recharge`
 * bill, or a session's pre-authorisation captured at billing. `intentRef` is the processor's id
 * (Stripe's PaymentIntent), how its webhooks find the row; `attempt` names the idempotency key of
 * the next call, so a retry is a new request and a repeated delivery the same one.
 */
export const payments = sqliteTable(
  "payments",
  {
    ...tenantColumns(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    channelId: integer("channel_id")
      .notNull()
      .references(() => paymentChannels.id),
    kind: text("kind", { enum: PAYMENT_KINDS }).notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    /** Asked for (a top-up) or authorised (a pre-authorisation), minor units. */
    amount: integer("amount").notNull(),
    captured: integer("captured").notNull().default(0),
    refunded: integer("refunded").notNull().default(0),
    currency: text("currency").notNull(),
    intentRef: text("intent_ref"),
    billId: integer("bill_id").references(() => bills.id),
    transactionId: integer("transaction_id"),
    attempt: integer("attempt").notNull().default(1),
    /** The processor's last refusal, for the operator who retries. */
    error: text("error"),
    ...timestamps(),
  },
  (t) => [
    // The webhook's lookup.
    uniqueIndex("payments_intent_uq").on(t.operatorId, t.intentRef),
    // The payment behind a bill (a retry) and behind a session (the capture).
    index("payments_operator_bill_idx").on(t.operatorId, t.billId),
    index("payments_operator_transaction_idx").on(t.operatorId, t.transactionId),
    // The list, newest first, by status or by customer.
    index("payments_operator_status_idx").on(t.operatorId, t.status, t.createdAt),
    index("payments_operator_customer_idx").on(t.operatorId, t.customerId, t.createdAt),
  ],
);

/**
 * The processors' webhook events an operator has applied, by the processor's event id
 * (docs/rules/payments.md "PayPal"): a delivery repeated or replayed is answered and changes
 * nothing. One row per event.
 */
export const paymentWebhookEvents = sqliteTable(
  "payment_webhook_events",
  {
    ...tenantColumns(),
    channelType: integer("channel_type").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** What applying it did: `succeeded`, `mismatch`, `unknown`, … */
    outcome: text("outcome").notNull(),
    createdAt: timestamps.createdAt(),
  },
  // The webhook's lookup of a delivery seen before, and what refuses a second row for it.
  (t) => [uniqueIndex("payment_webhook_events_operator_event_uq").on(t.operatorId, t.channelType, t.eventId)],
);
