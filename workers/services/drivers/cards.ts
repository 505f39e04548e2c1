import { count, desc, eq, inArray, or, sql } from "drizzle-orm";
import { containing, containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { customers, idTags, rfCards } from "../../../db/schema";
import { isUniqueViolation } from "../../../db/statements";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import {
  cardBindInput,
  cardInput,
  cardListQuery,
  cardLostInput,
  cardStatusInput,
  cardUpdateInput,
  type CardInput,
} from "../../../domain/schemas/drivers";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { CUSTOMER_MENU, customerName, findCustomer } from "./customers";
import { sameTag } from "./registry";
import { changedCards, tokensChanged } from "../ocpi/token-push";
import { customerJoin } from "./joins";

/**
 * User management › RFID cards (docs/rules/drivers.md "RFID cards"). Every card is an entry of the
 * registry Authorize reads (workers/services/drivers/registry.ts), so a change here is the
 * charger's next answer.
 */
export const CARD_MENU = "users.rfCard";
const CARD_READ_MENUS = [CARD_MENU, CUSTOMER_MENU];

type CardRow = typeof rfCards.$inferSelect;
type Owner = { id: number; firstName: string; lastName: string; email: string } | null;
/** A lost card's link to its replacement, both ways (docs/rules/drivers.md "Lost cards"). */
type Replacement = { replacesIdTag: string | null; replacedById: number | null; replacedByIdTag: string | null };
const NOT_REPLACED: Replacement = { replacesIdTag: null, replacedById: null, replacedByIdTag: null };

export function presentCard(c: CardRow, owner: Owner = null, replacement: Replacement = NOT_REPLACED) {
  return {
    id: c.id,
    cardName: c.cardName,
    idTag: c.idTag,
    status: c.status,
    bindStatus: c.bindStatus,
    customerId: c.customerId,
    customerName: owner ? customerName(owner) : null,
    customerEmail: owner?.email ?? null,
    expiryDate: c.expiryDate?.toISOString() ?? null,
    deliveryType: c.deliveryType,
    pickupNumber: c.pickupNumber,
    pickupPhone: c.pickupPhone,
    pickupAddress: c.pickupAddress,
    trackingNumber: c.trackingNumber,
    recipientName: c.recipientName,
    recipientPhone: c.recipientPhone,
    recipientAddress: c.recipientAddress,
    /** The lost card this one replaced, and its tag: the history before this card is under that tag. */
    replacesCardId: c.replacesCardId,
    replacesIdTag: replacement.replacesIdTag,
    /** For a lost card, the card that replaced it. */
    replacedById: replacement.replacedById,
    replacedByIdTag: replacement.replacedByIdTag,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
export type Card = ReturnType<typeof presentCard>;

const ownerColumns = { id: customers.id, firstName: customers.firstName, lastName: customers.lastName, email: customers.email };
/** A left join yields a row of nulls for an unbound card. */
const ownerOf = (o: { id: number | null; firstName: string | null; lastName: string | null; email: string | null } | null): Owner =>
  o && o.id !== null ? { id: o.id, firstName: o.firstName!, lastName: o.lastName!, email: o.email! } : null;

/**
 * The tags each card of a page replaced and was replaced by: two reads on the operator's indexes,
 * in slices (docs/rules/lists.md "D1's 100 parameters"). A deleted old card leaves no tag.
 */
async function replacementsOf(ctx: UserCtx, cards: CardRow[]) {
  const [replaced, replacing] = await Promise.all([
    rowsFor(
      cards.flatMap((c) => (c.replacesCardId === null ? [] : [c.replacesCardId])),
      (slice) => ctx.db.select({ id: rfCards.id, idTag: rfCards.idTag }).from(rfCards).where(owned(ctx, rfCards, inArray(rfCards.id, slice))),
    ),
    rowsFor(
      cards.filter((c) => c.status === "LOST").map((c) => c.id),
      (slice) =>
        ctx.db
          .select({ id: rfCards.id, idTag: rfCards.idTag, replacesCardId: rfCards.replacesCardId })
          .from(rfCards)
          .where(owned(ctx, rfCards, inArray(rfCards.replacesCardId, slice))),
    ),
  ]);
  const tagOf = new Map(replaced.map((r) => [r.id, r.idTag]));
  const successorOf = new Map(replacing.map((r) => [r.replacesCardId, r]));
  return (c: CardRow): Replacement => {
    const successor = successorOf.get(c.id);
    return {
      replacesIdTag: c.replacesCardId === null ? null : (tagOf.get(c.replacesCardId) ?? null),
      replacedById: successor?.id ?? null,
      replacedByIdTag: successor?.idTag ?? null,
    };
  };
}

/** One card as the API answers it, with its owner and replacement links. */
async function presentOne(ctx: UserCtx, card: CardRow, owner: Owner) {
  return presentCard(card, owner, (await replacementsOf(ctx, [card]))(card));
}

/** Cards, newest first, filtered and paged on the server (docs/rules/lists.md). */
export const listCards = verb({ menu: CARD_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = cardListQuery.parse(raw);
  const where = owned(
    ctx,
    rfCards,
    containingIf(rfCards.idTag, q.idTag),
    containingIf(rfCards.cardName, q.cardName),
    q.status ? eq(rfCards.status, q.status) : undefined,
    q.bindStatus ? eq(rfCards.bindStatus, q.bindStatus) : undefined,
    q.customerId ? eq(rfCards.customerId, q.customerId) : undefined,
    q.owner
      ? inArray(
          rfCards.customerId,
          ctx.db
            .select({ id: customers.id })
            .from(customers)
            .where(owned(ctx, customers, or(containing(sql`${customers.firstName} || ' ' || ${customers.lastName}`, q.owner), containing(customers.email, q.owner)))),
        )
      : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ card: rfCards, owner: ownerColumns })
        .from(rfCards)
        .leftJoin(customers, customerJoin(ctx, rfCards.customerId))
        .where(where)
        .orderBy(desc(rfCards.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(rfCards).where(where))[0].total,
  );
  const replacement = await replacementsOf(ctx, page.records.map((r) => r.card));
  return { ...page, records: page.records.map((r) => presentCard(r.card, ownerOf(r.owner), replacement(r.card))) };
});

async function findCard(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select({ card: rfCards, owner: ownerColumns })
    .from(rfCards)
    .leftJoin(customers, customerJoin(ctx, rfCards.customerId))
    .where(owned(ctx, rfCards, eq(rfCards.id, id)))
    .limit(1);
  if (!row) throw new NotFound("drivers.errors.cardNotFound");
  return { card: row.card, owner: ownerOf(row.owner) };
}

export const cardDetail = verb({ menu: CARD_READ_MENUS }, async (ctx, id: number) => {
  const { card, owner } = await findCard(ctx, id);
  return presentOne(ctx, card, owner);
});

/** A duplicate id tag is a 400 on the field, like a taken serial number (docs/rules/drivers.md "RFID cards"). */
export const tagTaken = (field = "idTag") => new Invalid("drivers.validation.idTagTaken", {}, { [field]: "drivers.validation.idTagTaken" });

/**
 * Whether the operator's registry already holds this id tag, as a card (other than `exceptId`) or
 * as another kind of tag (the remote-start tag, app and OCPI tokens), compared case-insensitively.
 */
export async function tagUsed(ctx: UserCtx, idTag: string, exceptId?: number) {
  const [cards, others] = await ctx.db.batch([
    ctx.db
      .select({ id: rfCards.id })
      .from(rfCards)
      .where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag), exceptId === undefined ? undefined : sql`${rfCards.id} <> ${exceptId}`))
      .limit(1),
    ctx.db
      .select({ id: idTags.id })
      .from(idTags)
      .where(owned(ctx, idTags, sameTag(idTags.idTag, idTag)))
      .limit(1),
  ]);
  return cards.length > 0 || others.length > 0;
}

