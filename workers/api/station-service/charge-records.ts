import { chargeRecordQuery, reportQuery } from "../../../domain/schemas/records";
import { resource } from "../resource";
import { stationCashier } from "../../services/charge-records/cashier";
import { chargeRecordDetail, listChargeRecords, reportByPoint } from "../../services/charge-records/charge-records";
import { recordReceipt } from "../../services/charge-records/receipts";
import { abnormalRecord, completeRecord, retryRecord, settleRecord, unplugRecord } from "../../services/billing/record-actions";


const tag = "Charge records";
const record = resource(tag, "/station-service/charge/record");
const cashier = resource(tag, "/station-service/charge/cashier");

export const routes = [
  record.get(
    "/reportByPoint",
    "One point's month (reportMonth yyyy-MM in the operator's time zone): meterValue kWh (3 decimals), chargingTime minutes, deductionCost minor units (the billed records' totalCost), chargeCount",
    reportByPoint,
    reportQuery,
  ),
  record.list(
    "Charge records, newest first, paged and filtered (transactionId, stationId, pointId, customerId, idTag, status, from/to as yyyy-MM-dd or a local date-time in the operator's time zone); status is the record state, transactionStatus the transaction's",
    listChargeRecords,
    chargeRecordQuery,
  ),
  record.detail("A charge record with its cost lines, meter curve, strategy version and receipt token", chargeRecordDetail),
  record.get("/{id}/receipt", "A charge record's receipt: every charging-receipt field, money in minor units, with the operator's currency format", recordReceipt),
  cashier.detail("Cashier view of one station: its connectors, running sessions and the amount due of each last finished session", stationCashier),
];

export const recordActionRoutes = (
  [
    ["settle", settleRecord, "Settle a record now: its final price (an idle fee counts until now) debited from whoever is behind the tag"],
    ["complete", completeRecord, "Mark a record paid (RECORD_COMPLETE), e.g. paid at the cashier"],
    ["abnormal", abnormalRecord, "Mark a record ABNORMAL"],
    ["unplug", unplugRecord, "Manual unplug: sets the unplug time to now and gives the idle fee after charging its final price"],
    ["retry", retryRecord, "Retry a failed payment (PAY_FAIL) with today's balance"],
  ] as const
).map(([action, verb, summary]) => record.put(`/{id}/${action}`, summary, verb));
