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
import { resource } from "../resource";

/** Work orders and maintenance staff (docs/rules/maintenance.md). */
const tag = "Work orders and maintainers";
const orders = "/maintain-service/work-order";
const staff = "/maintain-service/maintainer";
const workOrder = resource(tag, orders);
const workOrderSettings = resource(tag, "/maintain-service/work-order-settings");
const maintainer = resource(tag, staff);

export const routes = [
  workOrder.list("Work orders, newest first (status, faultCode, serialNumber, maintainerId, from, to); a maintainer sees only theirs", listWorkOrders, workOrderListQuery),
  workOrder.create(
    "Open a work order from an alarm { alarmId } or by hand { faultCode, serialNumber, abnormalTime, cause, remarks }; maintainerId, else the assignment rule",
    createWorkOrder,
    workOrderCreateInput,
  ),
  workOrderSettings.get("", "Whether alarms open work orders on their own", getMaintenanceSettings),
  workOrderSettings.put("", "Let alarms open work orders on their own: { autoOpen }", updateMaintenanceSettings, maintenanceSettingsInput),
  workOrder.detail("One work order with its history", getWorkOrder),
  workOrder.update("Edit a pending (ALREADY) order: cause, remarks, abnormalTime, maintainerId; any other is 409", updateWorkOrder, workOrderUpdateInput),
  workOrder.put("/{id}/process", "Process a pending order: { handlingProcess, opinion }; ALREADY → PASS", processWorkOrder, workOrderProcessInput),
  workOrder.put("/{id}/audit", "Audit a processed order: { result: PASS | NO_PASS, opinion }; PASS → CLOSE, NO_PASS → ALREADY", auditWorkOrder, workOrderAuditInput),
  maintainer.list("Maintainers, newest first (keyword)", listMaintainers, maintainerListQuery),
  maintainer.create("Make an account of a MAINTAINER role a maintainer: manufacturer, wardenAccount, faultCodes, stationIds, pointIds", createMaintainer, maintainerInput),
  maintainer.detail("One maintainer", getMaintainer),
  maintainer.update("Edit a maintainer's fault codes, stations and points", updateMaintainer, maintainerInput),
  maintainer.remove("Remove a maintainer without open work orders (409 otherwise)", deleteMaintainer),
];
