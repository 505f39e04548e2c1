import * as equipment from "../../../domain/schemas/equipment";
import { pointOptionsQuery } from "../../../domain/schemas/point-options";
import { serialParam } from "../../../domain/schemas/remote-control";
import { listDiagnostics, requestDiagnostics } from "../../services/points/diagnostics";
import { createPoint, deletePoint, enablePoints, rotateChargerKey, setPointStatus, updatePoint } from "../../services/points/point-admin";
import { importPoints } from "../../services/points/point-import";
import { listPoints, ocppLog, pointDetail } from "../../services/points/points";
import { pointOptions } from "../../services/points/point-options";
import { connectorQuota } from "../../services/points/quota";
import { issuePrice, issuePrices } from "../../services/pricing/price-push";
import { issuePriceInput } from "../../../domain/schemas/pricing";
import { stationOptions } from "../../services/stations/stations";
import { idParam, route } from "../app";
import { resource } from "../resource";

const tag = "Point service";
const point = resource(tag, "/station-service/point");
const stationService = resource(tag, "/station-service");
const charger = resource(tag, "/station-service/point", serialParam);

export const routes = [
  point.list("Points, paged and filtered (serialNumber, name, stationId, status, type, online)", listPoints, equipment.pointListQuery),
  point.create("Create a point with its connectors (disabled until enabled)", createPoint, equipment.pointInput),
  point.put("/{id}/valid", "Enable or disable a point; a connected charger gets ChangeAvailability", setPointStatus, equipment.pointStatusInput),
  point.put("/valid/points", "Enable several points (all or nothing: refused, naming them, when any point's location is disabled)", enablePoints, equipment.pointBatchEnableInput),
  point.post("/issue-price", "Push the points' current price to their chargers through the push queue (all or none: 409 naming points without a strategy)", issuePrices, issuePriceInput),
  point.post("/{id}/issue-price", "Push the point's current price to its charger through the push queue; the point's pricePushStatus and pushedAt follow its answer", issuePrice),
  point.get("/quota", "Authorised AC and DC connector counts: authorised, used, enabled, remaining", connectorQuota),
  point.get("/stations", "Locations to choose from in point forms and filters", stationOptions),
  point.get("/options", "Points whose serial number or name starts with (then contains) a keyword, at most `limit` (20, up to 100), for the serial-number picker", pointOptions, pointOptionsQuery),
  point.post("/import", "Import points from sheet rows: all or none; bad rows answer 400 with `fields` keyed `<line>.<field>`", importPoints, equipment.pointImportInput),
  point.update("Edit a point; an enabled point keeps its type, power, connectors, serial number and location", updatePoint, equipment.pointInput),
  point.remove("Delete a disabled point that has no charge records, with its connectors and technical history", deletePoint),
  point.post("/{id}/diagnose", "GetDiagnostics to an FTP location; the request is listed with its upload status (-1, 1, 2, 3)", requestDiagnostics, equipment.diagnoseInput),
  stationService.get("/diagnosis", "Diagnostics requests, newest first (pointId, status)", listDiagnostics, equipment.diagnosisListQuery),

  route({ method: "get", path: "/station-service/point/detail/{id}", summary: "A point with its connectors", tag, verb: pointDetail, params: idParam }, (ctx, { params }) =>
    pointDetail(ctx, { id: params.id }),
  ),

  route({ method: "get", path: "/station-service/point/{id}", summary: "A point with its connectors", tag, verb: pointDetail, params: idParam }, (ctx, { params }) =>
    pointDetail(ctx, { id: params.id }),
  ),

  point.post("/{id}/key", "Generate or rotate the charger key (shown once); `push` sends it to a connected charger first", rotateChargerKey, equipment.keyInput),

  charger.get("/{serialNumber}/ocpp/operationLog", "Every OCPP frame in and out of a charger, newest first", ocppLog, equipment.ocppLogQuery),
];
