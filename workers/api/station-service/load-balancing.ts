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
import { idParam, route } from "../app";

/** Equipment › Load balancing (docs/rules/operations.md "Load balancing"). */
const tag = "Load balancing";
const path = "/station-service/load-balancing";

export const routes = [
  route(
    { method: "get", path, summary: "Load-balancing configurations, newest first (stationId, name, status)", tag, verb: listLoadBalancing, query: loadBalancingListQuery },
    (ctx, { query }) => listLoadBalancing(ctx, query),
  ),

  route(
    {
      method: "post",
      path,
      summary: "Create a configuration: powerLimit (kW) within the station's load power, its points, stackLevel, repeat, slots, validity",
      tag,
      verb: createLoadBalancing,
      body: loadBalancingInput,
    },
    (ctx, { body }) => createLoadBalancing(ctx, body),
  ),

  route(
    { method: "get", path: `${path}/{id}`, summary: "A configuration with each point's delivery progress and the limit in force now", tag, verb: loadBalancingDetail, params: idParam },
    (ctx, { params }) => loadBalancingDetail(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: `${path}/{id}`,
      summary: "Edit a configuration; points taken out get ClearChargingProfile",
      tag,
      verb: updateLoadBalancing,
      params: idParam,
      body: loadBalancingInput,
    },
    (ctx, { params, body }) => updateLoadBalancing(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: `${path}/{id}`, summary: "Delete a configuration; its points get ClearChargingProfile", tag, verb: deleteLoadBalancing, params: idParam },
    (ctx, { params }) => deleteLoadBalancing(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: `${path}/{id}/valid`,
      summary: "Enable or disable a configuration; disabling sends ClearChargingProfile to its points",
      tag,
      verb: setLoadBalancingStatus,
      params: idParam,
      body: loadBalancingStatusInput,
    },
    (ctx, { params, body }) => setLoadBalancingStatus(ctx, params.id, body),
  ),

  route(
    {
      method: "post",
      path: `${path}/{id}/deliver`,
      summary: "Queue SetChargingProfile for every point; progress per point in the detail (Queued, Sent, Accepted, Rejected, Offline, Failed)",
      tag,
      verb: deliverLoadBalancing,
      params: idParam,
    },
    (ctx, { params }) => deliverLoadBalancing(ctx, params.id),
  ),

  route(
    {
      method: "get",
      path: `${path}/{id}/composite-schedule`,
      summary: "GetCompositeSchedule of one of the configuration's points (connector 0, in W)",
      tag,
      verb: compositeSchedule,
      params: idParam,
      query: compositeScheduleQuery,
    },
    (ctx, { params, query }) => compositeSchedule(ctx, params.id, query),
  ),
];
