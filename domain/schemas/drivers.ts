import { z } from "zod";
import { checkAmount, toMinorUnits } from "../amounts";
import { isCountryCode } from "../countries";
import { pageQuery } from "./account-service";
import { recordId, wholeNumber } from "./numbers";

/**
 * Drivers: customers, customer groups and RFID cards (docs/rules/drivers.md). The enums are shared
 * by the database schema, the API's bodies and the console's forms.
 */
/** UNSTATED: the customer did not say, the default where the operator does not require a gender (ISO/IEC 5218 "not known"). */
export const GENDERS = ["MALE", "FEMALE", "OTHER", "UNSTATED"] as const;
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

export const gender = z.enum(GENDERS, { error: "drivers.validation.gender" });
export const memberLevel = z.enum(MEMBER_LEVELS, { error: "drivers.validation.memberLevel" });
export const payWay = z.enum(PAY_WAYS, { error: "drivers.validation.payWay" });
export const customerStatus = z.enum(CUSTOMER_STATUSES, { error: "validation.status" });
export const cardStatus = z.enum(CARD_STATUSES, { error: "validation.status" });
export const bindStatus = z.enum(BIND_STATUSES, { error: "drivers.validation.bindStatus" });
export const deliveryType = z.enum(DELIVERY_TYPES, { error: "drivers.validation.deliveryType" });

/** Optional text: blank is absent (stored as null). */
const optionalText = (max: number) =>
  z
    .string({ error: "validation.invalid" })
    .trim()
    .max(max, { error: "drivers.validation.tooLong" })
    .nullish()
    .transform((v) => (v ? v : null));

const requiredText = (key: string, max: number) =>
  z.string({ error: key }).trim().min(1, { error: key }).max(max, { error: "drivers.validation.tooLong" });

/** Text an operator may or may not require: blank is stored as "" (the column is NOT NULL). */
const askedText = (key: string, max: number, pattern?: RegExp) =>
  z
    .string({ error: key })
    .trim()
    .max(max, { error: "drivers.validation.tooLong" })
    .refine((v) => v === "" || !pattern || pattern.test(v), { error: key })
    .nullish()
    .transform((v) => v ?? "");

/**
 * CPF, the Brazilian tax id: eleven digits (dots and dash allowed) whose last two are check
 * digits, each the remainder of a weighted sum (weights 10…2, then 11…2) times ten modulo eleven,
 * ten counting as zero. Repeated digits (111.111.111-11) pass the arithmetic but are not issued.
 */
export function cpfValid(value: string) {
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(value)) return false;
  const digits = value.replace(/\D/g, "").split("").map(Number);
  if (digits.every((d) => d === digits[0])) return false;
  const check = (length: number) => {
    const sum = digits.slice(0, length).reduce((total, d, i) => total + d * (length + 1 - i), 0);
    return ((sum * 10) % 11) % 10;
  };
  return check(9) === digits[9] && check(10) === digits[10];
}

/** International form: `+`, the country code and number, optional single spaces (E.164 has at most 15 digits). */
export const PHONE_PATTERN = /^\+[1-9](?: ?\d){5,14}$/;
const phone = z
  .string({ error: "validation.phone" })
  .trim()
  .max(24, { error: "validation.phone" })
  .refine((v) => v === "" || PHONE_PATTERN.test(v), { error: "validation.phone" })
  .nullish()
  .transform((v) => (v ? v : null));

const email = z.string({ error: "drivers.validation.emailRequired" }).trim().min(1, { error: "drivers.validation.emailRequired" }).max(120, { error: "validation.email" }).pipe(z.email({ error: "validation.email" }));
const optionalEmail = z
  .string({ error: "validation.email" })
  .trim()
  .max(120, { error: "validation.email" })
  .refine((v) => v === "" || z.email().safeParse(v).success, { error: "validation.email" })
  .nullish()
  .transform((v) => (v ? v : null));

/** Money in minor units of the operator's currency (docs/decisions/0005-money-in-minor-units.md). */
const minorUnits = (key: string) => wholeNumber(key, (n) => n.min(0, { error: key }).max(1_000_000_000_00, { error: key }));

/**
 * Create and edit a customer (POST and PUT /customer-service/customer; docs/rules/drivers.md
 * "Customers"). `memberLevel` and `balance` are not taken here: they change through membership,
 * recharges and billing; `status` through its own endpoint.
 */
