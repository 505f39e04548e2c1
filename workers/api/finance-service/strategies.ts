import { assignInput, strategyInput, strategyListQuery, strategyPointQuery } from "../../../domain/schemas/pricing";
import {
  assignStrategy,
  copyStrategy,
  createStrategy,
  deleteStrategy,
  getStrategy,
  getStrategyVersion,
  listStrategies,
  pricingSettings,
  strategyPoints,
  updateStrategy,
} from "../../services/pricing/strategies";
import { idParam, route } from "../app";

const tag = "Finance service: charging strategies";

export const routes = [
  route(
    { method: "get", path: "/finance-service/strategy", summary: "Charging strategies, newest first, paged (filter: name)", tag, verb: listStrategies, query: strategyListQuery },
    (ctx, { query }) => listStrategies(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/finance-service/strategy",
      summary: "Create a strategy (version 1): electricity and service slots covering 00:00–24:00 on half hours, idle fees",
      tag,
      verb: createStrategy,
      body: strategyInput,
    },
    (ctx, { body }) => createStrategy(ctx, body),
  ),
  route(
    { method: "get", path: "/finance-service/strategy/settings", summary: "The operator's currency, decimals and time zone, for the editor", tag, verb: pricingSettings },
    (ctx) => pricingSettings(ctx),
  ),
  route(
    {
      method: "get",
      path: "/finance-service/strategy/points",
      summary: "Points to assign, paged (serialNumber, stationId, strategyId), each with its strategy",
      tag,
      verb: strategyPoints,
      query: strategyPointQuery,
    },
    (ctx, { query }) => strategyPoints(ctx, query),
  ),
  route(
    {
      method: "get",
      path: "/finance-service/strategy/version/{id}",
      summary: "One version of a strategy, as it priced the sessions that name it (also of a deleted strategy)",
      tag,
      verb: getStrategyVersion,
      params: idParam,
    },
    (ctx, { params }) => getStrategyVersion(ctx, params.id),
  ),
  route({ method: "get", path: "/finance-service/strategy/{id}", summary: "One strategy with its current version", tag, verb: getStrategy, params: idParam }, (ctx, { params }) =>
    getStrategy(ctx, params.id),
  ),
  route(
    {
      method: "put",
      path: "/finance-service/strategy/{id}",
      summary: "Edit a strategy: writes a new version; sessions keep the version they started with",
      tag,
      verb: updateStrategy,
      params: idParam,
      body: strategyInput,
    },
    (ctx, { params, body }) => updateStrategy(ctx, params.id, body),
  ),
  route(
    { method: "delete", path: "/finance-service/strategy/{id}", summary: "Delete a strategy no point charges by (409 while assigned)", tag, verb: deleteStrategy, params: idParam },
    (ctx, { params }) => deleteStrategy(ctx, params.id),
  ),
  route(
    { method: "post", path: "/finance-service/strategy/{id}/copy", summary: "Copy a strategy: a new strategy with the same prices", tag, verb: copyStrategy, params: idParam },
    (ctx, { params }) => copyStrategy(ctx, params.id),
  ),
  route(
    {
      method: "put",
      path: "/finance-service/strategy/{id}/assign",
      summary: "The points that charge by this strategy: listed points move to it, its unlisted points are released",
      tag,
      verb: assignStrategy,
      params: idParam,
      body: assignInput,
    },
    (ctx, { params, body }) => assignStrategy(ctx, params.id, body),
  ),
];
