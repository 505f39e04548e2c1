import { discountCardListQuery, discountStrategyInput, discountStrategyListQuery, generateInput } from "../../../domain/schemas/discounts";
import * as strategies from "../../services/discounts/strategies";
import { resource } from "../resource";

const discountStrategy = resource("Finance service", "/finance-service/discount-strategy");

export const routes = [
  discountStrategy.list("Discount strategies, newest first, paged and filtered (name, type)", strategies.listDiscountStrategies, discountStrategyListQuery),
  discountStrategy.create("Create a discount strategy (VOUCHER or DISCOUNT, MONEY or DEGREE); `generateNumber` cards are generated with it", strategies.createDiscountStrategy, discountStrategyInput),
  discountStrategy.detail("A discount strategy", strategies.discountStrategyDetail),
  discountStrategy.update("Update a discount strategy (its type, unit and quota only while none of its cards is given)", strategies.updateDiscountStrategy, discountStrategyInput),
  discountStrategy.remove("Delete a discount strategy and its cards, while none of them is given", strategies.deleteDiscountStrategy),
  discountStrategy.post("/{id}/generate", "Generate `count` discount cards with unique activation codes; answers them", strategies.generateDiscountCards, generateInput),
  discountStrategy.get("/{id}/card", "The cards of a strategy, newest first, paged and filtered (status, code)", strategies.listStrategyCards, discountCardListQuery),
];
