import { z } from "zod";
import { pageQuery } from "./account-service";
import { toMinorUnits } from "../amounts";
import { pathId, wholeNumber } from "./numbers";

/**
 * Discount strategies and discount cards (docs/rules/discounts.md). Enums are shared by the
 * database schema, the API's bodies and the console's forms.
 */

/** A VOUCHER takes a fixed quota off; a DISCOUNT takes a percentage off, up to its quota. */
export const DISCOUNT_TYPES = ["VOUCHER", "DISCOUNT"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** What the quota counts: money (minor units) or energy (DEGREE: Wh on the wire, kWh on screen). */
export const DISCOUNT_UNITS = ["MONEY", "DEGREE"] as const;
export type DiscountUnit = (typeof DISCOUNT_UNITS)[number];

/**
 * docs/rules/discounts.md "Card states": generated and not given (INVALID), given and usable
 * (IN_USE), past its validity or used up (EXPIRED), voided by the operator (CANCELLED).
 */
export const DISCOUNT_CARD_STATUSES = ["INVALID", "IN_USE", "EXPIRED", "CANCELLED"] as const;
export type DiscountCardStatus = (typeof DISCOUNT_CARD_STATUSES)[number];

/** What a charge record's discount lines come from, in the order billing applies them. */
export const DISCOUNT_SOURCES = ["MEMBER", "DISCOUNT", "VOUCHER"] as const;

/** At most this many cards per generation (one request, a few D1 batches). */
export const MAX_GENERATE = 1000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const day = (key: string) =>
  z
    .string({ error: key })
    .refine(isDay, { error: key })
    .nullish()
    .transform((v) => v ?? null);

/** An activation code: letters and digits, compared upper-cased. */
export const ACTIVATION_CODE = /^[A-Z0-9]{4,32}$/;
export const activationCode = z
  .string({ error: "discounts.validation.activationCode" })
  .trim()
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(ACTIVATION_CODE, { error: "discounts.validation.activationCode" }));

/**
 * POST and PUT /finance-service/discount-strategy. `quota`: minor units (MONEY) or Wh (DEGREE);
 * `discount`: the percentage a DISCOUNT takes (0–100); validity: `startDate`/`endDate` (the
 * operator's days, both included) or `months` from the day a card is given; `activationCode`:
 * the prefix of the cards' codes; `generateNumber`: cards to generate with a new strategy.
 */
export const discountStrategyInput = z
  .strictObject({
    name: z.string({ error: "discounts.validation.name" }).trim().min(1, { error: "discounts.validation.name" }).max(50, { error: "discounts.validation.tooLong" }),
    type: z.enum(DISCOUNT_TYPES, { error: "discounts.validation.type" }),
    unit: z.enum(DISCOUNT_UNITS, { error: "discounts.validation.unit" }),
    quota: wholeNumber("discounts.validation.quota", (n) => n.min(1).max(1_000_000_000)),
    discount: wholeNumber("discounts.validation.discount", (n) => n.min(0).max(100)).nullish().transform((v) => v ?? null),
    startDate: day("discounts.validation.date"),
    endDate: day("discounts.validation.date"),
    months: wholeNumber("discounts.validation.months", (n) => n.min(1).max(120)).nullish().transform((v) => v ?? null),
    activationCode: z
      .string({ error: "discounts.validation.prefix" })
      .trim()
      .transform((v) => v.toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{0,8}$/, { error: "discounts.validation.prefix" }))
      .nullish()
      .transform((v) => (v ? v : null)),
    generateNumber: wholeNumber("discounts.validation.count", (n) => n.min(0).max(MAX_GENERATE)).nullish().transform((v) => v ?? 0),
  })
  .superRefine((v, ctx) => {
    if (v.type === "DISCOUNT" && v.discount === null) ctx.addIssue({ code: "custom", path: ["discount"], message: "discounts.validation.discount" });
    const dated = v.startDate !== null || v.endDate !== null;
    if (dated && v.months !== null) ctx.addIssue({ code: "custom", path: ["months"], message: "discounts.validation.validityOne" });
    else if (!dated && v.months === null) ctx.addIssue({ code: "custom", path: ["months"], message: "discounts.validation.validity" });
    else if (dated && (v.startDate === null || v.endDate === null)) ctx.addIssue({ code: "custom", path: [v.startDate === null ? "startDate" : "endDate"], message: "discounts.validation.date" });
    else if (dated && v.startDate! > v.endDate!) ctx.addIssue({ code: "custom", path: ["endDate"], message: "discounts.validation.endBeforeStart" });
  });
