import {
  maintainerInput,
  maintainerListQuery,
  maintenanceSettingsInput,
  workOrderAuditInput,
  workOrderCreateInput,
  workOrderListQuery,
  workOrderProcessInput,
  workOrderUpdateInput,
} from "../../../domain/schemas/maintenance";
import { createMaintainer, deleteMaintainer, getMaintainer, listMaintainers, updateMaintainer } from "../../services/maintenance/maintainers";
import {
  auditWorkOrder,
  createWorkOrder,
  getMaintenanceSettings,
  getWorkOrder,
  listWorkOrders,
  processWorkOrder,
  updateMaintenanceSettings,
  updateWorkOrder,
} from "../../services/maintenance/work-orders";
import { idParam, route } from "../app";

/** Work orders and maintenance staff (docs/rules/maintenance.md). */
const tag = "Work orders and maintainers";
const orders = "/maintain-service/work-order";
const staff = "/maintain-service/maintainer";

export const routes = [
  route(
    { method: "get", path: orders, summary: "Work orders, newest first (status, faultCode, serialNumber, maintainerId, from, to); a maintainer sees only theirs", tag, verb: listWorkOrders, query: workOrderListQuery },
    (ctx, { query }) => listWorkOrders(ctx, query),
  ),
  route(
    {
      method: "post",
      path: orders,
      summary: "Open a work order from an alarm { alarmId } or by hand { faultCode, serialNumber, abnormalTime, cause, remarks }; maintainerId, else the assignment rule",
      tag,
      verb: createWorkOrder,
      body: workOrderCreateInput,
    },
    (ctx, { body }) => createWorkOrder(ctx, body),
  ),
  route(
    { method: "get", path: "/maintain-service/work-order-settings", summary: "Whether alarms open work orders on their own", tag, verb: getMaintenanceSettings },
    (ctx) => getMaintenanceSettings(ctx),
  ),
  route(
    { method: "put", path: "/maintain-service/work-order-settings", summary: "Let alarms open work orders on their own: { autoOpen }", tag, verb: updateMaintenanceSettings, body: maintenanceSettingsInput },
    (ctx, { body }) => updateMaintenanceSettings(ctx, body),
  ),
  route({ method: "get", path: `${orders}/{id}`, summary: "One work order with its history", tag, verb: getWorkOrder, params: idParam }, (ctx, { params }) => getWorkOrder(ctx, params.id)),
  route(
    { method: "put", path: `${orders}/{id}`, summary: "Edit a pending (ALREADY) order: cause, remarks, abnormalTime, maintainerId; any other is 409", tag, verb: updateWorkOrder, params: idParam, body: workOrderUpdateInput },
    (ctx, { params, body }) => updateWorkOrder(ctx, params.id, body),
  ),
  route(
    { method: "put", path: `${orders}/{id}/process`, summary: "Process a pending order: { handlingProcess, opinion }; ALREADY → PASS", tag, verb: processWorkOrder, params: idParam, body: workOrderProcessInput },
    (ctx, { params, body }) => processWorkOrder(ctx, params.id, body),
  ),
  route(
    {
      method: "put",
      path: `${orders}/{id}/audit`,
      summary: "Audit a processed order: { result: PASS | NO_PASS, opinion }; PASS → CLOSE, NO_PASS → ALREADY",
      tag,
      verb: auditWorkOrder,
      params: idParam,
      body: workOrderAuditInput,
    },
    (ctx, { params, body }) => auditWorkOrder(ctx, params.id, body),
  ),

  route({ method: "get", path: staff, summary: "Maintainers, newest first (keyword)", tag, verb: listMaintainers, query: maintainerListQuery }, (ctx, { query }) => listMaintainers(ctx, query)),
  route(
    { method: "post", path: staff, summary: "Make an account of a MAINTAINER role a maintainer: manufacturer, wardenAccount, faultCodes, stationIds, pointIds", tag, verb: createMaintainer, body: maintainerInput },
    (ctx, { body }) => createMaintainer(ctx, body),
  ),
  route({ method: "get", path: `${staff}/{id}`, summary: "One maintainer", tag, verb: getMaintainer, params: idParam }, (ctx, { params }) => getMaintainer(ctx, params.id)),
  route(
    { method: "put", path: `${staff}/{id}`, summary: "Edit a maintainer's fault codes, stations and points", tag, verb: updateMaintainer, params: idParam, body: maintainerInput },
    (ctx, { params, body }) => updateMaintainer(ctx, params.id, body),
  ),
  route(
    { method: "delete", path: `${staff}/{id}`, summary: "Remove a maintainer without open work orders (409 otherwise)", tag, verb: deleteMaintainer, params: idParam },
    (ctx, { params }) => deleteMaintainer(ctx, params.id),
  ),
];
