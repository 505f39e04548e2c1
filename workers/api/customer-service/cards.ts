import * as drivers from "../../../domain/schemas/drivers";
import { importCards } from "../../services/drivers/card-import";
import { bindCard, cardDetail, createCard, deleteCard, listCards, resumeLostCard, setCardStatus, unbindCard, updateCard } from "../../services/drivers/cards";
import { resource } from "../resource";

const tag = "Customer service";
const rfCard = resource(tag, "/customer-service/rf-card");

export const routes = [
  rfCard.list("RFID cards, newest first, paged and filtered (idTag, cardName, status, bindStatus, customerId, owner)", listCards, drivers.cardListQuery),
  rfCard.create("Issue a card (VALID; BIND when customerId is given); a taken idTag is 400 on the field", createCard, drivers.cardInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  rfCard.post("/import", "Import cards from sheet rows: all or none; bad rows answer 400 with `fields` keyed `<line>.<field>`", importCards, drivers.cardImportInput),
  rfCard.detail("A card with its owner", cardDetail),
  rfCard.update("Edit a card (status VALID, BLOCKED or EXPIRED); a lost card is 409, and so is another owner for a bound card (unbind, then bind)", updateCard, drivers.cardUpdateInput),
  rfCard.put("/{id}/status", "Block, unblock or expire a card: the charger's next Authorize answers accordingly", setCardStatus, drivers.cardStatusInput),
  rfCard.put("/{id}/bind", "Pair an unbound card with a customer", bindCard, drivers.cardBindInput),
  rfCard.put("/{id}/unbind", "Unpair a card from its owner (no body)", unbindCard),
  rfCard.put("/{id}/lost", "Resume a lost card: the old tag becomes Blocked, a new card with newIdTag takes its owner, group and history", resumeLostCard, drivers.cardLostInput),
  rfCard.remove("Delete a card: its tag answers Invalid from then on", deleteCard),
];
