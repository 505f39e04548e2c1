import { cardParams, discountCardListQuery, giveCardInput } from "../../../domain/schemas/discounts";
import { giveDiscountCard, listCustomerDiscountCards, voidDiscountCard } from "../../services/discounts/cards";
import { idParam, route } from "../app";

const tag = "Customer service";

export const routes = [
  route(
    {
      method: "get",
      path: "/customer-service/customer/{id}/discount-card",
      summary: "A customer's discount cards (id, strategyId, status, remaining, expiresAt), newest first, paged",
      tag,
      verb: listCustomerDiscountCards,
      params: idParam,
      query: discountCardListQuery,
    },
    (ctx, { params, query }) => listCustomerDiscountCards(ctx, params.id, query),
  ),

  route(
    { method: "post", path: "/customer-service/customer/{id}/discount-card", summary: "Give a customer the discount card of an activation code", tag, verb: giveDiscountCard, params: idParam, body: giveCardInput },
    (ctx, { params, body }) => giveDiscountCard(ctx, params.id, body),
  ),

  route(
    { method: "put", path: "/customer-service/customer/{id}/discount-card/{cardId}/void", summary: "Void (cancel) a customer's discount card", tag, verb: voidDiscountCard, params: cardParams },
    (ctx, { params }) => voidDiscountCard(ctx, params.id, params.cardId),
  ),
];
