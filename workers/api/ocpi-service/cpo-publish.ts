import { cpoListQuery, publishInput } from "../../../domain/schemas/ocpi/cpo";
import { listPublishedLocations, setStationPublished } from "../../services/ocpi/cpo-locations";
import { listPublishedTariffs, tariffTerms } from "../../services/ocpi/cpo-tariffs";
import { idParam, route } from "../app";

/** What we publish as a CPO, for the console and API clients (docs/rules/ocpi.md "CPO role"). */
const tag = "OCPI service (CPO)";

export const routes = [
  route(
    { method: "get", path: "/ocpi-service/cpo/location", summary: "The locations we publish, as partners see them, with each partner's push state (q: name)", tag, verb: listPublishedLocations, query: cpoListQuery },
    (ctx, { query }) => listPublishedLocations(ctx, query),
  ),
  route(
    { method: "put", path: "/ocpi-service/cpo/location/{id}", summary: "Publish a station to roaming partners, or withdraw it: { publish: true|false }", tag, verb: setStationPublished, params: idParam, body: publishInput },
    (ctx, { params, body }) => setStationPublished(ctx, params.id, body),
  ),
  route(
    { method: "get", path: "/ocpi-service/cpo/tariff", summary: "The tariffs we publish (our charging strategies), with each partner's push state (q: name)", tag, verb: listPublishedTariffs, query: cpoListQuery },
    (ctx, { query }) => listPublishedTariffs(ctx, query),
  ),
  route(
    { method: "get", path: "/ocpi-service/cpo/tariff-terms", summary: "Our party, language and tax, as the strategy editor's tariff preview writes them; null without an OCPI identity", tag, verb: tariffTerms },
    (ctx) => tariffTerms(ctx),
  ),
];
