import { Conflict, Invalid } from "../../../domain/errors";
import { deviceModelQuery, deviceModelReportInput, getVariablesInput, setVariablesInput } from "../../../domain/schemas/device-model";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { command201 } from "../remote/remote-control";
import { verb } from "../verb";
import { chargerObject } from "./charger-object";
import { findPoint } from "./points";

/**
 * The device model of an OCPP 2.0.1 point on its configuration tab (OCPP 2.0.1 Part 2 B05–B07;
 * docs/rules/equipment.md "Point pages"). The model is the charger's own, kept by its object
 * (workers/ocpp/v201/device-model.ts); a new report, reading and setting variables are commands
 * sent as 2.0.1 messages (`command201`), with the permissions of the tab's other commands
 * (docs/rules/access.md).
 */

/** GET /station-service/point/{id}/deviceModel: the model as the charger last reported it, paged and searched. */
export const deviceModel = verb({ menu: REMOTE_CONTROL_MENUS }, async (ctx, pointId: number, raw: unknown) => {
  const page = deviceModelQuery.parse(raw);
  const { point } = await findPoint(ctx, { id: pointId });
  return chargerObject(ctx.env, point).deviceModel(page);
});

/**
 * POST /station-service/point/{id}/deviceModel/report (B07 GetBaseReport): the report comes in
 * NotifyReport messages and, once whole, replaces the model (a FullInventory) or updates it.
 * Answers the charger's status and the report's requestId; Rejected and NotSupported are refusals.
 */
export const requestDeviceModel = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const { reportBase } = deviceModelReportInput.parse(raw);
  const { point } = await findPoint(ctx, { id: pointId });
  const requestId = await chargerObject(ctx.env, point).deviceModelRequest(reportBase);
  if (requestId === null) throw new Conflict("errors.pointOffline");
  const { status } = await command201(ctx, point, "GetBaseReport", { requestId, reportBase });
  return { status, requestId, reportBase };
});

/** POST /station-service/point/{id}/variables/get (B06 GetVariables): the charger's answer for each variable, its value when Accepted. */
export const readVariables = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const { variables } = getVariablesInput.parse(raw);
  const { point } = await findPoint(ctx, { id: pointId });
  const getVariableData = variables.map(({ component, variable, attributeType }) => ({ component, variable, ...(attributeType && { attributeType }) }));
  const response = await command201(ctx, point, "GetVariables", { getVariableData });
  return { results: response.getVariableResult.map(({ customData: _custom, ...result }) => result) };
});

/** The charger's key (A01) is not a value to type in: it changes with the key dialog, which keeps the server's hash in step. */
const isChargerKey = (v: { component: { name: string }; variable: { name: string } }) =>
  v.component.name.toLowerCase() === "securityctrlr" && v.variable.name.toLowerCase() === "basicauthpassword";

/**
 * POST /station-service/point/{id}/variables/set (B05 SetVariables): the charger's attributeStatus
 * for each value (Accepted, Rejected, RebootRequired, UnknownComponent, UnknownVariable,
 * NotSupportedAttributeType), answered as it is; a value taken becomes the model's.
 */
export const setVariables = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const { variables } = setVariablesInput.parse(raw);
  const key = variables.findIndex(isChargerKey);
  if (key >= 0) throw new Invalid("points.validation.chargerKey", {}, { [`variables.${key}`]: "points.validation.chargerKey" });
  const { point } = await findPoint(ctx, { id: pointId });
  const setVariableData = variables.map(({ component, variable, attributeType, value }) => ({
    component,
    variable,
    attributeValue: value,
    ...(attributeType && { attributeType }),
  }));
  const response = await command201(ctx, point, "SetVariables", { setVariableData });
  return { results: response.setVariableResult.map(({ customData: _custom, ...result }) => result) };
});
