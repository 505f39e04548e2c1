import { commandInput, commandListQuery } from "../../../domain/schemas/ocpi/commands";
import { getCommand, listCommands, sendCommand } from "../../services/ocpi/commands";
import { resource } from "../resource";

/** Commands sent to partners' chargers (docs/rules/ocpi.md "Commands"). */
const command = resource("OCPI service", "/ocpi-service/command");

export const routes = [
  command.create(
    "Send a command to a registered partner: { platformId, command: START_SESSION|STOP_SESSION|RESERVE_NOW|CANCEL_RESERVATION|UNLOCK_CONNECTOR, ...its parameters }; answers the command with the CPO's CommandResponse (409 with the partner's reason when the call fails)",
    sendCommand,
    commandInput,
  ),
  command.list("Commands sent, newest first (platformId, command, result: a CommandResult or PENDING, response, q, from, to)", listCommands, commandListQuery),
  command.detail("One command with the object sent and both answers", getCommand),
];
