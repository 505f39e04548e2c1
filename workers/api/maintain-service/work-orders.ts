import * as maintenance from "../../../domain/schemas/maintenance";
import { createMaintainer, deleteMaintainer, getMaintainer, listMaintainers, updateMaintainer } from "../../services/maintenance/maintainers";
import * as workOrders from "../../services/maintenance/work-orders";
import { resource } from "../resource";

/** Work orders and maintenance staff (docs/rules/maintenance.md). */
const tag = "Work orders and maintainers";
const orders = "/maintain-service/work-order";
const staff = "/maintain-service/maintainer";
const workOrder = resource(tag, orders);
const workOrderSettings = resource(tag, "/maintain-service/work-order-settings");
const maintainer = resource(tag, staff);

export const routes = [
  workOrder.list("Work orders, newest first (status, faultCode, serialNumber, maintainerId, from, to); a maintainer sees only theirs", workOrders.listWorkOrders, maintenance.workOrderListQuery),
  workOrder.create(
    "Open a work order from an alarm { alarmId } or by hand { faultCode, serialNumber, abnormalTime, cause, remarks }; maintainerId, else the assignment rule",
    workOrders.createWorkOrder,
    maintenance.workOrderCreateInput,
  ),
  workOrderSettings.get("", "Whether alarms open work orders on their own", workOrders.getMaintenanceSettings),
  workOrderSettings.put("", "Let alarms open work orders on their own: { autoOpen }", workOrders.updateMaintenanceSettings, maintenance.maintenanceSettingsInput),
  workOrder.detail("One work order with its history", workOrders.getWorkOrder),
  workOrder.update("Edit a pending (ALREADY) order: cause, remarks, abnormalTime, maintainerId; any other is 409", workOrders.updateWorkOrder, maintenance.workOrderUpdateInput),
  workOrder.put("/{id}/process", "Process a pending order: { handlingProcess, opinion }; ALREADY → PASS", workOrders.processWorkOrder, maintenance.workOrderProcessInput),
  workOrder.put("/{id}/audit", "Audit a processed order: { result: PASS | NO_PASS, opinion }; PASS → CLOSE, NO_PASS → ALREADY", workOrders.auditWorkOrder, maintenance.workOrderAuditInput),
  maintainer.list("Maintainers, newest first (keyword)", listMaintainers, maintenance.maintainerListQuery),
  maintainer.create("Make an account of a MAINTAINER role a maintainer: manufacturer, wardenAccount, faultCodes, stationIds, pointIds", createMaintainer, maintenance.maintainerInput),
  maintainer.detail("One maintainer", getMaintainer),
  maintainer.update("Edit a maintainer's fault codes, stations and points", updateMaintainer, maintenance.maintainerInput),
  maintainer.remove("Remove a maintainer without open work orders (409 otherwise)", deleteMaintainer),
];
