import { z } from "zod";
import { listPoints, pointDetail, pointListQuery, POINT_MENUS } from "../../services/points/points";
import { chargePointName } from "../../ocpp/identity";
import { findPoint } from "../../services/points/points";
import { pageQuery } from "../../../domain/schemas/account-service";
import { pointInput, pointStatusInput } from "../../../domain/schemas/equipment";
import { createPoint, keyInput, rotateChargerKey, setPointStatus } from "../../services/points/point-admin";
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
