import { cardParams, discountCardListQuery, giveCardInput } from "../../../domain/schemas/discounts";
import { giveDiscountCard, listCustomerDiscountCards, voidDiscountCard } from "../../services/discounts/cards";
import { route } from "../app";
import { resource } from "../resource";

const tag = "Customer service";
const customer = resource(tag, "/customer-service/customer");

export const routes = [
  customer.get("/{id}/discount-card", "A customer's discount cards (id, strategyId, status, remaining, expiresAt), newest first, paged", listCustomerDiscountCards, discountCardListQuery),
  customer.post("/{id}/discount-card", "Give a customer the discount card of an activation code", giveDiscountCard, giveCardInput),

  route(
    { method: "put", path: "/customer-service/customer/{id}/discount-card/{cardId}/void", summary: "Void (cancel) a customer's discount card", tag, verb: voidDiscountCard, params: cardParams },
    (ctx, { params }) => voidDiscountCard(ctx, params.id, params.cardId),
  ),
];
