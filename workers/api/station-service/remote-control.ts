import { z } from "zod";
import {
  anyCommand,
  command,
  commandInput,
  connectorInput,
  remoteStart,
  remoteStartInput,
  resetInput,
  triggerInput,
} from "../../services/remote/remote-control";
import { listPoints, pointListQuery, POINT_MENUS } from "../../services/points/points";
import { idParam, route } from "../app";

const tag = "Monitoring and remote control";
const access = { menu: ["equipment.remoteControl", "equipment.point", "monitoring.chargingPile"] };
const serialParam = z.object({ serialNumber: z.string().min(1).max(64) });
// Commands to a charger count as changes, also when they travel as GET (SPEC.md §7).
const mutating = true;

route({ method: "get", path: "/station-service/monitoring/point", summary: "Points with their live state", tag, access: { menu: POINT_MENUS }, query: pointListQuery }, (ctx, { query }) =>
  listPoints(ctx, query),
);

route(
  { method: "put", path: "/station-service/monitoring/reset/point/{serialNumber}", summary: "Reset (Soft or Hard)", tag, access, params: serialParam, body: resetInput },
  (ctx, { params, body }) => command(ctx, params, "Reset", { type: body.type }),
);

route(
  {
    method: "put",
    path: "/station-service/monitoring/point/triggerMessage/{serialNumber}",
    summary: "TriggerMessage (StatusNotification refreshes status, BootNotification the version)",
    tag,
    access,
    params: serialParam,
    body: triggerInput,
  },
  (ctx, { params, body }) => command(ctx, params, "TriggerMessage", body),
);

route(
  {
    method: "put",
    path: "/station-service/monitoring/clearChargingProfile/{serialNumber}",
    summary: "ClearChargingProfile (all profiles unless filtered)",
    tag,
    access,
    params: serialParam,
    body: z.object({
      id: z.number().int().optional(),
      connectorId: z.number().int().min(0).optional(),
      chargingProfilePurpose: z.enum(["ChargePointMaxProfile", "TxDefaultProfile", "TxProfile"]).optional(),
      stackLevel: z.number().int().min(0).optional(),
    }),
  },
  (ctx, { params, body }) => command(ctx, params, "ClearChargingProfile", body),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/getCompositeSchedule/{serialNumber}",
    summary: "GetCompositeSchedule",
    tag,
    access,
    mutating,
    params: serialParam,
    query: z.object({
      connectorId: z.coerce.number().int().min(0).default(0),
      duration: z.coerce.number().int().positive().default(86_400),
      chargingRateUnit: z.enum(["A", "W"]).optional(),
    }),
  },
  (ctx, { params, query }) => command(ctx, params, "GetCompositeSchedule", query),
);

route(
  {
    method: "put",
    path: "/station-service/monitoring/dataTransfer/{serialNumber}",
    summary: "DataTransfer to the charger",
    tag,
    access,
    params: serialParam,
    body: z.object({ vendorId: z.string().min(1).max(255), messageId: z.string().max(50).optional(), data: z.string().optional() }),
  },
  (ctx, { params, body }) => command(ctx, params, "DataTransfer", body),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/getDiagnostics/{serialNumber}",
    summary: "GetDiagnostics: upload to an FTP location",
    tag,
    access,
    mutating,
    params: serialParam,
    query: z.object({
      location: z.string().regex(/^s?ftps?:\/\//i, { error: "validation.ftp" }),
      retries: z.coerce.number().int().min(0).optional(),
      retryInterval: z.coerce.number().int().min(0).optional(),
      startTime: z.iso.datetime({ offset: true }).optional(),
      stopTime: z.iso.datetime({ offset: true }).optional(),
    }),
  },
  (ctx, { params, query }) => command(ctx, params, "GetDiagnostics", query),
);

route(
  {
    method: "get",
    path: "/station-service/monitoring/getLocalListVersion/{serialNumber}",
    summary: "GetLocalListVersion",
    tag,
    access,
    mutating,
    params: serialParam,
  },
  (ctx, { params }) => command(ctx, params, "GetLocalListVersion", {}),
);

route(
  { method: "put", path: "/station-service/remoteControl/unlockConnector/{id}", summary: "UnlockConnector", tag, access, params: idParam, body: connectorInput },
  (ctx, { params, body }) => command(ctx, { id: params.id }, "UnlockConnector", body),
);

route(
  {
    method: "put",
    path: "/station-service/remoteControl/remoteStart/{id}",
    summary: "RemoteStartTransaction; without idTag the operator's remote tag is used",
    tag,
    access,
    params: idParam,
    body: remoteStartInput,
  },
  (ctx, { params, body }) => remoteStart(ctx, params.id, body),
);

route(
  {
    method: "put",
    path: "/station-service/remoteControl/{id}/remoteStop/{transaction}",
    summary: "RemoteStopTransaction",
    tag,
    access,
    params: idParam.extend({ transaction: z.coerce.number().int().positive() }),
  },
  (ctx, { params }) => command(ctx, { id: params.id }, "RemoteStopTransaction", { transactionId: params.transaction }),
);

route(
  {
    method: "post",
    path: "/station-service/point/{id}/command",
    summary: "Any server-initiated OCPP action with a schema-checked payload",
    tag,
    access,
    params: idParam,
    body: commandInput,
  },
  (ctx, { params, body }) => anyCommand(ctx, params.id, body),
);
