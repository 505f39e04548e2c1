import { idParam, route } from "../app";
import {
  assignedDevices,
  assignmentInput,
  candidateQuery,
  DEVICE_MENU,
  deviceCandidates,
  listSubOperatorDevices,
  setSubOperatorDevices,
  subOperatorListQuery,
  subOperatorParam,
} from "../../services/sub-operators/devices";
import {
  listSubPoints,
  listSubStations,
  SUB_POINT_MENUS,
  SUB_STATION_MENUS,
  subPointDetail,
  subPointQuery,
  subStationDetail,
  subStationQuery,
} from "../../services/sub-operators/views";

/** Sub-operators: the parent assigns devices (SPEC.md §2 operatorDevice); the sub-operator sees them. */
const tag = "Sub-operators";
const access = { menu: DEVICE_MENU };

route(
  { method: "get", path: "/user-service/sub-operator-devices", summary: "The operator's sub-operators with their assigned station and point counts", tag, access, query: subOperatorListQuery },
  (ctx, { query }) => listSubOperatorDevices(ctx, query),
);

route(
  { method: "get", path: "/user-service/sub-operator/{subOperatorId}/devices", summary: "Stations and points assigned to a sub-operator", tag, access, params: subOperatorParam },
  (ctx, { params }) => assignedDevices(ctx, params.subOperatorId),
);

route(
  {
    method: "put",
    path: "/user-service/sub-operator/{subOperatorId}/devices",
    summary: "Replace a sub-operator's stations and points (an assigned station brings all its points)",
    tag,
    access,
    params: subOperatorParam,
    body: assignmentInput,
  },
  (ctx, { params, body }) => setSubOperatorDevices(ctx, params.subOperatorId, body),
);

route(
  {
    method: "get",
    path: "/user-service/sub-operator/{subOperatorId}/devices/candidates",
    summary: "The operator's stations or points (kind), paged and searchable, each marked assigned or not",
    tag,
    access,
    params: subOperatorParam,
    query: candidateQuery,
  },
  (ctx, { params, query }) => deviceCandidates(ctx, params.subOperatorId, query),
);

route(
  { method: "get", path: "/station-service/sub-operator/station", summary: "A sub-operator's stations (assigned, or holding an assigned point)", tag, access: { menu: SUB_STATION_MENUS }, query: subStationQuery },
  (ctx, { query }) => listSubStations(ctx, query),
);

route(
  {
    method: "get",
    path: "/station-service/sub-operator/station/{id}",
    summary: "One of a sub-operator's stations with its visible points (paged)",
    tag,
    access: { menu: SUB_STATION_MENUS },
    params: idParam,
    query: subPointQuery,
  },
  (ctx, { params, query }) => subStationDetail(ctx, params.id, query),
);

route(
  { method: "get", path: "/station-service/sub-operator/point", summary: "A sub-operator's points with live state", tag, access: { menu: SUB_POINT_MENUS }, query: subPointQuery },
  (ctx, { query }) => listSubPoints(ctx, query),
);

route(
  { method: "get", path: "/station-service/sub-operator/point/{id}", summary: "One of a sub-operator's points with connectors and recent transactions", tag, access: { menu: SUB_POINT_MENUS }, params: idParam },
  (ctx, { params }) => subPointDetail(ctx, params.id),
);
