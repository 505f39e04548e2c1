import { failureListQuery, faultCodeInput, faultCodeListQuery, faultCodeParam, faultCodeUpdate } from "../../../domain/schemas/operations";
import { listFailures } from "../../services/faults/failures";
import { createFaultCode, deleteFaultCode, faultCodeDetail, listFaultCodes, updateFaultCode } from "../../services/faults/fault-codes";
import { route } from "../app";
import { resource } from "../resource";

/** The fault-code catalogue and the failures built on it (docs/rules/operations.md "Fault codes", "Failures"). */
const tag = "Fault codes and failures";
const path = "/maintain-service/fault-code";
const faultCode = resource(tag, path);
const maintainService = resource(tag, "/maintain-service");

export const routes = [
  faultCode.list("The 14 OCPP fault codes, then vendor codes (keyword, source OCPP or VENDOR)", listFaultCodes, faultCodeListQuery),
  faultCode.create("Add a vendor code: name, level, count (a positive whole number)", createFaultCode, faultCodeInput),

  route({ method: "get", path: `${path}/{code}`, summary: "One fault code", tag, verb: faultCodeDetail, params: faultCodeParam }, (ctx, { params }) =>
    faultCodeDetail(ctx, params.code),
  ),

  route(
    { method: "put", path: `${path}/{code}`, summary: "Edit a vendor code, or override an OCPP code's name, level and count", tag, verb: updateFaultCode, params: faultCodeParam, body: faultCodeUpdate },
    (ctx, { params, body }) => updateFaultCode(ctx, params.code, body),
  ),

  route(
    { method: "delete", path: `${path}/{code}`, summary: "Delete a vendor code, or bring an OCPP code back to its defaults", tag, verb: deleteFaultCode, params: faultCodeParam },
    (ctx, { params }) => deleteFaultCode(ctx, params.code),
  ),

  maintainService.get("/operation-failure", "Alarms grouped by point and fault code over a period (30 days unless from/to), with counts and whether repeated", listFailures, failureListQuery),
];
