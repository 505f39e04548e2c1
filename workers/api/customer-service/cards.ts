import {
  cardBindInput,
  cardImportInput,
  cardInput,
  cardListQuery,
  cardLostInput,
  cardStatusInput,
  cardUpdateInput,
} from "../../../domain/schemas/drivers";
import { importCards } from "../../services/drivers/card-import";
import { bindCard, cardDetail, createCard, deleteCard, listCards, resumeLostCard, setCardStatus, unbindCard, updateCard } from "../../services/drivers/cards";
import { idParam, route } from "../app";

const tag = "Customer service";

export const routes = [
  route(
    {
      method: "get",
      path: "/customer-service/rf-card",
      summary: "RFID cards, newest first, paged and filtered (idTag, cardName, status, bindStatus, customerId, owner)",
      tag,
      verb: listCards,
      query: cardListQuery,
    },
    (ctx, { query }) => listCards(ctx, query),
  ),

  route(
    {
      method: "post",
      path: "/customer-service/rf-card",
      summary: "Issue a card (VALID; BIND when customerId is given); a taken idTag is 400 on the field",
      tag,
      verb: createCard,
      body: cardInput,
    },
    (ctx, { body }) => createCard(ctx, body),
  ),

  // Fixed paths before `{id}`, which would otherwise take them.
  route(
    {
      method: "post",
      path: "/customer-service/rf-card/import",
      summary: "Import cards from sheet rows: all or none; bad rows answer 400 with `fields` keyed `<line>.<field>`",
      tag,
      verb: importCards,
      body: cardImportInput,
    },
    (ctx, { body }) => importCards(ctx, body),
  ),

  route(
    { method: "get", path: "/customer-service/rf-card/{id}", summary: "A card with its owner", tag, verb: cardDetail, params: idParam },
    (ctx, { params }) => cardDetail(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/customer-service/rf-card/{id}",
      summary: "Edit a card (status VALID, BLOCKED or EXPIRED); a lost card is 409, and so is another owner for a bound card (unbind, then bind)",
      tag,
      verb: updateCard,
      params: idParam,
      body: cardUpdateInput,
    },
    (ctx, { params, body }) => updateCard(ctx, params.id, body),
  ),

  route(
    {
      method: "put",
      path: "/customer-service/rf-card/{id}/status",
      summary: "Block, unblock or expire a card: the charger's next Authorize answers accordingly",
      tag,
      verb: setCardStatus,
      params: idParam,
      body: cardStatusInput,
    },
    (ctx, { params, body }) => setCardStatus(ctx, params.id, body),
  ),

  route(
    { method: "put", path: "/customer-service/rf-card/{id}/bind", summary: "Pair an unbound card with a customer", tag, verb: bindCard, params: idParam, body: cardBindInput },
    (ctx, { params, body }) => bindCard(ctx, params.id, body),
  ),

  route(
    { method: "put", path: "/customer-service/rf-card/{id}/unbind", summary: "Unpair a card from its owner (no body)", tag, verb: unbindCard, params: idParam },
    (ctx, { params }) => unbindCard(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/customer-service/rf-card/{id}/lost",
      summary: "Resume a lost card: the old tag becomes Blocked, a new card with newIdTag takes its owner, group and history",
      tag,
      verb: resumeLostCard,
      params: idParam,
      body: cardLostInput,
    },
    (ctx, { params, body }) => resumeLostCard(ctx, params.id, body),
  ),

  route(
    { method: "delete", path: "/customer-service/rf-card/{id}", summary: "Delete a card: its tag answers Invalid from then on", tag, verb: deleteCard, params: idParam },
    (ctx, { params }) => deleteCard(ctx, params.id),
  ),
];