function rowValues(input: CardInput) {
  return {
    cardName: input.cardName,
    idTag: input.idTag,
    deliveryType: input.deliveryType,
    pickupNumber: input.pickupNumber,
    pickupPhone: input.pickupPhone,
    pickupAddress: input.pickupAddress,
    trackingNumber: input.trackingNumber,
    recipientName: input.recipientName,
    recipientPhone: input.recipientPhone,
    recipientAddress: input.recipientAddress,
    expiryDate: input.expiryDate === null ? null : new Date(input.expiryDate),
    customerId: input.customerId,
    bindStatus: input.customerId === null ? ("UNBIND" as const) : ("BIND" as const),
  };
}

/** A new card is VALID; bound when it names an owner of this operator (404 otherwise). */
export const createCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = cardInput.parse(raw);
  const owner = input.customerId === null ? null : await findCustomer(ctx, input.customerId);
  if (await tagUsed(ctx, input.idTag)) throw tagTaken();
  const values = rowValues(input);
  const now = new Date(ctx.now());
  try {
    const [[created]] = await ctx.db.batch([
      ctx.db
        .insert(rfCards)
        .values(ownedRow(ctx, { ...values, status: "VALID" as const, createdAt: now, updatedAt: now }))
        .returning(),
      auditRow(ctx, { table: "rf_cards", module: "rfCard", type: "CREATE", newData: values }),
    ]);
    // Partners that take our tokens hear of it (docs/rules/ocpi.md "Token pushes").
    await tokensChanged(ctx, changedCards([created.idTag]));
    return presentCard(created, owner);
  } catch (error) {
    if (isUniqueViolation(error)) throw tagTaken();
    throw error;
  }
});