export const customerFields = z.object({
    firstName: requiredText("drivers.validation.firstName", 40),
    lastName: requiredText("drivers.validation.lastName", 40),
    gender: gender.default("UNSTATED"),
    email,
    phone,
    country: z
      .string({ error: "drivers.validation.country" })
      .trim()
      .toUpperCase()
      .refine(isCountryCode, { error: "drivers.validation.country" }),
    city: optionalText(64),
    zipCode: askedText("drivers.validation.zipCode", 16, /^[A-Za-z0-9][A-Za-z0-9 -]{1,15}$/),
    district: optionalText(64),
    street: optionalText(120),
    houseNumber: optionalText(16),
    state: optionalText(64),
    complement: optionalText(120),
    cpf: z
      .string({ error: "drivers.validation.cpf" })
      .trim()
      .refine((v) => v === "" || cpfValid(v), { error: "drivers.validation.cpf" })
      .nullish()
      .transform((v) => (v ? v.replace(/\D/g, "") : null)),
    idCard: optionalText(32),
    avatarKey: optionalText(300),
    evModel: askedText("drivers.validation.evModel", 64),
    carPlate: optionalText(16),
    carBrand: optionalText(40),
    carModel: optionalText(40),
    overdraftCredit: minorUnits("drivers.validation.overdraftCredit").default(0),
    payWay: payWay.default("PERSONAL"),
    groupId: recordId("drivers.validation.group").nullish().transform((v) => v ?? null),
    chargeAllPoint: z.boolean({ error: "drivers.validation.chargeAllPoint" }).default(true),
    chargePointList: z
      .array(recordId("drivers.validation.chargePoints"), { error: "drivers.validation.chargePoints" })
      .max(500, { error: "drivers.validation.chargePoints" })
      .default([])
      .transform((ids) => [...new Set(ids)]),
});

/** Rules across fields: a customer limited to some points names at least one; a LEADER payer is in a group. */
function checkCustomer(c: { chargeAllPoint: boolean; chargePointList: number[]; payWay: PayWay; groupId: number | null }, ctx: z.RefinementCtx) {
  if (!c.chargeAllPoint && c.chargePointList.length === 0) {
    ctx.addIssue({ code: "custom", message: "drivers.validation.chargePoints", path: ["chargePointList"] });
  }
  if (c.payWay === "LEADER" && c.groupId === null) {
    ctx.addIssue({ code: "custom", message: "drivers.validation.leaderNeedsGroup", path: ["payWay"] });
  }
}

/** The body's shape; what the operator asks for on top is `customerInputFor`'s. */
export const customerInput = customerFields.superRefine(checkCustomer);
export type CustomerInput = z.infer<typeof customerInput>;

/**
 * What an operator's customer form asks for (docs/rules/drivers.md "What the customer form asks"):
 * the CPF only where the operator is in Brazil, where it is required; gender, zip code and EV model
 * only when its settings require them.
 */
export interface CustomerRules {
  cpf: boolean;
  gender: boolean;
  zipCode: boolean;
  evModel: boolean;
}

export const customerRulesOf = (country: string | null, required: Omit<CustomerRules, "cpf">): CustomerRules => ({
  cpf: country === "BR",
  gender: required.gender,
  zipCode: required.zipCode,
  evModel: required.evModel,
});

function checkAsked(c: { gender: Gender; zipCode: string; evModel: string; cpf?: string | null }, rules: CustomerRules, ctx: z.RefinementCtx) {
  if (rules.gender && c.gender === "UNSTATED") ctx.addIssue({ code: "custom", message: "drivers.validation.gender", path: ["gender"] });
  if (rules.zipCode && c.zipCode === "") ctx.addIssue({ code: "custom", message: "drivers.validation.zipCode", path: ["zipCode"] });
  if (rules.evModel && c.evModel === "") ctx.addIssue({ code: "custom", message: "drivers.validation.evModel", path: ["evModel"] });
  if (rules.cpf && !c.cpf) ctx.addIssue({ code: "custom", message: "drivers.validation.cpf", path: ["cpf"] });
}

/** A customer body under the operator's rules; without a CPF to ask, a CPF sent is not taken (an edit keeps the stored one). */
export const customerInputFor = (rules: CustomerRules) =>
  customerFields
    .superRefine((c, ctx) => {
      checkCustomer(c, ctx);
      checkAsked(c, rules, ctx);
    })
    .transform((c) => ({ ...c, cpf: rules.cpf ? c.cpf : undefined }));

