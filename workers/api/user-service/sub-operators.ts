import { route } from "../app";
import { resource } from "../resource";
import { assignmentInput, candidateQuery, subOperatorListQuery, subOperatorParam, subPointQuery, subStationQuery } from "../../../domain/schemas/sub-operators";
import { assignedDevices, deviceCandidates, listSubOperatorDevices, setSubOperatorDevices } from "../../services/sub-operators/devices";
import { listSubPoints, listSubStations, subPointDetail, subStationDetail } from "../../services/sub-operators/views";

/** Sub-operators: the parent assigns devices; the sub-operator sees them. */
const tag = "Sub-operators";
const station = resource(tag, "/station-service/sub-operator/station");
const point = resource(tag, "/station-service/sub-operator/point");
const userService = resource(tag, "/user-service");

export const routes = [
  userService.get("/sub-operator-devices", "The operator's sub-operators with their assigned station and point counts", listSubOperatorDevices, subOperatorListQuery),

  route(
    {
      method: "get",
      path: "/user-service/sub-operator/{subOperatorId}/devices",
      summary: "Stations and points assigned to a sub-operator",
      tag,
      verb: assignedDevices,
      params: subOperatorParam,
    },
    (ctx, { params }) => assignedDevices(ctx, params.subOperatorId),
  ),

  route(
    {
      method: "put",
      path: "/user-service/sub-operator/{subOperatorId}/devices",
      summary: "Replace a sub-operator's stations and points (both lists required; an assigned station brings all its points)",
      tag,
      verb: setSubOperatorDevices,
      params: subOperatorParam,
      body: assignmentInput,
    },
    (ctx, { params, body }) => setSubOperatorDevices(ctx, params.subOperatorId, body),
  ),

  route(
    {
      method: "get",
      path: "/user-service/sub-operator/{subOperatorId}/devices/candidates",
      summary: "The operator's stations or points (kind), paged and searchable, each marked assigned or not",
      tag,
      verb: deviceCandidates,
      params: subOperatorParam,
      query: candidateQuery,
    },
    (ctx, { params, query }) => deviceCandidates(ctx, params.subOperatorId, query),
  ),

  station.list("A sub-operator's stations (assigned, or holding an assigned point)", listSubStations, subStationQuery),
  station.get("/{id}", "One of a sub-operator's stations with its visible points (paged)", subStationDetail, subPointQuery),
  point.list("A sub-operator's points with live state", listSubPoints, subPointQuery),
  point.detail("One of a sub-operator's points with connectors and recent transactions", subPointDetail),
];
