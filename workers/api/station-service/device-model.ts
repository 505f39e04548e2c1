import { deviceModelQuery, deviceModelReportInput, getVariablesInput, setVariablesInput } from "../../../domain/schemas/device-model";
import { deviceModel, readVariables, requestDeviceModel, setVariables } from "../../services/points/device-model";
import { idParam, route } from "../app";

/** The device model of an OCPP 2.0.1 point (Part 2 B05–B07), beside the point's configuration commands. */
const tag = "Point service";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/point/{id}/deviceModel",
      summary: "An OCPP 2.0.1 point's device model as its charger last reported it (NotifyReport), paged; `search` matches component or variable names",
      tag,
      verb: deviceModel,
      params: idParam,
      query: deviceModelQuery,
    },
    (ctx, { params, query }) => deviceModel(ctx, params.id, query),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/deviceModel/report",
      summary: "GetBaseReport (FullInventory by default, or ConfigurationInventory): the report that follows replaces the stored model once whole",
      tag,
      verb: requestDeviceModel,
      params: idParam,
      body: deviceModelReportInput,
    },
    (ctx, { params, body }) => requestDeviceModel(ctx, params.id, body),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/variables/get",
      summary: "GetVariables: 1 to 50 variables read live; each result carries the charger's attributeStatus and, when Accepted, attributeValue",
      tag,
      verb: readVariables,
      params: idParam,
      body: getVariablesInput,
    },
    (ctx, { params, body }) => readVariables(ctx, params.id, body),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/variables/set",
      summary: "SetVariables: 1 to 50 values; each result carries the charger's attributeStatus (Accepted, Rejected, RebootRequired, UnknownComponent, UnknownVariable, NotSupportedAttributeType)",
      tag,
      verb: setVariables,
      params: idParam,
      body: setVariablesInput,
    },
    (ctx, { params, body }) => setVariables(ctx, params.id, body),
  ),
];
