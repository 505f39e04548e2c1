import { z } from "zod";
import { subOperatorInfoInput } from "./platform";
import { recordId } from "./numbers";

/**
 * Financial statements and the collection account (docs/rules/statements.md). Periods are whole
 * local days of the operator's time zone; the verb turns them into UTC edges.
 */

/** How a statement groups its sessions. */
export const STATEMENT_GROUPS = ["station", "point", "day", "month"] as const;
export type StatementGroup = (typeof STATEMENT_GROUPS)[number];

/** The longest period one statement reads, in local days (docs/rules/statements.md "Statements", periods). */
export const MAX_STATEMENT_DAYS = 366;

const localDay = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { error: key });

/** Days between two `yyyy-MM-dd` dates, both included (calendar days, whatever the zone). */
export function periodDays(from: string, to: string) {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

const isCalendarDay = (text: string) => {
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
};

/** A period of whole local days, `from` and `to` both included, at most MAX_STATEMENT_DAYS long. */
const period = {
  from: localDay("statements.validation.from"),
  to: localDay("statements.validation.to"),
};

function checkPeriod(value: { from: string; to: string }, issue: z.RefinementCtx) {
  if (!isCalendarDay(value.from)) issue.addIssue({ code: "custom", path: ["from"], message: "statements.validation.from" });
  else if (!isCalendarDay(value.to)) issue.addIssue({ code: "custom", path: ["to"], message: "statements.validation.to" });
  else if (value.to < value.from) issue.addIssue({ code: "custom", path: ["to"], message: "statements.validation.toBeforeFrom" });
  else if (periodDays(value.from, value.to) > MAX_STATEMENT_DAYS) issue.addIssue({ code: "custom", path: ["to"], message: "statements.validation.periodTooLong" });
}

/**
 * GET /finance-service/statement. Strict: an unknown parameter is a 400, so a misspelt filter
 * never answers the unfiltered sums. `subOperatorId` narrows the operator's statement to the
 * devices it assigned to one of its sub-operators (operatorFinance).
 */
export const statementQuery = z
  .strictObject(
    {
      ...period,
      groupBy: z.enum(STATEMENT_GROUPS, { error: "statements.validation.groupBy" }),
      stationId: recordId("records.validation.stationId").optional(),
      pointId: recordId("points.validation.pointId").optional(),
      subOperatorId: recordId("statements.validation.subOperatorId").optional(),
      lang: z.string().optional(),
    },
    { error: "statements.validation.unknownParameter" },
  )
  .superRefine(checkPeriod);
export type StatementQuery = z.infer<typeof statementQuery>;

/** GET /finance-service/collection-account/totals: what was collected in a period. */
export const collectionTotalsQuery = z.strictObject({ ...period, lang: z.string().optional() }, { error: "statements.validation.unknownParameter" }).superRefine(checkPeriod);
export type CollectionTotalsQuery = z.infer<typeof collectionTotalsQuery>;

/** PUT /finance-service/collection-account: the operator's own collection and clearing accounts. */
export const collectionAccountInput = z.strictObject({
  chargeAccount: subOperatorInfoInput.shape.chargeAccount,
  clearingAccount: subOperatorInfoInput.shape.clearingAccount,
  cardPaymentAccount: subOperatorInfoInput.shape.cardPaymentAccount,
  paypalAccount: subOperatorInfoInput.shape.paypalAccount,
});
export type CollectionAccountInput = z.infer<typeof collectionAccountInput>;
