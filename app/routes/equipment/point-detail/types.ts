import type { listChargeRecords, reportByPoint } from "../../../../workers/services/charge-records/charge-records";
import type { listDiagnostics } from "../../../../workers/services/points/diagnostics";
import type { pointDetail } from "../../../../workers/services/points/points";

/** A point as the detail page receives it (GET /station-service/point/detail/{id}). */
export type PointView = Awaited<ReturnType<typeof pointDetail>>;

/** One month of a point (GET /station-service/charge/record/reportByPoint). */
export type Report = Awaited<ReturnType<typeof reportByPoint>>;

/** One charge record of the point (GET /station-service/charge/record). */
export type ChargeRecord = Awaited<ReturnType<typeof listChargeRecords>>["records"][number];

/** One diagnostics request (GET /station-service/diagnosis). */
export type Diagnosis = Awaited<ReturnType<typeof listDiagnostics>>["records"][number];
