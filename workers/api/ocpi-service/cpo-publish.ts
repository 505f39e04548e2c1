import { cpoListQuery, publishInput } from "../../../domain/schemas/ocpi/cpo";
import { listPublishedLocations, setStationPublished } from "../../services/ocpi/cpo-locations";
import { listPublishedTariffs, tariffTerms } from "../../services/ocpi/cpo-tariffs";
import { resource } from "../resource";

/** What we publish as a CPO, for the console and API clients (docs/rules/ocpi.md "CPO role"). */
const tag = "OCPI service (CPO)";
const location = resource(tag, "/ocpi-service/cpo/location");
const cpo = resource(tag, "/ocpi-service/cpo");

export const routes = [
  location.list("The locations we publish, as partners see them, with each partner's push state (q: name)", listPublishedLocations, cpoListQuery),
  location.update("Publish a station to roaming partners, or withdraw it: { publish: true|false }", setStationPublished, publishInput),
  cpo.get("/tariff", "The tariffs we publish (our charging strategies), with each partner's push state (q: name)", listPublishedTariffs, cpoListQuery),
  cpo.get("/tariff-terms", "Our party, language and tax, as the strategy editor's tariff preview writes them; null without an OCPI identity", tariffTerms),
];
