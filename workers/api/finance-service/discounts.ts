import { discountCardListQuery, discountStrategyInput, discountStrategyListQuery, generateInput } from "../../../domain/schemas/discounts";
import {
  createDiscountStrategy,
  deleteDiscountStrategy,
  discountStrategyDetail,
  generateDiscountCards,
  listDiscountStrategies,
  listStrategyCards,
  updateDiscountStrategy,
} from "../../services/discounts/strategies";
import { idParam, route } from "../app";

const tag = "Finance service";
const path = "/finance-service/discount-strategy";

export const routes = [
  route(
    { method: "get", path, summary: "Discount strategies, newest first, paged and filtered (name, type)", tag, verb: listDiscountStrategies, query: discountStrategyListQuery },
    (ctx, { query }) => listDiscountStrategies(ctx, query),
  ),

  route(
    {
      method: "post",
      path,
      summary: "Create a discount strategy (VOUCHER or DISCOUNT, MONEY or DEGREE); `generateNumber` cards are generated with it",
      tag,
      verb: createDiscountStrategy,
      body: discountStrategyInput,
    },
    (ctx, { body }) => createDiscountStrategy(ctx, body),
  ),

  route({ method: "get", path: `${path}/{id}`, summary: "A discount strategy", tag, verb: discountStrategyDetail, params: idParam }, (ctx, { params }) =>
    discountStrategyDetail(ctx, params.id),
  ),

  route(
    { method: "put", path: `${path}/{id}`, summary: "Update a discount strategy (its type, unit and quota only while none of its cards is given)", tag, verb: updateDiscountStrategy, params: idParam, body: discountStrategyInput },
    (ctx, { params, body }) => updateDiscountStrategy(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: `${path}/{id}`, summary: "Delete a discount strategy and its cards, while none of them is given", tag, verb: deleteDiscountStrategy, params: idParam },
    (ctx, { params }) => deleteDiscountStrategy(ctx, params.id),
  ),

  route(
    { method: "post", path: `${path}/{id}/generate`, summary: "Generate `count` discount cards with unique activation codes; answers them", tag, verb: generateDiscountCards, params: idParam, body: generateInput },
    (ctx, { params, body }) => generateDiscountCards(ctx, params.id, body),
  ),

  route(
    { method: "get", path: `${path}/{id}/card`, summary: "The cards of a strategy, newest first, paged and filtered (status, code)", tag, verb: listStrategyCards, params: idParam, query: discountCardListQuery },
    (ctx, { params, query }) => listStrategyCards(ctx, params.id, query),
  ),
];
