import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { AD_HOC_STATUSES } from "../../domain/schemas/ad-hoc";
import { points } from "./equipment";
import { payments } from "./payments";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Ad-hoc sessions (docs/rules/payments.md "Ad-hoc payment"): a driver without an account pays by
 * card on a charger's public page. One row per attempt: the unguessable `handle` the page follows
 * it by, the one-time `idTag` the charger is started with, the card hold (`payment_id`, a
 * `PRE_AUTH` payment) and, once the charger started, its transaction.
 */
export const adHocSessions = sqliteTable(
  "ad_hoc_sessions",
  {
    ...tenantColumns(),
    handle: text("handle").notNull(),
    pointId: integer("point_id")
      .notNull()
      .references(() => points.id),
    connectorNo: integer("connector_no").notNull(),
    /** Upper-cased, as the registry compares tags (OCPP 1.6 §7.28). */
    idTag: text("id_tag").notNull(),
    email: text("email"),
    status: text("status", { enum: AD_HOC_STATUSES }).notNull(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    transactionId: integer("transaction_id"),
    /** The PaymentIntent's client secret, answered again to a repeated request. */
    clientSecret: text("client_secret"),
    /** The request's `Idempotency-Key` and the SHA-256 of its body. */
    requestKey: text("request_key"),
    fingerprint: text("fingerprint").notNull(),
    /** The client address the rate limit counts. */
    client: text("client").notNull(),
    error: text("error"),
    authorisedAt: integer("authorised_at", { mode: "timestamp_ms" }),
    stopAskedAt: integer("stop_asked_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [
    // The page's lookup; handles are unique across operators (the public address carries no operator).
    uniqueIndex("ad_hoc_sessions_handle_uq").on(t.handle),
    // The registry's lookup of a one-time tag.
    uniqueIndex("ad_hoc_sessions_operator_tag_uq").on(t.operatorId, t.idTag),
    // A repeated POST under the same Idempotency-Key.
    uniqueIndex("ad_hoc_sessions_operator_key_uq").on(t.operatorId, t.requestKey),
    // One live ad-hoc session per connector, even when two requests race.
    uniqueIndex("ad_hoc_sessions_live_connector_uq")
      .on(t.pointId, t.connectorNo)
      .where(sql`${t.status} in ('AWAITING_PAYMENT', 'STARTING', 'CHARGING')`),
    // The sweep of live sessions.
    index("ad_hoc_sessions_operator_status_idx").on(t.operatorId, t.status, t.createdAt),
    // The rate limit per client.
    index("ad_hoc_sessions_client_idx").on(t.client, t.createdAt),
    // The session behind a transaction (capture, receipt mail).
    index("ad_hoc_sessions_operator_transaction_idx").on(t.operatorId, t.transactionId),
  ],
);
