import { firmwareInput, firmwareIssueInput, firmwareListQuery } from "../../../domain/schemas/operations";
import { createFirmware, deleteFirmware, firmwareDetail, issueFirmware, listFirmware, updateFirmware } from "../../services/firmware/firmware";
import { resource } from "../resource";

/** Operation and maintenance › Firmware updates (docs/rules/operations.md "Firmware"). */
const firmware = resource("Firmware", "/maintain-service/firmware");

export const routes = [
  firmware.list("Firmware versions, newest first (version, issued)", listFirmware, firmwareListQuery),
  firmware.create("Add a version: an ftp:// or ftps:// location, retries, retry interval, retrieve date", createFirmware, firmwareInput),
  firmware.detail("A version with `rollout: [{pointId, serialNumber, status, updatedAt}]`, status `Issued` until the first notification", firmwareDetail),
  firmware.update("Edit a version", updateFirmware, firmwareInput),
  firmware.remove("Delete a version never issued (409 'version issued cannot be deleted')", deleteFirmware),
  firmware.post("/{id}/issue", "Issue the version to points: UpdateFirmware through the firmware queue, in waves of waveSize", issueFirmware, firmwareIssueInput),
];