const AMOUNT_MESSAGES = {
  required: "drivers.validation.overdraftCredit",
  number: "drivers.validation.overdraftCredit",
  decimals: "drivers.validation.overdraftDecimals",
  trailingDot: "drivers.validation.overdraftCredit",
} as const;

/**
 * The customer form: the credit limit as typed, in the operator's currency decimals
 * (docs/rules/console.md "Forms"); `toCustomerInput` turns it into minor units for the API.
 */
export function customerForm(decimals: number, rules: CustomerRules) {
  return customerFields.extend({ overdraftCredit: z.string().default("0") }).superRefine((value, ctx) => {
    checkCustomer(value, ctx);
    checkAsked(value, rules, ctx);
    const problem = checkAmount(value.overdraftCredit, decimals);
    if (problem || value.overdraftCredit.startsWith("-")) {
      ctx.addIssue({ code: "custom", path: ["overdraftCredit"], message: AMOUNT_MESSAGES[problem ?? "number"] });
    }
  });
}
export type CustomerFormValues = z.input<ReturnType<typeof customerForm>>;
export type CustomerFormOutput = z.output<ReturnType<typeof customerForm>>;

export const toCustomerInput = (form: CustomerFormOutput, decimals: number): z.input<typeof customerInput> => ({
  ...form,
  overdraftCredit: toMinorUnits(form.overdraftCredit, decimals),
});

/** PUT /customer-service/customer/{id}/status. */
export const customerStatusInput = z.object({ status: customerStatus });

export const customerListQuery = pageQuery.extend({
  name: z.string().trim().max(80).optional(),
  email: z.string().trim().max(120).optional(),
  phone: z.string().trim().max(24).optional(),
  memberLevel: memberLevel.optional(),
  status: customerStatus.optional(),
  groupId: recordId("drivers.validation.group").optional(),
});

/** Pickers: customers or points matching a keyword, capped (docs/rules/lists.md "Pickers"). */
export const optionsQuery = z.object({ keyword: z.string().trim().max(80).optional() });

/**
 * An OCPP id token: 1 to 20 printable ASCII characters, no blanks (OCPP 1.6 §7.28 IdToken,
 * CiString20Type). Used for card id tags and group codes (a group's code is its members' parent tag).
 */
export const idToken = (key: string, rule = { length: "drivers.validation.idTagLength", chars: "drivers.validation.idTagRule" }) =>
  z
    .string({ error: key })
    .trim()
    .min(1, { error: key })
    .max(20, { error: rule.length })
    .regex(/^[\x21-\x7E]+$/, { error: rule.chars });

/** Create and edit a customer group (docs/rules/drivers.md "Customer groups"). */
export const groupInput = z
  .object({
    name: requiredText("drivers.validation.groupName", 40),
    code: idToken("drivers.validation.groupCode", { length: "drivers.validation.groupCodeRule", chars: "drivers.validation.groupCodeRule" }),
    leaderId: recordId("drivers.validation.leader"),
    deductionAccount: optionalText(64),
    deductionEmail: optionalEmail,
    memberIds: z
      .array(recordId("drivers.validation.members"), { error: "drivers.validation.members" })
      .min(1, { error: "drivers.validation.members" })
      .max(500, { error: "drivers.validation.members" })
      .transform((ids) => [...new Set(ids)]),
  })
  .refine((g) => g.memberIds.includes(g.leaderId), { error: "drivers.validation.leaderMember", path: ["leaderId"] });
export type GroupInput = z.infer<typeof groupInput>;
export type GroupFormValues = z.input<typeof groupInput>;

export const groupListQuery = pageQuery.extend({
  name: z.string().trim().max(40).optional(),
  code: z.string().trim().max(20).optional(),
});

/** The group members list (/userManagement/groupList). */
export const groupMemberQuery = pageQuery.extend({
  groupId: recordId("drivers.validation.group").optional(),
  name: z.string().trim().max(80).optional(),
  payWay: payWay.optional(),
});

/** An instant with its offset, answered in UTC (parsing it again gives the same value). */
const expiryDate = z.iso
  .datetime({ offset: true, error: "drivers.validation.expiryDate" })
  .nullish()
  .transform((v) => (v ? new Date(v).toISOString() : null));

/**
 * The fields of an RFID card (docs/rules/drivers.md "RFID cards"): only the id tag and the
 * delivery type are required; pickup details belong to TAKE, courier details to SEND.
 */
