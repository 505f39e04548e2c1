import { isServerAction } from "../../../domain/ocpp";
import { isServerAction201 } from "../../../domain/ocpp/v201";
import { Conflict, Invalid } from "../../../domain/errors";
import { commandInput, commandProtocol } from "../../../domain/schemas/remote-control";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { diagnose } from "../points/diagnostics";
import { requestLog } from "../points/logs";
import { findPoint } from "../points/points";
import { verb } from "../verb";
import { command201, commandPoint, connectedVersionOf } from "./remote-control";

/**
 * Any server-initiated action with a schema-checked payload (POST /station-service/point/{id}/command),
 * in the point's own protocol: 1.6's actions for a point that speaks 1.6, 2.0.1's for one that speaks
 * 2.0.1 (the version its charger is connected with now, else its setting), sent as they are; an action only the other protocol has is a 400 before anything is sent
 * (docs/rules/ocpp.md "Remote commands"). It sits above both `command` and the diagnostics screen's
 * `diagnose`, which itself sends through `command`, so neither of those imports the other's module.
 */
export const anyCommand = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const input = commandInput.parse(raw);
  const { point } = await findPoint(ctx, { id: pointId });
  const protocol = commandProtocol(point.ocppVersion, await connectedVersionOf(ctx, point));
  // An AUTO point that is not connected speaks neither yet: offline, as for any command.
  if (!protocol) throw new Conflict("errors.pointOffline");
  if (protocol === "2.0.1") {
    if (!isServerAction201(input.action)) throw new Invalid("errors.ocpp16Action", { action: input.action });
    return command201(ctx, point, input.action, input.payload);
  }
  if (!isServerAction(input.action)) throw new Invalid("errors.ocpp201Action", { action: input.action });
  // A diagnostics or log request is recorded before it goes out, whichever way it is sent (docs/rules/ocpp.md "Diagnostics").
  if (input.action === "GetDiagnostics") return (await diagnose(ctx, { id: pointId }, input.payload)).reply;
  if (input.action === "GetLog") return requestLog(ctx, { id: pointId }, input.payload);
  return commandPoint(ctx, point, input.action, input.payload);
});