export type DiscountStrategyInput = z.infer<typeof discountStrategyInput>;
export type DiscountStrategyFormValues = z.input<typeof discountStrategyInput>;

export const discountStrategyListQuery = pageQuery.extend({
  name: z.string().trim().max(50).optional(),
  type: z.enum(DISCOUNT_TYPES).optional(),
});

/** POST /finance-service/discount-strategy/{id}/generate. */
export const generateInput = z.strictObject({ count: wholeNumber("discounts.validation.count", (n) => n.min(1).max(MAX_GENERATE)) });

export const discountCardListQuery = pageQuery.extend({
  status: z.enum(DISCOUNT_CARD_STATUSES).optional(),
  code: z.string().trim().max(40).optional(),
});

/** POST /customer-service/customer/{id}/discount-card. */
export const giveCardInput = z.strictObject({ activationCode });

export const cardParams = z.object({ id: pathId, cardId: pathId });

// ── the console's form ────────────────────────────────────────────────────────────────────────

/** Decimals of a kWh quota in the form (Wh on the wire). */
export const KWH_DECIMALS = 3;

/**
 * The strategy form: the quota in display units (the currency, or kWh) and the validity as a
 * choice; `toStrategyInput` turns it into the API's body, which the verb checks again.
 */
export const discountStrategyForm = z
  .object({
    name: z.string().trim().min(1, { error: "discounts.validation.name" }).max(50, { error: "discounts.validation.tooLong" }),
    type: z.enum(DISCOUNT_TYPES, { error: "discounts.validation.type" }),
    unit: z.enum(DISCOUNT_UNITS, { error: "discounts.validation.unit" }),
    quota: z.string().trim().regex(/^\d+(\.\d+)?$/, { error: "discounts.validation.quota" }),
    discount: z.string().trim(),
    validity: z.enum(["MONTHS", "DATES"]),
    months: z.string().trim(),
    startDate: z.string().trim(),
    endDate: z.string().trim(),
    activationCode: z.string().trim().regex(/^[A-Za-z0-9]{0,8}$/, { error: "discounts.validation.prefix" }),
    generateNumber: z.string().trim().regex(/^\d{0,4}$/, { error: "discounts.validation.count" }),
  })
  .superRefine((v, ctx) => {
    if (v.type === "DISCOUNT" && !/^\d{1,3}$/.test(v.discount)) ctx.addIssue({ code: "custom", path: ["discount"], message: "discounts.validation.discount" });
    if (v.validity === "MONTHS" && !/^\d{1,3}$/.test(v.months)) ctx.addIssue({ code: "custom", path: ["months"], message: "discounts.validation.months" });
    if (v.validity === "DATES") {
      if (!isDay(v.startDate)) ctx.addIssue({ code: "custom", path: ["startDate"], message: "discounts.validation.date" });
      if (!isDay(v.endDate)) ctx.addIssue({ code: "custom", path: ["endDate"], message: "discounts.validation.date" });
    }
  });
export type DiscountStrategyForm = z.infer<typeof discountStrategyForm>;

/** The form's values as the API's body: the quota in minor units of the currency, or in Wh. */
export function toStrategyInput(form: DiscountStrategyForm, currencyDecimals: number) {
  return {
    name: form.name,
    type: form.type,
    unit: form.unit,
    quota: toMinorUnits(form.quota, form.unit === "MONEY" ? currencyDecimals : KWH_DECIMALS),
    discount: form.type === "DISCOUNT" ? form.discount : null,
    months: form.validity === "MONTHS" ? form.months : null,
    startDate: form.validity === "DATES" ? form.startDate : null,
    endDate: form.validity === "DATES" ? form.endDate : null,
    activationCode: form.activationCode || null,
    generateNumber: form.generateNumber || 0,
  };
}

/** A strategy's quota in the form's display units. */
export function quotaText(quota: number, unit: DiscountUnit, currencyDecimals: number) {
  const decimals = unit === "MONEY" ? currencyDecimals : KWH_DECIMALS;
  if (decimals === 0) return String(quota);
  const text = String(quota).padStart(decimals + 1, "0");
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`.replace(/\.?0+$/, "");
}
