import * as remote from "../../../domain/schemas/remote-control";
import { pathId } from "../../../domain/schemas/numbers";
import { listMonitoredPoints } from "../../services/points/points";
import { pointListQuery } from "../../../domain/schemas/equipment";
import { anyCommand } from "../../services/remote/any-command";
import { remoteCommand, remoteStart, remoteStop } from "../../services/remote/remote-control";
import { remoteDiagnostics } from "../../services/points/diagnostics";
import { idParam, route } from "../app";
import { resource } from "../resource";

const tag = "Monitoring and remote control";
const stationService = resource(tag, "/station-service");

export const routes = [
  stationService.get("/monitoring/point", "Points with their live state (read-only)", listMonitoredPoints, pointListQuery),

  route(
    {
      method: "put",
      path: "/station-service/monitoring/reset/point/{serialNumber}",
      summary: "Reset (Soft or Hard)",
      tag,
      verb: remoteCommand,
      params: remote.serialParam,
      body: remote.resetInput,
    },
    (ctx, { params, body }) => remoteCommand(ctx, params, "Reset", { type: body.type }),
  ),

  route(
    {
      method: "put",
      path: "/station-service/monitoring/point/triggerMessage/{serialNumber}",
      summary: "TriggerMessage (StatusNotification refreshes status, BootNotification the version)",
      tag,
      verb: remoteCommand,
      params: remote.serialParam,
      body: remote.triggerInput,
    },
    (ctx, { params, body }) => remoteCommand(ctx, params, "TriggerMessage", body),
  ),

  route(
    {
      method: "put",
      path: "/station-service/monitoring/clearChargingProfile/{serialNumber}",
      summary: "ClearChargingProfile (all profiles unless filtered)",
      tag,
      verb: remoteCommand,
      params: remote.serialParam,
      body: remote.clearChargingProfileInput,
    },
    (ctx, { params, body }) => remoteCommand(ctx, params, "ClearChargingProfile", body),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/getCompositeSchedule/{serialNumber}",
      summary: "GetCompositeSchedule",
      tag,
      verb: remoteCommand,
      params: remote.serialParam,
      query: remote.compositeScheduleQuery,
    },
    (ctx, { params, query }) => remoteCommand(ctx, params, "GetCompositeSchedule", query),
  ),

  route(
    {
      method: "put",
      path: "/station-service/monitoring/dataTransfer/{serialNumber}",
      summary: "DataTransfer to the charger",
      tag,
      verb: remoteCommand,
      params: remote.serialParam,
      body: remote.dataTransferInput,
    },
    (ctx, { params, body }) => remoteCommand(ctx, params, "DataTransfer", body),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/getDiagnostics/{serialNumber}",
      summary: "GetDiagnostics: upload to an FTP location",
      tag,
      verb: remoteDiagnostics,
      params: remote.serialParam,
      query: remote.getDiagnosticsQuery,
    },
    (ctx, { params, query }) => remoteDiagnostics(ctx, params, query),
  ),

  route(
    {
      method: "get",
      path: "/station-service/monitoring/getLocalListVersion/{serialNumber}",
      summary: "GetLocalListVersion",
      tag,
      verb: remoteCommand,
      params: remote.serialParam,
    },
    (ctx, { params }) => remoteCommand(ctx, params, "GetLocalListVersion", {}),
  ),

  route(
    {
      method: "put",
      path: "/station-service/remoteControl/unlockConnector/{id}",
      summary: "UnlockConnector",
      tag,
      verb: remoteCommand,
      params: idParam,
      body: remote.connectorInput,
    },
    (ctx, { params, body }) => remoteCommand(ctx, { id: params.id }, "UnlockConnector", body),
  ),

  stationService.put("/remoteControl/remoteStart/{id}", "RemoteStartTransaction; without idTag the operator's remote tag is used", remoteStart, remote.remoteStartInput),

  route(
    {
      method: "put",
      path: "/station-service/remoteControl/{id}/remoteStop/{transaction}",
      summary: "RemoteStopTransaction",
      tag,
      verb: remoteStop,
      params: idParam.extend({ transaction: pathId }),
    },
    (ctx, { params }) => remoteStop(ctx, params.id, params.transaction),
  ),

  stationService.post(
    "/point/{id}/command",
    "Any server-initiated OCPP action in the point's protocol: 1.6 names (ChangeConfiguration, …) for a 1.6 point, 2.0.1 names (GetVariables, SetDisplayMessage, …) for a 2.0.1 point; the other protocol's names are 400, the payload is checked against the protocol's schema",
    anyCommand,
    remote.commandInput,
  ),
];
