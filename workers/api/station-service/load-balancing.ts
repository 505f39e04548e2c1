import { compositeScheduleQuery, loadBalancingInput, loadBalancingListQuery, loadBalancingStatusInput } from "../../../domain/schemas/operations";
import * as balancing from "../../services/load-balancing/load-balancing";
import { resource } from "../resource";

/** Equipment › Load balancing (docs/rules/operations.md "Load balancing"). */
const loadBalancing = resource("Load balancing", "/station-service/load-balancing");

export const routes = [
  loadBalancing.list("Load-balancing configurations, newest first (stationId, name, status)", balancing.listLoadBalancing, loadBalancingListQuery),
  loadBalancing.create("Create a configuration: powerLimit (kW) within the station's load power, its points, stackLevel, repeat, slots, validity", balancing.createLoadBalancing, loadBalancingInput),
  loadBalancing.detail("A configuration with each point's delivery progress and the limit in force now", balancing.loadBalancingDetail),
  loadBalancing.update("Edit a configuration; points taken out get ClearChargingProfile", balancing.updateLoadBalancing, loadBalancingInput),
  loadBalancing.remove("Delete a configuration; its points get ClearChargingProfile", balancing.deleteLoadBalancing),
  loadBalancing.put("/{id}/valid", "Enable or disable a configuration; disabling sends ClearChargingProfile to its points", balancing.setLoadBalancingStatus, loadBalancingStatusInput),
  loadBalancing.post("/{id}/deliver", "Queue SetChargingProfile for every point; progress per point in the detail (Queued, Sent, Accepted, Rejected, Offline, Failed)", balancing.deliverLoadBalancing),
  loadBalancing.get("/{id}/composite-schedule", "GetCompositeSchedule of one of the configuration's points (connector 0, in W)", balancing.compositeSchedule, compositeScheduleQuery),
];
