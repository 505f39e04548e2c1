import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { customers } from "./drivers";
import { accountDeletionRequests } from "./maintenance";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * The receipt mail of a settled charge record (docs/rules/settings.md "Receipts by mail"): one row
 * per record once billing queued it, so that a record is mailed once however often billing meets it
 * or the queue delivers the message; the outcome of the last attempt stays on the row.
 */
export const receiptMails = sqliteTable(
  "receipt_mails",
  {
    ...tenantColumns(),
    transactionId: integer("transaction_id").notNull(),
    /** The address it went to (null until sent). */
    to: text("to_address"),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    /** Why nothing was sent (no e-mail any more) or the server's last refusal. */
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamps.createdAt(),
  },
  (t) => [uniqueIndex("receipt_mails_operator_transaction_uq").on(t.operatorId, t.transactionId)],
);

/**
 * A deletion request waiting for the code mailed to the customer (docs/rules/maintenance.md
 * "Account deletion"): the code is kept only as a keyed hash, for 15 minutes; the page holds the
 * random `ticket`. Every request of the public page leaves a row (code or not), which is what the
 * rate limits count, per operator and contact and per client address.
 */
export const deletionCodes = sqliteTable(
  "deletion_codes",
  {
    ...tenantColumns(),
    /** 128 random bits, hex: names the pending confirmation on the page. */
    ticket: text("ticket").notNull(),
    /** The e-mail (lower case) or phone the driver typed. */
    contact: text("contact").notNull(),
    client: text("client").notNull(),
    customerId: integer("customer_id").references(() => customers.id),
    reason: text("reason"),
    /** HMAC-SHA-256 of the ticket and the code under the password pepper; null when no code was sent. */
    codeHash: text("code_hash"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    /** The request the operator sees, once confirmed (or at once when no code was needed). */
    requestId: integer("request_id").references(() => accountDeletionRequests.id),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    uniqueIndex("deletion_codes_ticket_uq").on(t.ticket),
    index("deletion_codes_operator_contact_idx").on(t.operatorId, t.contact, t.createdAt),
    index("deletion_codes_client_idx").on(t.client, t.createdAt),
  ],
);
