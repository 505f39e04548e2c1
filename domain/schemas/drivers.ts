/**
 * Drivers: customers, customer groups and RFID cards (docs/rules/drivers.md). The enums are shared
 * by the database schema, the API's bodies and the console's forms.
 */
export const GENDERS = ["MALE", "FEMALE", "OTHER"] as const;
export const MEMBER_LEVELS = ["NORMAL", "SILVER", "GOLD"] as const;
export const PAY_WAYS = ["PERSONAL", "LEADER"] as const;
/** A customer's user status: ABNORMAL may not charge (docs/rules/drivers.md "Who may charge"). */
export const CUSTOMER_STATUSES = ["NORMAL", "ABNORMAL"] as const;
export const CARD_STATUSES = ["VALID", "BLOCKED", "EXPIRED", "LOST"] as const;
export const BIND_STATUSES = ["BIND", "UNBIND"] as const;
export const DELIVERY_TYPES = ["TAKE", "SEND"] as const;

export type Gender = (typeof GENDERS)[number];
export type MemberLevel = (typeof MEMBER_LEVELS)[number];
export type PayWay = (typeof PAY_WAYS)[number];
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export type CardStatus = (typeof CARD_STATUSES)[number];
export type BindStatus = (typeof BIND_STATUSES)[number];
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
