import { resource } from "../resource";
import { assignmentInput, candidateQuery, subOperatorListQuery, subOperatorParam, subPointQuery, subStationQuery } from "../../../domain/schemas/sub-operators";
import { assignedDevices, deviceCandidates, listSubOperatorDevices, setSubOperatorDevices } from "../../services/sub-operators/devices";
import { listSubPoints, listSubStations, subPointDetail, subStationDetail } from "../../services/sub-operators/views";

/** Sub-operators: the parent assigns devices; the sub-operator sees them. */
const tag = "Sub-operators";
const station = resource(tag, "/station-service/sub-operator/station");
const point = resource(tag, "/station-service/sub-operator/point");
const userService = resource(tag, "/user-service");
const subOperator = resource(tag, "/user-service/sub-operator", subOperatorParam);

export const routes = [
  userService.get("/sub-operator-devices", "The operator's sub-operators with their assigned station and point counts", listSubOperatorDevices, subOperatorListQuery),

  subOperator.get("/{subOperatorId}/devices", "Stations and points assigned to a sub-operator", assignedDevices),
  subOperator.put("/{subOperatorId}/devices", "Replace a sub-operator's stations and points (both lists required; an assigned station brings all its points)", setSubOperatorDevices, assignmentInput),
  subOperator.get("/{subOperatorId}/devices/candidates", "The operator's stations or points (kind), paged and searchable, each marked assigned or not", deviceCandidates, candidateQuery),

  station.list("A sub-operator's stations (assigned, or holding an assigned point)", listSubStations, subStationQuery),
  station.get("/{id}", "One of a sub-operator's stations with its visible points (paged)", subStationDetail, subPointQuery),
  point.list("A sub-operator's points with live state", listSubPoints, subPointQuery),
  point.detail("One of a sub-operator's points with connectors and recent transactions", subPointDetail),
];
