import { failureListQuery, faultCodeInput, faultCodeListQuery, faultCodeParam, faultCodeUpdate } from "../../../domain/schemas/operations";
import { listFailures } from "../../services/faults/failures";
import { createFaultCode, deleteFaultCode, faultCodeDetail, listFaultCodes, updateFaultCode } from "../../services/faults/fault-codes";
import { resource } from "../resource";

/** The fault-code catalogue and the failures built on it (docs/rules/operations.md "Fault codes", "Failures"). */
const tag = "Fault codes and failures";
const path = "/maintain-service/fault-code";
const faultCode = resource(tag, path);
/** A code names its record: OCPP's own (`NoError`…) or a vendor's. */
const byCode = resource(tag, path, faultCodeParam);
const maintainService = resource(tag, "/maintain-service");

export const routes = [
  faultCode.list("The 14 OCPP fault codes, then vendor codes (keyword, source OCPP or VENDOR)", listFaultCodes, faultCodeListQuery),
  faultCode.create("Add a vendor code: name, level, count (a positive whole number)", createFaultCode, faultCodeInput),

  byCode.detail("One fault code", faultCodeDetail),
  byCode.update("Edit a vendor code, or override an OCPP code's name, level and count", updateFaultCode, faultCodeUpdate),
  byCode.remove("Delete a vendor code, or bring an OCPP code back to its defaults", deleteFaultCode),
  maintainService.get("/operation-failure", "Alarms grouped by point and fault code over a period (30 days unless from/to), with counts and whether repeated", listFailures, failureListQuery),
];
