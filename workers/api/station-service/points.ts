import {
  diagnoseInput,
  diagnosisListQuery,
  keyInput,
  ocppLogQuery,
  pointBatchEnableInput,
  pointImportInput,
  pointInput,
  pointListQuery,
  pointStatusInput,
} from "../../../domain/schemas/equipment";
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

const tag = "Point service";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/point",
      summary: "Points, paged and filtered (serialNumber, name, stationId, status, type, online)",
      tag,
      verb: listPoints,
      query: pointListQuery,
    },
    (ctx, { query }) => listPoints(ctx, query),
  ),

  route(
    { method: "post", path: "/station-service/point", summary: "Create a point with its connectors (disabled until enabled)", tag, verb: createPoint, body: pointInput },
    (ctx, { body }) => createPoint(ctx, body),
  ),

  route(
    {
      method: "put",
      path: "/station-service/point/{id}/valid",
      summary: "Enable or disable a point; a connected charger gets ChangeAvailability",
      tag,
      verb: setPointStatus,
      params: idParam,
      body: pointStatusInput,
    },
    (ctx, { params, body }) => setPointStatus(ctx, params.id, body),
  ),

  route(
    {
      method: "put",
      path: "/station-service/point/valid/points",
      summary: "Enable several points (all or nothing: refused, naming them, when any point's location is disabled)",
      tag,
      verb: enablePoints,
      body: pointBatchEnableInput,
    },
    (ctx, { body }) => enablePoints(ctx, body),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/issue-price",
      summary: "Push the points' current price to their chargers through the push queue (all or none: 409 naming points without a strategy)",
      tag,
      verb: issuePrices,
      body: issuePriceInput,
    },
    (ctx, { body }) => issuePrices(ctx, body),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/issue-price",
      summary: "Push the point's current price to its charger through the push queue; the point's pricePushStatus and pushedAt follow its answer",
      tag,
      verb: issuePrice,
      params: idParam,
    },
    (ctx, { params }) => issuePrice(ctx, params.id),
  ),

  route(
    { method: "get", path: "/station-service/point/quota", summary: "Authorised AC and DC connector counts: authorised, used, enabled, remaining", tag, verb: connectorQuota },
    (ctx) => connectorQuota(ctx),
  ),

  route(
    { method: "get", path: "/station-service/point/stations", summary: "Locations to choose from in point forms and filters", tag, verb: stationOptions },
    (ctx) => stationOptions(ctx),
  ),

  route(
    {
      method: "get",
      path: "/station-service/point/options",
      summary: "Points whose serial number or name starts with (then contains) a keyword, at most `limit` (20, up to 100), for the serial-number picker",
      tag,
      verb: pointOptions,
      query: pointOptionsQuery,
    },
    (ctx, { query }) => pointOptions(ctx, query),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/import",
      summary: "Import points from sheet rows: all or none; bad rows answer 400 with `fields` keyed `<line>.<field>`",
      tag,
      verb: importPoints,
      body: pointImportInput,
    },
    (ctx, { body }) => importPoints(ctx, body),
  ),

  route(
    {
      method: "put",
      path: "/station-service/point/{id}",
      summary: "Edit a point; an enabled point keeps its type, power, connectors, serial number and location",
      tag,
      verb: updatePoint,
      params: idParam,
      body: pointInput,
    },
    (ctx, { params, body }) => updatePoint(ctx, params.id, body),
  ),

  route(
    {
      method: "delete",
      path: "/station-service/point/{id}",
      summary: "Delete a disabled point that has no charge records, with its connectors and technical history",
      tag,
      verb: deletePoint,
      params: idParam,
    },
    (ctx, { params }) => deletePoint(ctx, params.id),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/diagnose",
      summary: "GetDiagnostics to an FTP location; the request is listed with its upload status (-1, 1, 2, 3)",
      tag,
      verb: requestDiagnostics,
      params: idParam,
      body: diagnoseInput,
    },
    (ctx, { params, body }) => requestDiagnostics(ctx, params.id, body),
  ),

  route(
    {
      method: "get",
      path: "/station-service/diagnosis",
      summary: "Diagnostics requests, newest first (pointId, status)",
      tag,
      verb: listDiagnostics,
      query: diagnosisListQuery,
    },
    (ctx, { query }) => listDiagnostics(ctx, query),
  ),

  route({ method: "get", path: "/station-service/point/detail/{id}", summary: "A point with its connectors", tag, verb: pointDetail, params: idParam }, (ctx, { params }) =>
    pointDetail(ctx, { id: params.id }),
  ),

  route({ method: "get", path: "/station-service/point/{id}", summary: "A point with its connectors", tag, verb: pointDetail, params: idParam }, (ctx, { params }) =>
    pointDetail(ctx, { id: params.id }),
  ),

  route(
    {
      method: "post",
      path: "/station-service/point/{id}/key",
      summary: "Generate or rotate the charger key (shown once); `push` sends it to a connected charger first",
      tag,
      verb: rotateChargerKey,
      params: idParam,
      body: keyInput,
    },
    (ctx, { params, body }) => rotateChargerKey(ctx, params.id, body),
  ),

  route(
    {
      method: "get",
      path: "/station-service/point/{serialNumber}/ocpp/operationLog",
      summary: "Every OCPP frame in and out of a charger, newest first",
      tag,
      verb: ocppLog,
      params: serialParam,
      query: ocppLogQuery,
    },
    (ctx, { params, query }) => ocppLog(ctx, params.serialNumber, query),
  ),
];
