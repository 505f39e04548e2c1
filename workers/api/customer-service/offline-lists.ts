import { choicesQuery, offlineListInput, offlineListPushInput, offlineListQuery, pushItemParams, pushItemQuery } from "../../../domain/schemas/driver-services";
import { groupChoices } from "../../services/driver-services/pickers";
import {
  createOfflineList,
  deleteOfflineList,
  listOfflineLists,
  listPushItems,
  offlineListDetail,
  offlineListPoints,
  pushOfflineList,
  retryPushItem,
  updateOfflineList,
} from "../../services/driver-services/offline-lists";
import { idParam, route } from "../app";

const tag = "Customer service";
const base = "/customer-service/offline-list";

export const routes = [
  route(
    {
      method: "get",
      path: base,
      summary: "Offline lists, newest first, with user, pushed point and station counts and the last push",
      tag,
      verb: listOfflineLists,
      query: offlineListQuery,
    },
    (ctx, { query }) => listOfflineLists(ctx, query),
  ),

  route(
    { method: "post", path: base, summary: "Create an offline list: customers and/or groups, a chargeable type (ALL, RFID, APP), an effective time", tag, verb: createOfflineList, body: offlineListInput },
    (ctx, { body }) => createOfflineList(ctx, body),
  ),

  // Fixed paths before `{id}`, which would otherwise take them.
  route(
    { method: "get", path: `${base}/groups`, summary: "Customer groups matching a keyword (name or code), at most 50, for the list form", tag, verb: groupChoices, query: choicesQuery },
    (ctx, { query }) => groupChoices(ctx, query),
  ),

  route({ method: "get", path: `${base}/{id}`, summary: "An offline list with its customers and groups", tag, verb: offlineListDetail, params: idParam }, (ctx, { params }) =>
    offlineListDetail(ctx, params.id),
  ),

  route(
    { method: "put", path: `${base}/{id}`, summary: "Update an offline list (the chargers get the change at the next push)", tag, verb: updateOfflineList, params: idParam, body: offlineListInput },
    (ctx, { params, body }) => updateOfflineList(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: `${base}/{id}`, summary: "Delete an offline list that no charger holds", tag, verb: deleteOfflineList, params: idParam },
    (ctx, { params }) => deleteOfflineList(ctx, params.id),
  ),

  route(
    {
      method: "post",
      path: `${base}/{id}/push`,
      summary: "Push the list to points and to every point of stations: SendLocalList through the push queue, Full first, then Differential",
      tag,
      verb: pushOfflineList,
      params: idParam,
      body: offlineListPushInput,
    },
    (ctx, { params, body }) => pushOfflineList(ctx, params.id, body),
  ),

  route(
    { method: "get", path: `${base}/{id}/items`, summary: "The list's deliveries, newest first: SUCCESS or FAIL with the charger's status and time", tag, verb: listPushItems, params: idParam, query: pushItemQuery },
    (ctx, { params, query }) => listPushItems(ctx, params.id, query),
  ),

  route(
    { method: "put", path: `${base}/{id}/items/{itemId}/retry`, summary: "Send a failed delivery again", tag, verb: retryPushItem, params: pushItemParams },
    (ctx, { params }) => retryPushItem(ctx, params.id, params.itemId),
  ),

  route(
    {
      method: "get",
      path: `${base}/{id}/points`,
      summary: "The points the list was pushed to, with their list version and whether they are behind",
      tag,
      verb: offlineListPoints,
      params: idParam,
      query: pushItemQuery,
    },
    (ctx, { params, query }) => offlineListPoints(ctx, params.id, query),
  ),
];