/** A lost card has been replaced: it stays as it is, Blocked at the charger, kept for its history. */
const lostCard = () => new Conflict("drivers.errors.cardLost");

/**
 * The owner an edit leaves a card with: an absent `customerId` keeps it. An unbound card may be
 * given one (as bind would); a bound card keeps its own, since moving it to another customer, or
 * to none, is what unbind and bind do with their rules and confirmations (409 otherwise;
 * docs/rules/drivers.md "RFID cards"). Another operator's customer is 404 first.
 */
async function editedOwner(ctx: UserCtx, before: CardRow, requested: number | null | undefined) {
  const customerId = requested === undefined ? before.customerId : requested;
  const owner = customerId === null ? null : await findCustomer(ctx, customerId);
  if (before.bindStatus === "BIND" && customerId !== before.customerId) throw new Conflict("drivers.errors.ownerByBind");
  return { customerId, owner };
}

/** Edit a card; its status may move between VALID, BLOCKED and EXPIRED, never to or from LOST. */
export const updateCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { card: before } = await findCard(ctx, id);
  const input = cardUpdateInput.parse(raw);
  if (before.status === "LOST") throw lostCard();
  const { customerId, owner } = await editedOwner(ctx, before, input.customerId);
  if (await tagUsed(ctx, input.idTag, id)) throw tagTaken();
  const values = { ...rowValues({ ...input, customerId }), status: input.status ?? before.status };
  try {
    const [[updated]] = await ctx.db.batch([
      ctx.db
        .update(rfCards)
        .set({ ...values, updatedAt: new Date(ctx.now()) })
        .where(owned(ctx, rfCards, eq(rfCards.id, id)))
        .returning(),
      auditRow(ctx, { table: "rf_cards", module: "rfCard", type: "UPDATE", oldData: presentCard(before), newData: values }),
    ]);
    await tokensChanged(ctx, changedCards([before.idTag, updated.idTag]));
    return presentOne(ctx, updated, owner);
  } catch (error) {
    if (isUniqueViolation(error)) throw tagTaken();
    throw error;
  }
});

