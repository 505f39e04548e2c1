import { firmwareInput, firmwareIssueInput, firmwareListQuery } from "../../../domain/schemas/operations";
import { createFirmware, deleteFirmware, firmwareDetail, issueFirmware, listFirmware, updateFirmware } from "../../services/firmware/firmware";
import { idParam, route } from "../app";

/** Operation and maintenance › Firmware updates (docs/rules/operations.md "Firmware"). */
const tag = "Firmware";
const path = "/maintain-service/firmware";

export const routes = [
  route({ method: "get", path, summary: "Firmware versions, newest first (version, issued)", tag, verb: listFirmware, query: firmwareListQuery }, (ctx, { query }) =>
    listFirmware(ctx, query),
  ),

  route(
    { method: "post", path, summary: "Add a version: an ftp:// or ftps:// location, retries, retry interval, retrieve date", tag, verb: createFirmware, body: firmwareInput },
    (ctx, { body }) => createFirmware(ctx, body),
  ),

  route(
    {
      method: "get",
      path: `${path}/{id}`,
      summary: "A version with `rollout: [{pointId, serialNumber, status, updatedAt}]`, status `Issued` until the first notification",
      tag,
      verb: firmwareDetail,
      params: idParam,
    },
    (ctx, { params }) => firmwareDetail(ctx, params.id),
  ),

  route({ method: "put", path: `${path}/{id}`, summary: "Edit a version", tag, verb: updateFirmware, params: idParam, body: firmwareInput }, (ctx, { params, body }) =>
    updateFirmware(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: `${path}/{id}`, summary: "Delete a version never issued (409 'version issued cannot be deleted')", tag, verb: deleteFirmware, params: idParam },
    (ctx, { params }) => deleteFirmware(ctx, params.id),
  ),

  route(
    {
      method: "post",
      path: `${path}/{id}/issue`,
      summary: "Issue the version to points: UpdateFirmware through the firmware queue, in waves of waveSize",
      tag,
      verb: issueFirmware,
      params: idParam,
      body: firmwareIssueInput,
    },
    (ctx, { params, body }) => issueFirmware(ctx, params.id, body),
  ),
];
