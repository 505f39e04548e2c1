import { z } from "zod";
import { chargePointName } from "../../ocpp/identity";
import { findPoint, listPoints, pointDetail, pointListQuery, POINT_MENUS } from "../../services/points/points";
import { stationOptions } from "../../services/stations/stations";
import { pageQuery } from "../../../domain/schemas/account-service";
import { diagnoseInput, pointBatchEnableInput, pointImportInput, pointInput, pointStatusInput } from "../../../domain/schemas/equipment";
import { diagnosisListQuery, listDiagnostics, requestDiagnostics } from "../../services/points/diagnostics";
import { createPoint, deletePoint, enablePoints, keyInput, rotateChargerKey, setPointStatus, updatePoint } from "../../services/points/point-admin";
import { importPoints } from "../../services/points/point-import";
import { connectorQuota } from "../../services/points/quota";
import { idParam, route } from "../app";

const tag = "Point service";
const access = { menu: POINT_MENUS };
const serialParam = z.object({ serialNumber: z.string().min(1).max(64) });

route({ method: "get", path: "/station-service/point", summary: "Points, paged and filtered (serialNumber, name, stationId, status, type, online)", tag, access, query: pointListQuery }, (ctx, { query }) =>
  listPoints(ctx, query),
);

route(
  { method: "post", path: "/station-service/point", summary: "Create a point with its connectors (disabled until enabled)", tag, access: { menu: ["equipment.point"] }, body: pointInput },
  (ctx, { body }) => createPoint(ctx, body),
);

route(
  {
    method: "put",
    path: "/station-service/point/{id}/valid",
    summary: "Enable or disable a point; a connected charger gets ChangeAvailability",
    tag,
    access: { menu: ["equipment.point"] },
    params: idParam,
    body: pointStatusInput,
  },
  (ctx, { params, body }) => setPointStatus(ctx, params.id, body),
);

route(
  {
    method: "put",
    path: "/station-service/point/valid/points",
    summary: "Enable several points (all or nothing: refused, naming them, when any point's location is disabled)",
    tag,
    access: { menu: ["equipment.point"] },
    body: pointBatchEnableInput,
  },
  (ctx, { body }) => enablePoints(ctx, body),
);

route(
  {
    method: "get",
    path: "/station-service/point/quota",
    summary: "Authorised AC and DC connector counts: authorised, used, enabled, remaining",
    tag,
    access,
  },
  (ctx) => connectorQuota(ctx),
);

route(
  { method: "get", path: "/station-service/point/stations", summary: "Locations to choose from in point forms and filters", tag, access },
  (ctx) => stationOptions(ctx),
);

route(
  {
    method: "post",
    path: "/station-service/point/import",
    summary: "Import points from sheet rows: all or none; bad rows answer 400 with `fields` keyed `<line>.<field>`",
    tag,
    access: { menu: ["equipment.point"] },
    body: pointImportInput,
  },
  (ctx, { body }) => importPoints(ctx, body),
);

route(
  {
    method: "put",
    path: "/station-service/point/{id}",
    summary: "Edit a point; an enabled point keeps its type, power, connectors, serial number and location",
    tag,
    access: { menu: ["equipment.point"] },
    params: idParam,
    body: pointInput,
  },
  (ctx, { params, body }) => updatePoint(ctx, params.id, body),
);

route(
  {
    method: "delete",
    path: "/station-service/point/{id}",
    summary: "Delete a disabled point that has no charge records, with its connectors and technical history",
    tag,
    access: { menu: ["equipment.point"] },
    params: idParam,
  },
  (ctx, { params }) => deletePoint(ctx, params.id),
);

route(
  {
    method: "post",
    path: "/station-service/point/{id}/diagnose",
    summary: "GetDiagnostics to an FTP location; the request is listed with its upload status (-1, 1, 2, 3)",
    tag,
    access: { menu: ["equipment.point", "equipment.remoteControl"] },
    params: idParam,
    body: diagnoseInput,
  },
  (ctx, { params, body }) => requestDiagnostics(ctx, params.id, body),
);

route(
  {
    method: "get",
    path: "/station-service/diagnosis",
    summary: "Diagnostics requests, newest first (pointId, status)",
    tag,
    access,
    query: diagnosisListQuery,
  },
  (ctx, { query }) => listDiagnostics(ctx, query),
);

route({ method: "get", path: "/station-service/point/detail/{id}", summary: "A point with its connectors", tag, access, params: idParam }, (ctx, { params }) =>
  pointDetail(ctx, { id: params.id }),
);

route({ method: "get", path: "/station-service/point/{id}", summary: "A point with its connectors", tag, access, params: idParam }, (ctx, { params }) =>
  pointDetail(ctx, { id: params.id }),
);

route(
  {
    method: "post",
    path: "/station-service/point/{id}/key",
    summary: "Generate or rotate the charger key (shown once); `push` sends it to a connected charger first",
    tag,
    access: { menu: ["equipment.point"] },
    params: idParam,
    body: keyInput,
  },
  (ctx, { params, body }) => rotateChargerKey(ctx, params.id, body),
);

route(
  {
    method: "get",
    path: "/station-service/point/{serialNumber}/ocpp/operationLog",
    summary: "Every OCPP frame in and out of a charger, newest first",
    tag,
    access,
    params: serialParam,
    query: pageQuery.extend({ action: z.string().max(40).optional() }),
  },
  async (ctx, { params, query }) => {
    const { point } = await findPoint(ctx, { serialNumber: params.serialNumber });
    return ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber)).operationLog(query);
  },
);
