import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { customers } from "./drivers";
import { points } from "./equipment";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * The texts an operator publishes to drivers, one per kind and language
 * (docs/rules/content.md "Disclaimer and privacy policy"): the disclaimer and the privacy policy.
 */
export const contentTexts = sqliteTable(
  "content_texts",
  {
    ...tenantColumns(),
    kind: text("kind", { enum: ["DISCLAIMER", "PRIVACY_POLICY"] }).notNull(),
    lang: text("lang").notNull(),
    content: text("content").notNull(),
    updatedBy: text("updated_by"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("content_texts_operator_kind_lang_idx").on(t.operatorId, t.kind, t.lang)],
);

/**
 * Drivers' feedback (docs/rules/content.md "Feedback"): UNPROCESSED until someone answers it,
 * then PROCESSED with the reply, who replied and when.
 */
export const feedback = sqliteTable(
  "feedback",
  {
    ...tenantColumns(),
    customerId: integer("customer_id").references(() => customers.id),
    creator: text("creator").notNull(),
    content: text("content").notNull(),
    status: text("status", { enum: ["UNPROCESSED", "PROCESSED"] }).notNull().default("UNPROCESSED"),
    reply: text("reply"),
    processedBy: text("processed_by"),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }),
    /** Sent from a public page: the charger (its page) or the session (its receipt) it is about. */
    pointId: integer("point_id").references(() => points.id),
    transactionId: integer("transaction_id"),
    /** How the driver asked to be answered, if they did. */
    contact: text("contact"),
    /** The client it came from, what the public form's limits count (docs/rules/content.md "Feedback"). */
    client: text("client"),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    // Feedback list of one operator, newest first, optionally by status.
    index("feedback_operator_created_idx").on(t.operatorId, t.createdAt),
    index("feedback_operator_status_idx").on(t.operatorId, t.status, t.createdAt),
    // The public form's limits: per charger, per receipt, per client, within a window.
    index("feedback_point_created_idx").on(t.pointId, t.createdAt),
    index("feedback_transaction_created_idx").on(t.transactionId, t.createdAt),
    index("feedback_client_created_idx").on(t.client, t.createdAt),
  ],
);