/** One change of a card's status or owner, with its log row, answering the card as it now is. */
async function changeCard(ctx: UserCtx, id: number, before: CardRow, change: Partial<Pick<CardRow, "status" | "customerId" | "bindStatus">>) {
  await ctx.db.batch([
    ctx.db
      .update(rfCards)
      .set({ ...change, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, rfCards, eq(rfCards.id, id))),
    auditRow(ctx, {
      table: "rf_cards",
      module: "rfCard",
      type: "UPDATE",
      oldData: { id, idTag: before.idTag, status: before.status, customerId: before.customerId },
      newData: { id, idTag: before.idTag, ...change },
    }),
  ]);
  await tokensChanged(ctx, changedCards([before.idTag]));
  const { card, owner } = await findCard(ctx, id);
  return presentOne(ctx, card, owner);
}

/** PUT /customer-service/rf-card/{id}/status: block, unblock or expire a card. */
export const setCardStatus = verb({ menu: CARD_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { card } = await findCard(ctx, id);
  const { status } = cardStatusInput.parse(raw);
  if (card.status === "LOST") throw lostCard();
  return changeCard(ctx, id, card, { status });
});

/** Pair a card with a customer: only an unbound card that is not lost. */
export const bindCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { card } = await findCard(ctx, id);
  const { customerId } = cardBindInput.parse(raw);
  await findCustomer(ctx, customerId);
  if (card.status === "LOST") throw lostCard();
  if (card.bindStatus === "BIND") throw new Conflict("drivers.errors.cardBound");
  return changeCard(ctx, id, card, { customerId, bindStatus: "BIND" });
});

/** Unpair a card from its owner: from then on it answers Invalid. */
export const unbindCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, id: number) => {
  const { card } = await findCard(ctx, id);
  if (card.status === "LOST") throw lostCard();
  if (card.bindStatus === "UNBIND") throw new Conflict("drivers.errors.cardNotBound");
  return changeCard(ctx, id, card, { customerId: null, bindStatus: "UNBIND" });
});

/**
 * Resume a lost card (docs/rules/drivers.md "Lost cards"): the old card becomes LOST (Blocked at
 * the charger) and a new VALID card with `newIdTag` takes its owner (and so its group), name,
 * delivery and expiry, pointing back at the old one for its history; in one batch.
 */
export const resumeLostCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { card: old, owner } = await findCard(ctx, id);
  const { newIdTag } = cardLostInput.parse(raw);
  if (old.status === "LOST") throw lostCard();
  if (await tagUsed(ctx, newIdTag)) throw tagTaken("newIdTag");
  const now = new Date(ctx.now());
  const { id: _id, operatorId: _operator, createdAt: _created, updatedAt: _updated, ...kept } = old;
  const replacement = { ...kept, idTag: newIdTag, status: "VALID" as const, replacesCardId: old.id };
  try {
    const [, [created]] = await ctx.db.batch([
      ctx.db
        .update(rfCards)
        .set({ status: "LOST", updatedAt: now })
        .where(owned(ctx, rfCards, eq(rfCards.id, id))),
      ctx.db
        .insert(rfCards)
        .values(ownedRow(ctx, { ...replacement, createdAt: now, updatedAt: now }))
        .returning(),
      auditRow(ctx, {
        table: "rf_cards",
        module: "rfCard",
        type: "UPDATE",
        oldData: { id, idTag: old.idTag, status: old.status },
        newData: { id, status: "LOST", replacedBy: newIdTag },
      }),
    ]);
    await tokensChanged(ctx, changedCards([old.idTag, created.idTag]));
    return presentCard(created, owner, { ...NOT_REPLACED, replacesIdTag: old.idTag });
  } catch (error) {
    if (isUniqueViolation(error)) throw tagTaken("newIdTag");
    throw error;
  }
});

/** Delete a card: its tag is unknown from then on (Invalid); sessions keep the tag they were started with. */
export const deleteCard = verb({ menu: CARD_MENU, mutates: true }, async (ctx, id: number) => {
  const { card } = await findCard(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(rfCards).where(owned(ctx, rfCards, eq(rfCards.id, id))),
    auditRow(ctx, { table: "rf_cards", module: "rfCard", type: "DELETE", oldData: presentCard(card) }),
  ]);
  await tokensChanged(ctx, changedCards([card.idTag]));
  return { id };
});
