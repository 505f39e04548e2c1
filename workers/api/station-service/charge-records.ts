import { chargeRecordQuery, reportQuery } from "../../../domain/schemas/equipment";
import { listChargeRecords, reportByPoint } from "../../services/charge-records/charge-records";
import { route } from "../app";

const tag = "Charge records";

route(
  {
    method: "get",
    path: "/station-service/charge/record/reportByPoint",
    summary:
      "One point's month (reportMonth yyyy-MM in the operator's time zone): meterValue kWh (3 decimals), chargingTime minutes, deductionCost minor units (0 until priced), chargeCount",
    tag,
    verb: reportByPoint,
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
    verb: listChargeRecords,
    query: chargeRecordQuery,
  },
  (ctx, { query }) => listChargeRecords(ctx, query),
);
