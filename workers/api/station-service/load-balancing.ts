import { compositeScheduleQuery, loadBalancingInput, loadBalancingListQuery, loadBalancingStatusInput } from "../../../domain/schemas/operations";
import {
  compositeSchedule,
  createLoadBalancing,
  deleteLoadBalancing,
  deliverLoadBalancing,
  listLoadBalancing,
  loadBalancingDetail,
  setLoadBalancingStatus,
  updateLoadBalancing,
} from "../../services/load-balancing/load-balancing";
import { resource } from "../resource";

/** Equipment › Load balancing (docs/rules/operations.md "Load balancing"). */
const loadBalancing = resource("Load balancing", "/station-service/load-balancing");

export const routes = [
  loadBalancing.list("Load-balancing configurations, newest first (stationId, name, status)", listLoadBalancing, loadBalancingListQuery),
  loadBalancing.create("Create a configuration: powerLimit (kW) within the station's load power, its points, stackLevel, repeat, slots, validity", createLoadBalancing, loadBalancingInput),
  loadBalancing.detail("A configuration with each point's delivery progress and the limit in force now", loadBalancingDetail),
  loadBalancing.update("Edit a configuration; points taken out get ClearChargingProfile", updateLoadBalancing, loadBalancingInput),
  loadBalancing.remove("Delete a configuration; its points get ClearChargingProfile", deleteLoadBalancing),
  loadBalancing.put("/{id}/valid", "Enable or disable a configuration; disabling sends ClearChargingProfile to its points", setLoadBalancingStatus, loadBalancingStatusInput),
  loadBalancing.post("/{id}/deliver", "Queue SetChargingProfile for every point; progress per point in the detail (Queued, Sent, Accepted, Rejected, Offline, Failed)", deliverLoadBalancing),
  loadBalancing.get("/{id}/composite-schedule", "GetCompositeSchedule of one of the configuration's points (connector 0, in W)", compositeSchedule, compositeScheduleQuery),
];
