import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./access";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Idempotency keys of money-moving requests (docs/rules/input.md "Idempotency keys"): one row per
 * operator, account and `Idempotency-Key`, claimed by an insert before the request runs so that
 * two identical requests at once cannot both move money, then holding the first answer for 24 h.
 * `fingerprint` is the SHA-256 of the method, path and body: the same key with another request
 * is refused.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    ...tenantColumns(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** The first answer's HTTP status; null while the first request still runs. */
    status: integer("status"),
    /** The first answer's JSON body, answered again to a repeat. */
    answer: text("answer"),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    // The claim and the repeat's lookup; the same key of two accounts or operators never meets.
    uniqueIndex("idempotency_keys_operator_account_key_uq").on(t.operatorId, t.accountId, t.key),
    // Housekeeping drops keys older than 24 h across operators.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
