import { deviceModelQuery, deviceModelReportInput, getVariablesInput, setVariablesInput } from "../../../domain/schemas/device-model";
import { deviceModel, readVariables, requestDeviceModel, setVariables } from "../../services/points/device-model";
import { resource } from "../resource";

/** The device model of an OCPP 2.0.1 point (Part 2 B05–B07), beside the point's configuration commands. */
const point = resource("Point service", "/station-service/point");

export const routes = [
  point.get(
    "/{id}/deviceModel",
    "An OCPP 2.0.1 point's device model as its charger last reported it (NotifyReport), paged; `search` matches component or variable names",
    deviceModel,
    deviceModelQuery,
  ),
  point.post(
    "/{id}/deviceModel/report",
    "GetBaseReport (FullInventory by default, or ConfigurationInventory): the report that follows replaces the stored model once whole",
    requestDeviceModel,
    deviceModelReportInput,
  ),
  point.post(
    "/{id}/variables/get",
    "GetVariables: 1 to 50 variables read live; each result carries the charger's attributeStatus and, when Accepted, attributeValue",
    readVariables,
    getVariablesInput,
  ),
  point.post(
    "/{id}/variables/set",
    "SetVariables: 1 to 50 values; each result carries the charger's attributeStatus (Accepted, Rejected, RebootRequired, UnknownComponent, UnknownVariable, NotSupportedAttributeType)",
    setVariables,
    setVariablesInput,
  ),
];
