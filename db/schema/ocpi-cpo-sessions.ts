import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CPO_AUTH_METHODS, CPO_DELIVERY_STATES } from "../../domain/schemas/ocpi/cpo-sessions";
import { SESSION_STATUSES } from "../../domain/schemas/ocpi/sessions";
import { ocpiPlatforms } from "./ocpi";
import { tenantColumns } from "./tenancy";

/**
 * Partners' drivers at our chargers (docs/rules/ocpi.md "Partners' drivers at our chargers"): the
 * tokens eMSPs push to us, the roaming sessions and CDRs we push to them (each with its delivery
 * state), and the commands they send us.
 */

/** A token an eMSP pushed (OCPI 2.2.1 §12.2.2), the object kept whole in `data`. */
export const ocpiCpoTokens = sqliteTable(
  "ocpi_cpo_tokens",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    countryCode: text("country_code").notNull(),
    partyId: text("party_id").notNull(),
    uid: text("uid").notNull(),
    type: text("type").notNull(),
    contractId: text("contract_id").notNull(),
    whitelist: text("whitelist").notNull(),
    valid: integer("valid", { mode: "boolean" }).notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    lastUpdated: integer("last_updated", { mode: "timestamp_ms" }).notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("ocpi_cpo_tokens_object_uq").on(t.operatorId, t.platformId, t.countryCode, t.partyId, t.uid, t.type),
    // A charger's Authorize: the uid within the operator, whatever its case (OCPP 1.6 §7.28).
    index("ocpi_cpo_tokens_operator_uid_idx").on(t.operatorId, sql`upper(${t.uid})`),
    // The console's list, newest first.
    index("ocpi_cpo_tokens_operator_received_idx").on(t.operatorId, t.receivedAt),
  ],
);

/**
 * A roaming driver's session at our charger (OCPI 2.2.1 §9.3.1): PENDING from a START_SESSION
 * until the charger starts, then tied to our transaction; its `id` is the OCPI session id.
 */
export const ocpiCpoSessions = sqliteTable(
  "ocpi_cpo_sessions",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    tokenCountryCode: text("token_country_code").notNull(),
    tokenPartyId: text("token_party_id").notNull(),
    tokenUid: text("token_uid").notNull(),
    tokenType: text("token_type").notNull(),
    contractId: text("contract_id").notNull(),
    authMethod: text("auth_method", { enum: CPO_AUTH_METHODS }).notNull(),
    authorizationReference: text("authorization_reference"),
    pointId: integer("point_id").notNull(),
    connectorNo: integer("connector_no").notNull(),
    locationId: text("location_id").notNull(),
    evseUid: text("evse_uid").notNull(),
    connectorId: text("connector_id").notNull(),
    transactionId: integer("transaction_id"),
    status: text("status", { enum: SESSION_STATUSES }).notNull(),
    energyWh: integer("energy_wh").notNull().default(0),
    /** The running or final cost in minor units of `currency`, without and with VAT. */
    costExcl: integer("cost_excl"),
    costIncl: integer("cost_incl"),
    currency: text("currency").notNull(),
    startAt: integer("start_at", { mode: "timestamp_ms" }).notNull(),
    endAt: integer("end_at", { mode: "timestamp_ms" }),
    pushState: text("push_state", { enum: CPO_DELIVERY_STATES }).notNull().default("PENDING"),
    pushError: text("push_error"),
    pushAttempts: integer("push_attempts").notNull().default(0),
    /** When the eMSP last took a PUT or PATCH of it: PATCHes are at most a minute apart. */
    pushedAt: integer("pushed_at", { mode: "timestamp_ms" }),
    lastUpdated: integer("last_updated", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("ocpi_cpo_sessions_transaction_uq").on(t.transactionId),
    // The console's list and the eMSPs' pull, newest first.
    index("ocpi_cpo_sessions_operator_start_idx").on(t.operatorId, t.startAt),
    // A START_SESSION's pending session found again by the charger's start at that point.
    index("ocpi_cpo_sessions_operator_point_idx").on(t.operatorId, t.pointId, t.status),
    // The cron's running sessions due for a PATCH, across operators.
    index("ocpi_cpo_sessions_status_idx").on(t.status, t.pushedAt),
    // The cron's sessions whose push the queue gave up on, across operators.
    index("ocpi_cpo_sessions_push_idx").on(t.pushState, t.lastUpdated),
  ],
);

/** A CDR we made of a roaming session (OCPI 2.2.1 §10.3.1), the object in `data`, pushed until accepted. */
export const ocpiCpoCdrs = sqliteTable(
  "ocpi_cpo_cdrs",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    sessionId: integer("session_id").notNull().references(() => ocpiCpoSessions.id),
    cdrId: text("cdr_id").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    currency: text("currency").notNull(),
    totalExcl: integer("total_excl").notNull(),
    totalIncl: integer("total_incl").notNull(),
    energyWh: integer("energy_wh").notNull(),
    startAt: integer("start_at", { mode: "timestamp_ms" }).notNull(),
    pushState: text("push_state", { enum: CPO_DELIVERY_STATES }).notNull().default("PENDING"),
    pushError: text("push_error"),
    pushAttempts: integer("push_attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    // One CDR per session, whatever delivers the billing message twice.
    uniqueIndex("ocpi_cpo_cdrs_session_uq").on(t.sessionId),
    uniqueIndex("ocpi_cpo_cdrs_operator_cdr_uq").on(t.operatorId, t.cdrId),
    // The console's list, the eMSPs' pull and the monthly settlement.
    index("ocpi_cpo_cdrs_operator_start_idx").on(t.operatorId, t.startAt),
    // The cron's CDRs due for another try, across operators.
    index("ocpi_cpo_cdrs_push_idx").on(t.pushState, t.nextAttemptAt),
  ],
);

/** A command an eMSP sent us (OCPI 2.2.1 §13.2.1), with the CommandResult we posted back. */
export const ocpiCpoCommands = sqliteTable(
  "ocpi_cpo_commands",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    command: text("command").notNull(),
    responseUrl: text("response_url").notNull(),
    request: text("request", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    response: text("response").notNull(),
    result: text("result"),
    resultError: text("result_error"),
    resultAt: integer("result_at", { mode: "timestamp_ms" }),
    sessionId: integer("session_id"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("ocpi_cpo_commands_operator_created_idx").on(t.operatorId, t.createdAt)],
);
