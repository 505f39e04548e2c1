import { z } from "zod";
import { pageQuery } from "./account-service";
import { reportMonth } from "./equipment";
import { recordId } from "./numbers";

/**
 * Charge record states (docs/rules/records.md "Record states"): CHARGING while the session runs,
 * then CHARGE_COMPLETE (priced, not settled), RECORD_COMPLETE (paid), RECORD_UNSETTLED (nobody
 * to debit, or left for the cashier: `UNSETTLED_REASONS`), PAY_FAIL (not enough balance),
 * ABNORMAL (no proper stop).
 */
export const CHARGE_RECORD_STATES = ["CHARGING", "CHARGE_COMPLETE", "RECORD_COMPLETE", "RECORD_UNSETTLED", "PAY_FAIL", "ABNORMAL"] as const;
export type ChargeRecordState = (typeof CHARGE_RECORD_STATES)[number];

/**
 * Where a record comes from: a session at our chargers (OCPP), or a partner's CDR billed to one of
 * our drivers (OCPI; docs/decisions/0063-roaming-charge-records.md).
 */
/**
 * Why a finally priced record was left unsettled, for the operator to read
 * (docs/rules/billing.md "Who pays", "Paying from the balance off"): nobody is behind the tag, or
 * the operator's settings turned paying from the balance off and no card paid the session, so the
 * cashier settles it.
 */
export const UNSETTLED_REASONS = ["NO_PAYER", "BALANCE_PAYMENT_OFF", "ROAMING_PARTNER"] as const;
export type UnsettledReason = (typeof UNSETTLED_REASONS)[number];

export const CHARGE_RECORD_SOURCES = ["OCPP", "OCPI"] as const;
export type ChargeRecordSource = (typeof CHARGE_RECORD_SOURCES)[number];

/**
 * A roaming record's number: this plus its CDR's row. OCPP 1.6 transaction ids are 32-bit
 * integers, so no transaction of ours ever has one (docs/decisions/0063-roaming-charge-records.md).
 */
export const ROAMING_RECORD_BASE = 2 ** 31;

/** The transaction's own state, as the charger's messages left it. */
export const TRANSACTION_STATUSES = ["ACTIVE", "COMPLETED", "ABNORMAL"] as const;

/**
 * A period bound in the operator's time zone: `yyyy-MM-dd` or a local date-time
 * `yyyy-MM-dd HH:mm[:ss]` (docs/rules/records.md "Filters"); the verb turns it into UTC.
 */
export const localTime = z
  .string({ error: "records.validation.localTime" })
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?)?$/, { error: "records.validation.localTime" });

/** GET /station-service/charge/record: exact filters only, each served by an index. */
export const chargeRecordQuery = pageQuery.extend({
  transactionId: recordId("records.validation.transactionId").optional(),
  stationId: recordId("records.validation.stationId").optional(),
  pointId: recordId("points.validation.pointId").optional(),
  customerId: recordId("records.validation.customerId").optional(),
  idTag: z.string().trim().max(20, { error: "validation.idTagLength" }).optional(),
  status: z.enum(CHARGE_RECORD_STATES, { error: "validation.status" }).optional(),
  from: localTime.optional(),
  to: localTime.optional(),
});
export type ChargeRecordQuery = z.infer<typeof chargeRecordQuery>;

/** The filters of an export: the list's, without paging. */
export const chargeRecordFilters = chargeRecordQuery.omit({ current: true, size: true });

/** GET /station-service/charge/record/reportByPoint: this month in the operator's time zone unless told. */
export const reportQuery = z.object({
  pointId: recordId("points.validation.pointId"),
  reportMonth: reportMonth.optional(),
});

/** A receipt's public token or a bill's public code: 32 hex digits (128 bits). */
export const publicCode = z.string().regex(/^[0-9a-f]{32}$/, { error: "errors.notFound" });
