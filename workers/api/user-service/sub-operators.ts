import { idParam, route } from "../app";
import { assignmentInput, candidateQuery, subOperatorListQuery, subOperatorParam, subPointQuery, subStationQuery } from "../../../domain/schemas/sub-operators";
import { assignedDevices, deviceCandidates, listSubOperatorDevices, setSubOperatorDevices } from "../../services/sub-operators/devices";
import { listSubPoints, listSubStations, subPointDetail, subStationDetail } from "../../services/sub-operators/views";

/** Sub-operators: the parent assigns devices; the sub-operator sees them. */
const tag = "Sub-operators";

export const routes = [
  route(
    {
      method: "get",
      path: "/user-service/sub-operator-devices",
      summary: "The operator's sub-operators with their assigned station and point counts",
      tag,
      verb: listSubOperatorDevices,
      query: subOperatorListQuery,
    },
    (ctx, { query }) => listSubOperatorDevices(ctx, query),
  ),

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

  route(
    {
      method: "get",
      path: "/station-service/sub-operator/station",
      summary: "A sub-operator's stations (assigned, or holding an assigned point)",
      tag,
      verb: listSubStations,
      query: subStationQuery,
    },
    (ctx, { query }) => listSubStations(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/sub-operator/station/{id}",
      summary: "One of a sub-operator's stations with its visible points (paged)",
      tag,
      verb: subStationDetail,
      params: idParam,
      query: subPointQuery,
    },
    (ctx, { params, query }) => subStationDetail(ctx, params.id, query),
  ),

  route(
    { method: "get", path: "/station-service/sub-operator/point", summary: "A sub-operator's points with live state", tag, verb: listSubPoints, query: subPointQuery },
    (ctx, { query }) => listSubPoints(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/sub-operator/point/{id}",
      summary: "One of a sub-operator's points with connectors and recent transactions",
      tag,
      verb: subPointDetail,
      params: idParam,
    },
    (ctx, { params }) => subPointDetail(ctx, params.id),
  ),
];
