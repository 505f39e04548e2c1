import { z } from "zod";
import { checkAmount, toMinorUnits } from "../amounts";
import { pageQuery } from "./account-service";
import { billQuery } from "./bills";
import { memberLevel } from "./drivers";
import { recordId, wholeNumber } from "./numbers";
import { localTime } from "./records";

/**
 * Wallets: recharges and membership levels (docs/rules/wallets.md). Money in minor units of the
 * operator's currency (docs/decisions/0005-money-in-minor-units.md), so "to the cent" is "a
 * whole number" here.
 */

/** How money reached a balance: by hand in the console (ADMIN) or through a payment channel. */
export const RECHARGE_WAYS = ["ADMIN", "WECHAT", "PAYPAL", "PSIGATE", "GLOBALPAYMENTS", "KKB", "STRIPE", "CARDCOM"] as const;
export type RechargeWay = (typeof RECHARGE_WAYS)[number];

/** The largest single movement, in minor units: far above any real top-up, far below 2^53. */
export const MAX_RECHARGE = 1_000_000_000;

/**
 * Where a membership change came from (the `Member` bill's remark): 1 an administrator's
 * account, 2 a new card, 3 an existing card.
 */
export const MEMBER_SOURCES = { ADMIN: "1", NEW_CARD: "2", EXISTING_CARD: "3" } as const;
export const MEMBER_SOURCE_CODES = [MEMBER_SOURCES.ADMIN, MEMBER_SOURCES.NEW_CARD, MEMBER_SOURCES.EXISTING_CARD] as const;
/** The remark of the `Member` bill the housekeeping writes when a paid level ran out (docs/rules/wallets.md "Membership"). */
export const MEMBER_EXPIRED_REMARK = "EXPIRED";

/**
 * The level a customer has at `now`: a paid level whose period ended is NORMAL, even before the
 * housekeeping lowered it (docs/rules/wallets.md "Membership").
 */
export function levelAt<L extends string>(customer: { memberLevel: L; memberUntil: Date | null }, now: number): L | "NORMAL" {
  return customer.memberLevel !== "NORMAL" && customer.memberUntil !== null && customer.memberUntil.getTime() <= now ? "NORMAL" : customer.memberLevel;
}

/** POST /finance-service/recharge: a positive amount tops up, a negative one deducts. */
export const rechargeInput = z.object({
  customerId: recordId("wallets.validation.customerId"),
  amount: wholeNumber("wallets.validation.amount", (n) =>
    n.min(-MAX_RECHARGE, { error: "wallets.validation.amount" }).max(MAX_RECHARGE, { error: "wallets.validation.amount" }),
  ).refine((v) => v !== 0, { error: "wallets.validation.amount" }),
  remark: z.string({ error: "wallets.validation.remark" }).trim().max(200, { error: "wallets.validation.remark" }).optional(),
});
export type RechargeInput = z.infer<typeof rechargeInput>;

/** GET /finance-service/recharge: exact filters and a period typed in the operator's time zone. */
export const rechargeQuery = pageQuery.extend({
  customerId: recordId("wallets.validation.customerId").optional(),
  way: z.enum(RECHARGE_WAYS, { error: "wallets.validation.way" }).optional(),
  from: localTime.optional(),
  to: localTime.optional(),
});
export type RechargeQuery = z.infer<typeof rechargeQuery>;

/** GET /finance-service/bill: the bill filters with a period in the operator's time zone. */
export const billListQuery = billQuery.extend({ from: localTime.optional(), to: localTime.optional() });
export type BillListQuery = z.infer<typeof billListQuery>;

/** The longest membership bought at once. */
export const MAX_MEMBER_MONTHS = 36;

/** PUT /customer-service/customer/{id}/member-level: any level, any direction; `months` of the fee (1 unless told). */
export const memberLevelInput = z.object({
  level: memberLevel,
  /**
   * Where the change came from, the `Member` bill's remark: "1" the console (the default), "2"
   * and "3" a change the driver app paid with a new or an existing payment card
   * (docs/rules/wallets.md "Membership").
   */
  source: z.enum(MEMBER_SOURCE_CODES, { error: "wallets.validation.source" }).optional(),
  months: wholeNumber("wallets.validation.months", (n) => n.min(1, { error: "wallets.validation.months" }).max(MAX_MEMBER_MONTHS, { error: "wallets.validation.months" })).optional(),
});
export type MemberLevelInput = z.infer<typeof memberLevelInput>;

/** What the recharge dialog does: add to the balance or take from it. */
export const RECHARGE_KINDS = ["TOP_UP", "DEDUCT"] as const;

/** The amount problems `checkAmount` finds, as this area's messages (docs/rules/console.md "Forms"). */
const AMOUNT_MESSAGES = {
  required: "wallets.validation.amountRequired",
  number: "wallets.validation.amountNumber",
  decimals: "wallets.validation.amountDecimals",
  trailingDot: "wallets.validation.amountNumber",
} as const;

/**
 * The recharge dialog: a customer, top-up or deduction, and the amount as typed in the
 * currency's display units (at most its decimals, above zero); `toRechargeInput` signs it and
 * turns it into minor units for the API.
 */
export function rechargeForm(decimals: number) {
  return z
    .object({
      customerId: z.number().nullable().refine((id) => id !== null, { error: "wallets.validation.customerId" }),
      kind: z.enum(RECHARGE_KINDS),
      amount: z.string().default(""),
      remark: z.string().trim().max(200, { error: "wallets.validation.remark" }).default(""),
    })
    .superRefine((value, issue) => {
      const problem = checkAmount(value.amount, decimals);
      if (problem) issue.addIssue({ code: "custom", path: ["amount"], message: AMOUNT_MESSAGES[problem] });
      else if (value.amount.trim().startsWith("-") || toMinorUnits(value.amount, decimals) === 0) {
        issue.addIssue({ code: "custom", path: ["amount"], message: "wallets.validation.amountPositive" });
      }
    });
}
export type RechargeFormValues = z.input<ReturnType<typeof rechargeForm>>;
export type RechargeFormOutput = z.output<ReturnType<typeof rechargeForm>>;

export const toRechargeInput = (form: RechargeFormOutput, decimals: number): RechargeInput => ({
  customerId: form.customerId!,
  amount: (form.kind === "DEDUCT" ? -1 : 1) * toMinorUnits(form.amount, decimals),
  remark: form.remark || undefined,
});
