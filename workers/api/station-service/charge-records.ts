import { CHARGE_RECORD_MENUS, chargeRecordQuery, listChargeRecords, reportByPoint, reportQuery } from "../../services/charge-records/charge-records";
import { route } from "../app";

const tag = "Charge records";
const access = { menu: CHARGE_RECORD_MENUS };

route(
  {
    method: "get",
    path: "/station-service/charge/record/reportByPoint",
    summary:
      "One point's month (reportMonth yyyy-MM in the operator's time zone): meterValue kWh (3 decimals), chargingTime minutes, deductionCost minor units (0 until priced), chargeCount",
    tag,
    access,
    query: reportQuery,
  },
  (ctx, { query }) => reportByPoint(ctx, query),
);

route(
  {
    method: "get",
    path: "/station-service/charge/record",
    summary: "Charge records (transactions), newest first, paged and filtered (pointId, status, idTag, transactionId)",
    tag,
    access,
    query: chargeRecordQuery,
  },
  (ctx, { query }) => listChargeRecords(ctx, query),
);
