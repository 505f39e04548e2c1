import { assignInput, strategyInput, strategyListQuery, strategyPointQuery } from "../../../domain/schemas/pricing";
import * as strategies from "../../services/pricing/strategies";
import { resource } from "../resource";

const strategy = resource("Finance service: charging strategies", "/finance-service/strategy");

export const routes = [
  strategy.list("Charging strategies, newest first, paged (filter: name)", strategies.listStrategies, strategyListQuery),
  strategy.create("Create a strategy (version 1): electricity and service slots covering 00:00–24:00 on half hours, idle fees", strategies.createStrategy, strategyInput),
  strategy.get("/settings", "The operator's currency, decimals and time zone, for the editor", strategies.pricingSettings),
  strategy.get("/points", "Points to assign, paged (serialNumber, stationId, strategyId), each with its strategy", strategies.strategyPoints, strategyPointQuery),
  strategy.get("/version/{id}", "One version of a strategy, as it priced the sessions that name it (also of a deleted strategy)", strategies.getStrategyVersion),
  strategy.detail("One strategy with its current version", strategies.getStrategy),
  strategy.update("Edit a strategy: writes a new version; sessions keep the version they started with", strategies.updateStrategy, strategyInput),
  strategy.remove("Delete a strategy no point charges by (409 while assigned)", strategies.deleteStrategy),
  strategy.post("/{id}/copy", "Copy a strategy: a new strategy with the same prices", strategies.copyStrategy),
  strategy.put("/{id}/assign", "The points that charge by this strategy: listed points move to it, its unlisted points are released", strategies.assignStrategy, assignInput),
];
