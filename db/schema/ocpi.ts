import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CDR_BILLING_STATUSES } from "../../domain/ocpi/cdr-price";
import { CDR_HOLD_REASONS } from "../../domain/ocpi/cdr-checks";
import { PARTNER_ROLES } from "../../domain/ocpi/roles";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * OCPI 2.2.1 roaming as an eMSP (docs/rules/ocpi.md). A platform is one partner connection (a
 * CPO or a hub) of one operator; the parties are the roles its credentials named; locations,
 * sessions, CDRs and tariffs are what the partner pushed or we pulled, kept per platform with the
 * OCPI object itself in `data` (the protocol's own JSON, validated before it is stored).
 */
export const ocpiPlatforms = sqliteTable(
  "ocpi_platforms",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    /** The partner's versions URL (where we start a registration). */
    versionsUrl: text("versions_url"),
    /**
     * The token we send the partner: its token A until the handshake, then its token C
     * (OCPI 2.2.1 §7.1). Sealed (docs/decisions/0036-secrets-sealed-with-aes-gcm.md).
     */
    partnerToken: text("partner_token"),
    /**
     * SHA-256 of the token the partner sends us: a token A we issued, then token B or C after the
     * handshake. Unique across operators: the token names its platform, the platform its operator.
     */
    ourTokenHash: text("our_token_hash"),
    /** `A`: registration only (OCPI 2.2.1 §7.1); `B`: a registered partner's token. */
    ourTokenKind: text("our_token_kind", { enum: ["A", "B"] }),
    registerStatus: text("register_status", { enum: ["Registered", "Unregistered"] }).notNull().default("Unregistered"),
    /**
     * The partner's role, which decides which of our modules its token reaches (docs/rules/ocpi.md
     * "CPO role"); its credentials must name it when it registers.
     */
    role: text("role", { enum: PARTNER_ROLES }).notNull().default("CPO"),
    version: text("version"),
    partnerCountryCode: text("partner_country_code"),
    partnerPartyId: text("partner_party_id"),
    /** The partner's endpoints of the negotiated version: `[{ identifier, role, url }]`. */
    endpoints: text("endpoints", { mode: "json" }).$type<{ identifier: string; role: string; url: string }[]>(),
    /** The last registration failure, as the partner or the network gave it. */
    lastError: text("last_error"),
    registeredAt: integer("registered_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [
    index("ocpi_platforms_operator_idx").on(t.operatorId, t.id),
    uniqueIndex("ocpi_platforms_token_uq").on(t.ourTokenHash),
  ],
);

/** The parties behind a platform (its credentials' roles; behind a hub, hubclientinfo). */
export const ocpiParties = sqliteTable(
  "ocpi_parties",
  {
    ...tenantColumns(),
    platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
    countryCode: text("country_code").notNull(),
    partyId: text("party_id").notNull(),
    role: text("role").notNull(),
    businessName: text("business_name"),
    website: text("website"),
    /** hubclientinfo's ConnectionStatus; `CONNECTED` for a direct partner's own roles. */
    status: text("status").notNull().default("CONNECTED"),
    lastUpdated: integer("last_updated", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("ocpi_parties_operator_party_uq").on(t.operatorId, t.platformId, t.countryCode, t.partyId, t.role)],
);

/** Columns every object a partner pushes has: who sent it, its OCPI identity, when it changed. */
const pushed = () => ({
  ...tenantColumns(),
  platformId: integer("platform_id").notNull().references(() => ocpiPlatforms.id),
  countryCode: text("country_code").notNull(),
  partyId: text("party_id").notNull(),
  /** The object's `last_updated`: an older update never overwrites a newer one (OCPI 2.2.1 §3.4). */
  lastUpdated: integer("last_updated", { mode: "timestamp_ms" }).notNull(),
  receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
});

export const ocpiLocations = sqliteTable(
  "ocpi_locations",
  {
    ...pushed(),
    locationId: text("location_id").notNull(),
    name: text("name"),
    city: text("city").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex("ocpi_locations_object_uq").on(t.operatorId, t.platformId, t.countryCode, t.partyId, t.locationId),
    // The list: one operator's newest first, by partner.
    index("ocpi_locations_operator_updated_idx").on(t.operatorId, t.lastUpdated),
  ],
);

export const ocpiSessions = sqliteTable(
  "ocpi_sessions",
  {
    ...pushed(),
    sessionId: text("session_id").notNull(),
    status: text("status").notNull(),
    tokenUid: text("token_uid").notNull(),
    locationId: text("location_id").notNull(),
    startAt: integer("start_at", { mode: "timestamp_ms" }).notNull(),
    endAt: integer("end_at", { mode: "timestamp_ms" }),
    /** kWh as the partner sent it (a decimal number kept as text: no float arithmetic here). */
    kwh: text("kwh").notNull(),
    currency: text("currency").notNull(),
    totalCost: text("total_cost"),
    cdrId: text("cdr_id"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex("ocpi_sessions_object_uq").on(t.operatorId, t.platformId, t.countryCode, t.partyId, t.sessionId),
    index("ocpi_sessions_operator_start_idx").on(t.operatorId, t.startAt),
    index("ocpi_sessions_operator_token_idx").on(t.operatorId, sql`upper(${t.tokenUid})`),
  ],
);

export const ocpiCdrs = sqliteTable(
  "ocpi_cdrs",
  {
    ...pushed(),
    cdrId: text("cdr_id").notNull(),
    sessionId: text("session_id"),
    tokenUid: text("token_uid").notNull(),
    locationId: text("location_id").notNull(),
    startAt: integer("start_at", { mode: "timestamp_ms" }).notNull(),
    endAt: integer("end_at", { mode: "timestamp_ms" }).notNull(),
    kwh: text("kwh").notNull(),
    currency: text("currency").notNull(),
    totalCost: text("total_cost").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /**
     * What billing made of the CDR (docs/rules/ocpi.md "CDRs billed to the wallet"): PENDING until
     * the billing job has run; BILLED to the driver's wallet; flagged and not billed when its token
     * is none of ours (UNKNOWN_TOKEN), its currency is not the operator's (CURRENCY_MISMATCH, a
     * record kept without a debit) or it is a credit CDR (CREDIT).
     */
    billingStatus: text("billing_status", { enum: CDR_BILLING_STATUSES }).notNull().default("PENDING"),
    /**
     * The charge record it became (docs/decisions/0063-roaming-charge-records.md); for a credit
     * CDR given back (CREDITED), the record of the CDR it credits.
     */
    chargeRecordId: integer("charge_record_id"),
    /** Why billing held it for the operator's review (docs/rules/ocpi.md "What a CDR may bill"); kept after the review. */
    holdReason: text("hold_reason", { enum: CDR_HOLD_REASONS }),
    /** Minor units credit CDRs have given back of this CDR's debit so far: never above the debit. */
    credited: integer("credited").notNull().default(0),
  },
  (t) => [
    uniqueIndex("ocpi_cdrs_object_uq").on(t.operatorId, t.platformId, t.countryCode, t.partyId, t.cdrId),
    index("ocpi_cdrs_operator_start_idx").on(t.operatorId, t.startAt),
    // The cron's CDRs still waiting for billing, across operators.
    index("ocpi_cdrs_billing_idx").on(t.billingStatus, t.receivedAt),
  ],
);

export const ocpiTariffs = sqliteTable(
  "ocpi_tariffs",
  {
    ...pushed(),
    tariffId: text("tariff_id").notNull(),
    currency: text("currency").notNull(),
    type: text("type"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex("ocpi_tariffs_object_uq").on(t.operatorId, t.platformId, t.countryCode, t.partyId, t.tariffId),
    index("ocpi_tariffs_operator_updated_idx").on(t.operatorId, t.lastUpdated),
  ],
);
