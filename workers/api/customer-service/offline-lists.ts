import { choicesQuery, offlineListInput, offlineListPushInput, offlineListQuery, pushItemParams, pushItemQuery } from "../../../domain/schemas/driver-services";
import { groupChoices } from "../../services/driver-services/pickers";
import * as offlineLists from "../../services/driver-services/offline-lists";
import { route } from "../app";
import { resource } from "../resource";

const tag = "Customer service";
const base = "/customer-service/offline-list";
const offlineList = resource(tag, base);

export const routes = [
  offlineList.list("Offline lists, newest first, with user, pushed point and station counts and the last push", offlineLists.listOfflineLists, offlineListQuery),
  offlineList.create("Create an offline list: customers and/or groups, a chargeable type (ALL, RFID, APP), an effective time", offlineLists.createOfflineList, offlineListInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  offlineList.get("/groups", "Customer groups matching a keyword (name or code), at most 50, for the list form", groupChoices, choicesQuery),
  offlineList.detail("An offline list with its customers and groups", offlineLists.offlineListDetail),
  offlineList.update("Update an offline list (the chargers get the change at the next push)", offlineLists.updateOfflineList, offlineListInput),
  offlineList.remove("Delete an offline list that no charger holds", offlineLists.deleteOfflineList),
  offlineList.post("/{id}/push", "Push the list to points and to every point of stations: SendLocalList through the push queue, Full first, then Differential", offlineLists.pushOfflineList, offlineListPushInput),
  offlineList.get("/{id}/items", "The list's deliveries, newest first: SUCCESS or FAIL with the charger's status and time", offlineLists.listPushItems, pushItemQuery),

  route(
    { method: "put", path: `${base}/{id}/items/{itemId}/retry`, summary: "Send a failed delivery again", tag, verb: offlineLists.retryPushItem, params: pushItemParams },
    (ctx, { params }) => offlineLists.retryPushItem(ctx, params.id, params.itemId),
  ),

  offlineList.get("/{id}/points", "The points the list was pushed to, with their list version and whether they are behind", offlineLists.offlineListPoints, pushItemQuery),
];
