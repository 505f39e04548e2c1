import type { ChargeRecordState } from "../../../domain/schemas/records";

/**
 * Groups of record states that more than one money area asks about (docs/rules/records.md
 * "Record states"). They live with the records, the lowest of the money areas, so that billing
 * and payments read them without importing each other (docs/architecture.md "Folders and what
 * may import what").
 */

/** The states a final price may still be settled from (the job, a retry, a settlement the operator starts). */
export const PAYABLE: ChargeRecordState[] = ["CHARGE_COMPLETE", "PAY_FAIL", "RECORD_UNSETTLED"];