export const cardFields = z.object({
  cardName: optionalText(40),
  idTag: idToken("drivers.validation.idTagRequired"),
  deliveryType,
  pickupNumber: optionalText(32),
  pickupPhone: phone,
  pickupAddress: optionalText(200),
  trackingNumber: optionalText(64),
  recipientName: optionalText(64),
  recipientPhone: phone,
  recipientAddress: optionalText(200),
  expiryDate,
  customerId: recordId("drivers.validation.owner").nullish().transform((v) => v ?? null),
});

/** Details of the other delivery type are dropped, so a card never carries both. */
const deliveryOnly = <T extends { deliveryType: DeliveryType }>(card: T): T =>
  card.deliveryType === "TAKE"
    ? { ...card, trackingNumber: null, recipientName: null, recipientPhone: null, recipientAddress: null }
    : { ...card, pickupNumber: null, pickupPhone: null, pickupAddress: null };

/** POST /customer-service/rf-card: a new card is VALID, and BIND exactly when it names an owner. */
export const cardInput = cardFields.transform(deliveryOnly);
export type CardInput = z.infer<typeof cardInput>;
export type CardFormValues = z.input<typeof cardInput>;

/**
 * PUT /customer-service/rf-card/{id}: also the status, except LOST, which only a lost-card resume
 * sets. An absent `customerId` keeps the owner; a bound card's owner changes only through unbind
 * and bind (docs/rules/drivers.md "RFID cards").
 */
export const cardUpdateInput = cardFields
  .extend({
    status: z.enum(["VALID", "BLOCKED", "EXPIRED"], { error: "drivers.validation.cardStatus" }).optional(),
    customerId: recordId("drivers.validation.owner").nullish(),
  })
  .transform(deliveryOnly);
export type CardUpdateInput = z.infer<typeof cardUpdateInput>;

/** PUT /customer-service/rf-card/{id}/status. */
export const cardStatusInput = z.object({ status: z.enum(["VALID", "BLOCKED", "EXPIRED"], { error: "drivers.validation.cardStatus" }) });

/** PUT /customer-service/rf-card/{id}/bind. */
export const cardBindInput = z.object({ customerId: recordId("drivers.validation.owner") });

/** PUT /customer-service/rf-card/{id}/lost: the replacement card's tag. */
export const cardLostInput = z.object({ newIdTag: idToken("drivers.validation.idTagRequired") });

export const cardListQuery = pageQuery.extend({
  idTag: z.string().trim().max(20).optional(),
  cardName: z.string().trim().max(40).optional(),
  status: cardStatus.optional(),
  bindStatus: bindStatus.optional(),
  customerId: recordId("drivers.validation.owner").optional(),
  /** The owner's name or e-mail, contained. */
  owner: z.string().trim().max(80).optional(),
});

/** A spreadsheet cell of a text column may hold a number (card number 1001). */
const sheetText = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === "number" ? String(value) : value), schema);

/**
 * One row of a card import (Excel files only; the browser reads the workbook and sends its rows,
 * as the point import does; docs/rules/drivers.md "Card import"). The owner is named by e-mail.
 */
export const cardImportRow = z
  .object({
    line: recordId().optional(),
    idTag: sheetText(idToken("drivers.validation.idTagRequired")),
    cardName: sheetText(optionalText(40)),
    // Required like the form's (docs/rules/drivers.md "Card import"): a blank cell is reported, never guessed.
    deliveryType,
    expiryDate,
    ownerEmail: sheetText(optionalEmail),
    pickupNumber: sheetText(optionalText(32)),
    pickupPhone: sheetText(phone),
    pickupAddress: sheetText(optionalText(200)),
    trackingNumber: sheetText(optionalText(64)),
    recipientName: sheetText(optionalText(64)),
    recipientPhone: sheetText(phone),
    recipientAddress: sheetText(optionalText(200)),
  })
  .transform((row) => deliveryOnly({ ...row, customerId: null }));
export type CardImportRow = z.infer<typeof cardImportRow>;

/** POST /customer-service/rf-card/import: all rows or none, at most 500 a file. */
export const cardImportInput = z.object({
  rows: z
    .array(z.unknown(), { error: "drivers.validation.importEmpty" })
    .min(1, { error: "drivers.validation.importEmpty" })
    .max(500, { error: "drivers.validation.importTooMany" }),
});
