import { commandInput, commandListQuery } from "../../../domain/schemas/ocpi/commands";
import { getCommand, listCommands, sendCommand } from "../../services/ocpi/commands";
import { idParam, route } from "../app";

/** Commands sent to partners' chargers (docs/rules/ocpi.md "Commands"). */
const tag = "OCPI service";

export const routes = [
  route(
    {
      method: "post",
      path: "/ocpi-service/command",
      summary:
        "Send a command to a registered partner: { platformId, command: START_SESSION|STOP_SESSION|RESERVE_NOW|CANCEL_RESERVATION|UNLOCK_CONNECTOR, ...its parameters }; answers the command with the CPO's CommandResponse (409 with the partner's reason when the call fails)",
      tag,
      verb: sendCommand,
      body: commandInput,
    },
    (ctx, { body }) => sendCommand(ctx, body),
  ),
  route(
    {
      method: "get",
      path: "/ocpi-service/command",
      summary: "Commands sent, newest first (platformId, command, result: a CommandResult or PENDING, response, q, from, to)",
      tag,
      verb: listCommands,
      query: commandListQuery,
    },
    (ctx, { query }) => listCommands(ctx, query),
  ),
  route({ method: "get", path: "/ocpi-service/command/{id}", summary: "One command with the object sent and both answers", tag, verb: getCommand, params: idParam }, (ctx, { params }) =>
    getCommand(ctx, params.id),
  ),
];
