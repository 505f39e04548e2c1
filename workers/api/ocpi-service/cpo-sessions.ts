import { cpoCommandListQuery, cpoListQuery, settlementQuery } from "../../../domain/schemas/ocpi/cpo-sessions";
import { listCpoCdrsForConsole, listCpoCommandsForConsole, listCpoSessionsForConsole, listCpoTokensForConsole, roamingSettlement } from "../../services/ocpi/cpo/console";
import { resource } from "../resource";

/** Partners' drivers at our chargers, for the console and API clients (docs/rules/ocpi.md "Partners' drivers at our chargers"). */
const cpo = resource("OCPI service (CPO)", "/ocpi-service/cpo");

export const routes = [
  cpo.get("/session", "Roaming sessions at our chargers with their push state (platformId, text, pushState)", listCpoSessionsForConsole, cpoListQuery),
  cpo.get("/cdr", "CDRs of roaming sessions at our chargers with their push state (platformId, text, pushState)", listCpoCdrsForConsole, cpoListQuery),
  cpo.get("/token", "Tokens eMSP partners pushed to us (platformId, text)", listCpoTokensForConsole, cpoListQuery),
  cpo.get("/command", "Commands eMSP partners sent us, with our response and the charger's result (platformId, command)", listCpoCommandsForConsole, cpoCommandListQuery),
  cpo.get("/settlement", "The monthly roaming settlement per partner and currency (month=yyyy-MM): sessions, energy, amount owed", roamingSettlement, settlementQuery),
];
