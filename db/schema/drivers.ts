import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  BIND_STATUSES,
  CARD_STATUSES,
  CUSTOMER_STATUSES,
  DELIVERY_TYPES,
  GENDERS,
  MEMBER_LEVELS,
  PAY_WAYS,
} from "../../domain/schemas/drivers";
import { points } from "./equipment";
import { tenantColumns, timestamps } from "./tenancy";

/**
 * Customers: the drivers of an operator (docs/rules/drivers.md "Customers"). Money in minor units
 * of the operator's currency (docs/decisions/0005-money-in-minor-units.md): `balance` moves only
 * through recharges and billing. A customer belongs to at most one group (`group_id`), because a
 * tag has at most one parent tag (OCPP 1.6 §7.30 IdTagInfo.parentIdTag).
 */
export const customers = sqliteTable(
  "customers",
  {
    ...tenantColumns(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    gender: text("gender", { enum: GENDERS }).notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    /** ISO 3166-1 alpha-2. */
    country: text("country").notNull(),
    city: text("city"),
    zipCode: text("zip_code").notNull(),
    district: text("district"),
    street: text("street"),
    houseNumber: text("house_number"),
    state: text("state"),
    complement: text("complement"),
    cpf: text("cpf"),
    idCard: text("id_card"),
    avatarKey: text("avatar_key"),
    evModel: text("ev_model").notNull(),
    carPlate: text("car_plate"),
    carBrand: text("car_brand"),
    carModel: text("car_model"),
    memberLevel: text("member_level", { enum: MEMBER_LEVELS }).notNull().default("NORMAL"),
    /** Until when a SILVER or GOLD level is paid (docs/rules/wallets.md "Membership"); null for NORMAL. */
    memberUntil: integer("member_until", { mode: "timestamp_ms" }),
    balance: integer("balance").notNull().default(0),
    overdraftCredit: integer("overdraft_credit").notNull().default(0),
    payWay: text("pay_way", { enum: PAY_WAYS }).notNull().default("PERSONAL"),
    groupId: integer("group_id").references((): AnySQLiteColumn => customerGroups.id),
    /** False: the customer charges only at the points of `customer_points`. */
    chargeAllPoint: integer("charge_all_point", { mode: "boolean" }).notNull().default(true),
    status: text("status", { enum: CUSTOMER_STATUSES }).notNull().default("NORMAL"),
    ...timestamps(),
  },
  (t) => [
    // One customer per e-mail address within an operator, compared as mail hosts do (ASCII case-insensitive).
    uniqueIndex("customers_operator_email_uq").on(t.operatorId, sql`lower(${t.email})`),
    index("customers_operator_status_idx").on(t.operatorId, t.status),
    index("customers_operator_group_idx").on(t.operatorId, t.groupId),
    index("customers_operator_level_idx").on(t.operatorId, t.memberLevel),
  ],
);

/** The points a customer with `charge_all_point` false may charge at (docs/rules/drivers.md "Who may charge"). */
export const customerPoints = sqliteTable(
  "customer_points",
  {
    ...tenantColumns(),
    customerId: integer("customer_id").notNull().references(() => customers.id),
    pointId: integer("point_id").notNull().references(() => points.id),
  },
  (t) => [uniqueIndex("customer_points_customer_point_uq").on(t.operatorId, t.customerId, t.pointId)],
);

/**
 * Customer groups (docs/rules/drivers.md "Customer groups"). The code is the members' parent id
 * tag, unique within the operator and compared case-insensitively as OCPP compares id tags
 * (OCPP 1.6 §7.28 IdToken). Members are the customers whose `group_id` names the group; the
 * leader is one of them.
 */
export const customerGroups = sqliteTable(
  "customer_groups",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    leaderId: integer("leader_id").references((): AnySQLiteColumn => customers.id),
    deductionAccount: text("deduction_account"),
    deductionEmail: text("deduction_email"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("customer_groups_operator_code_uq").on(t.operatorId, sql`upper(${t.code})`)],
);

/**
 * RFID cards: the card registry Authorize and StartTransaction read (docs/rules/drivers.md
 * "RFID cards", docs/decisions/0018-rfid-cards-are-the-tag-registry.md). The id tag is unique
 * within the operator, case-insensitively (OCPP 1.6 §7.28 IdToken); lookups compare
 * `upper(id_tag)` so that they use the unique index. A card is bound exactly when it has an owner.
 */
export const rfCards = sqliteTable(
  "rf_cards",
  {
    ...tenantColumns(),
    cardName: text("card_name"),
    idTag: text("id_tag").notNull(),
    status: text("status", { enum: CARD_STATUSES }).notNull().default("VALID"),
    bindStatus: text("bind_status", { enum: BIND_STATUSES }).notNull().default("UNBIND"),
    customerId: integer("customer_id").references(() => customers.id),
    expiryDate: integer("expiry_date", { mode: "timestamp_ms" }),
    deliveryType: text("delivery_type", { enum: DELIVERY_TYPES }).notNull(),
    pickupNumber: text("pickup_number"),
    pickupPhone: text("pickup_phone"),
    pickupAddress: text("pickup_address"),
    trackingNumber: text("tracking_number"),
    recipientName: text("recipient_name"),
    recipientPhone: text("recipient_phone"),
    recipientAddress: text("recipient_address"),
    /** The lost card this one replaced: its history continues here (docs/rules/drivers.md "Lost cards"). */
    replacesCardId: integer("replaces_card_id"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("rf_cards_operator_tag_uq").on(t.operatorId, sql`upper(${t.idTag})`),
    index("rf_cards_operator_customer_idx").on(t.operatorId, t.customerId),
    index("rf_cards_operator_status_idx").on(t.operatorId, t.status, t.bindStatus),
    // A lost card's replacement is found from the old card (docs/rules/drivers.md "Lost cards").
    index("rf_cards_operator_replaces_idx").on(t.operatorId, t.replacesCardId),
    check("rf_cards_bound_has_owner", sql`(${t.bindStatus} = 'BIND') = (${t.customerId} IS NOT NULL)`),
  ],
);
