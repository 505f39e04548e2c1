import { cpoCommandListQuery, cpoListQuery, settlementQuery } from "../../../domain/schemas/ocpi/cpo-sessions";
import { listCpoCdrsForConsole, listCpoCommandsForConsole, listCpoSessionsForConsole, listCpoTokensForConsole, roamingSettlement } from "../../services/ocpi/cpo/console";
import { route } from "../app";

/** Partners' drivers at our chargers, for the console and API clients (docs/rules/ocpi.md "Partners' drivers at our chargers"). */
const tag = "OCPI service (CPO)";

export const routes = [
  route(
    { method: "get", path: "/ocpi-service/cpo/session", summary: "Roaming sessions at our chargers with their push state (platformId, text, pushState)", tag, verb: listCpoSessionsForConsole, query: cpoListQuery },
    (ctx, { query }) => listCpoSessionsForConsole(ctx, query),
  ),
  route(
    { method: "get", path: "/ocpi-service/cpo/cdr", summary: "CDRs of roaming sessions at our chargers with their push state (platformId, text, pushState)", tag, verb: listCpoCdrsForConsole, query: cpoListQuery },
    (ctx, { query }) => listCpoCdrsForConsole(ctx, query),
  ),
  route(
    { method: "get", path: "/ocpi-service/cpo/token", summary: "Tokens eMSP partners pushed to us (platformId, text)", tag, verb: listCpoTokensForConsole, query: cpoListQuery },
    (ctx, { query }) => listCpoTokensForConsole(ctx, query),
  ),
  route(
    { method: "get", path: "/ocpi-service/cpo/command", summary: "Commands eMSP partners sent us, with our response and the charger's result (platformId, command)", tag, verb: listCpoCommandsForConsole, query: cpoCommandListQuery },
    (ctx, { query }) => listCpoCommandsForConsole(ctx, query),
  ),
  route(
    { method: "get", path: "/ocpi-service/cpo/settlement", summary: "The monthly roaming settlement per partner and currency (month=yyyy-MM): sessions, energy, amount owed", tag, verb: roamingSettlement, query: settlementQuery },
    (ctx, { query }) => roamingSettlement(ctx, query),
  ),
];
