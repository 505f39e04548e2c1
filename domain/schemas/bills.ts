import { z } from "zod";
import { pageQuery } from "./account-service";
import { recordId } from "./numbers";

/**
 * Bills (docs/rules/billing.md "Bills"): every movement of a customer's balance. `Charging` bills
 * come from the billing job; `Recharge` and `Member` from top-ups and memberships.
 */
export const BILL_TYPES = ["Recharge", "Member", "Charging"] as const;
export type BillType = (typeof BILL_TYPES)[number];
export const BILL_STATUSES = ["Paying", "PaySuccess", "PayFail"] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];
/**
 * The pricing phase that debits a session: only the final pricing does (docs/rules/billing.md
 * "Provisional and final"). A session paid by card may add a charge above its pre-authorisation
 * (`REMAINDER`) and a refund of what the card paid too much (`REFUND`), one bill each
 * (docs/rules/payments.md "Sessions paid by card").
 */
export const BILL_PHASES = ["FINAL", "REMAINDER", "REFUND"] as const;
export type BillPhase = (typeof BILL_PHASES)[number];
/** The pricing a charge record carries: provisional while an idle-after fee awaits the unplug. */
export const PRICING_PHASES = ["PROVISIONAL", "FINAL"] as const;
export type PricingPhase = (typeof PRICING_PHASES)[number];

/** GET /finance-service/bill: exact filters, newest first. */
export const billQuery = pageQuery.extend({
  customerId: recordId("records.validation.customerId").optional(),
  type: z.enum(BILL_TYPES, { error: "billing.validation.billType" }).optional(),
  status: z.enum(BILL_STATUSES, { error: "billing.validation.billStatus" }).optional(),
});
export type BillQuery = z.infer<typeof billQuery>;
