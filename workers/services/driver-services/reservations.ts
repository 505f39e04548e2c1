import { and, asc, count, desc, eq, gt, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { customerGroups, customers, idTags, ocpiPlatforms, points, reservationIds, reservations, rfCards } from "../../../db/schema";
import { AppError, Conflict, Invalid, NotFound } from "../../../domain/errors";
import { authorizationStatus } from "../../../domain/ocpp";
import { reservationInput, reservationListQuery, type ReservationStatus } from "../../../domain/schemas/driver-services";
import { acrossTenants, owned, ownedRow, visible, type TenantFilter } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, PartnerCtx, SystemCtx, UserCtx } from "../context";
import { cardEntry, countsAsCard, holderColumns, registryFacts, sameTag } from "../drivers/registry";
import { findPoint } from "../points/points";
import { command } from "../remote/remote-control";
import { verb } from "../verb";
import { customerNameSql } from "./pickers";
import { customerGroupJoin, customerJoin } from "../drivers/joins";
import { idTokenTypeOfTag } from "../../../domain/ocpp/v201/charger-model";

/**
 * Operation and maintenance › Reservations (docs/rules/driver-services.md "Reservations",
 * OCPP 1.6 §5.13, §5.2): ReserveNow goes out at once and the charger decides; its Accepted makes
 * the reservation `reserved`. A start with the reservation uses it (`finished`), its expiry ends it
 * (`finished`), CancelReservation cancels it (`canceling` → `canceled`).
 */
export const RESERVATION_MENU = "operation.reservation";
/**
 * The sub-operator's reservation screen: the reservations of the devices assigned to it, to watch.
 * Reserving needs the operator's drivers, and commands to the chargers are the operator's
 * (a sub-operator sends none elsewhere either), so it neither reserves nor cancels.
 */
export const SUB_RESERVATION_MENU = "sub.operation.reservation";
const READ_MENUS = [RESERVATION_MENU, SUB_RESERVATION_MENU];

type ReservationRow = typeof reservations.$inferSelect;

/** A customer holds a handful of cards; the first few bound ones are enough to find one that works. */
const CARDS_LOOKED_AT = 50;

/** Statuses that still hold the connector, until the expiry passes. */
const HOLDING: ReservationStatus[] = ["reserved", "canceling"];

/** The status as of `now`: a held reservation past its expiry has finished, whether or not the cron has run yet. */
export function statusAt(r: Pick<ReservationRow, "status" | "expiryDate">, now: number): ReservationStatus {
  return HOLDING.includes(r.status) && r.expiryDate.getTime() <= now ? "finished" : r.status;
}

const present = (r: ReservationRow, extra: { serialNumber: string; customerName: string | null; roamingPartner?: string | null }, now: number) => ({
  id: r.id,
  reservationId: r.id,
  pointId: r.pointId,
  serialNumber: extra.serialNumber,
  connectorId: r.connectorId,
  idTag: r.idTag,
  parentIdTag: r.parentIdTag,
  customerId: r.customerId,
  customerName: extra.customerName,
  /** A roaming driver's reservation: the eMSP that made it (docs/rules/ocpi.md "Commands we take"), else null. */
  roamingPlatformId: r.roamingPlatformId,
  roamingPartner: extra.roamingPartner ?? null,
  status: statusAt(r, now),
  expiryDate: r.expiryDate.toISOString(),
  transactionId: r.transactionId,
  endReason: r.endReason ?? (statusAt(r, now) === "finished" ? "expired" : null),
  startDate: r.createdAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
export type Reservation = ReturnType<typeof present>;

/** Reservations a charger still holds as of `now`: reserved or canceling, and not yet expired. */
export const stillHeld = (now: Date) => and(inArray(reservations.status, HOLDING), gt(reservations.expiryDate, now));

/** The status filter as of `now`, so that an expired reservation is listed as finished at once. */
function statusFilter(status: ReservationStatus | undefined, now: Date): SQL | undefined {
  const held = and(inArray(reservations.status, HOLDING), lte(reservations.expiryDate, now));
  if (status === "finished") return or(eq(reservations.status, "finished"), held);
  if (status === "reserved" || status === "canceling") return and(eq(reservations.status, status), gt(reservations.expiryDate, now));
  return status ? eq(reservations.status, status) : undefined;
}

/** A sub-operator sees its devices' reservations, not the operator's customers (docs/rules/driver-services.md "Access"). */
const shownTo = <R extends { serialNumber: string; customerName: string | null }>(ctx: UserCtx, row: R): R => (ctx.operator.sub ? { ...row, customerName: null } : row);

const listColumns = { reservation: reservations, serialNumber: points.serialNumber, customerName: sql<string | null>`${customerNameSql}`, roamingPartner: ocpiPlatforms.name };

/** Reservations with their point's serial number and their customer's name. */
function joined(ctx: UserCtx, where: TenantFilter) {
  return ctx.db
    .select(listColumns)
    .from(reservations)
    .innerJoin(points, and(eq(points.id, reservations.pointId), eq(points.operatorId, reservations.operatorId)))
    .leftJoin(customers, and(eq(customers.id, reservations.customerId), eq(customers.operatorId, reservations.operatorId)))
    .leftJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, reservations.roamingPlatformId), eq(ocpiPlatforms.operatorId, reservations.operatorId)))
    .where(where)
    .$dynamic();
}

/** Reservations, newest first, filtered by point, status and expiry time (docs/rules/lists.md). */
export const listReservations = verb({ menu: READ_MENUS }, async (ctx, raw: unknown) => {
  const q = reservationListQuery.parse(raw);
  const now = ctx.now();
  const where = visible(
    ctx,
    reservations,
    reservations.pointId,
    q.pointId ? eq(reservations.pointId, q.pointId) : undefined,
    statusFilter(q.status, new Date(now)),
    q.from ? gte(reservations.expiryDate, q.from) : undefined,
    q.to ? lte(reservations.expiryDate, q.to) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) => joined(ctx, where).orderBy(desc(reservations.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(reservations).where(where))[0].total,
  );
  return { ...page, records: page.records.map((r) => present(r.reservation, shownTo(ctx, r), now)) };
});

async function findReservation(ctx: UserCtx, id: number) {
  const [row] = await joined(ctx, visible(ctx, reservations, reservations.pointId, eq(reservations.id, id))).limit(1);
  if (!row) throw new NotFound("driverServices.errors.reservationNotFound");
  return row;
}

export const reservationDetail = verb({ menu: READ_MENUS }, async (ctx, id: number) => {
  const row = await findReservation(ctx, id);
  return present(row.reservation, shownTo(ctx, row), ctx.now());
});

/**
 * The tag a reservation holds: the one given, or the first of the customer's bound cards that
 * Authorize would accept at the point (a NORMAL customer, a VALID unexpired card, allowed at the
 * point: docs/rules/drivers.md "Who may charge"); and its parent tag (the holder's group code), so
 * that the group's other tags may use it (OCPP 1.6 §5.13).
 */
async function reservedTag(ctx: UserCtx, pointId: number, input: { idTag?: string; customerId?: number }) {
  if (input.customerId !== undefined) {
    const [customer] = await ctx.db.select({ status: customers.status }).from(customers).where(owned(ctx, customers, eq(customers.id, input.customerId))).limit(1);
    if (!customer) throw new NotFound("driverServices.errors.customerNotFound");
    if (customer.status !== "NORMAL") throw new Invalid("driverServices.validation.customerAbnormal", {}, { customerId: "driverServices.validation.customerAbnormal" });
    const cards = await ctx.db
      .select({ idTag: rfCards.idTag, status: rfCards.status, expiryDate: rfCards.expiryDate, ...holderColumns(ctx, pointId) })
      .from(rfCards)
      .innerJoin(customers, customerJoin(ctx, rfCards.customerId))
      .leftJoin(customerGroups, customerGroupJoin(ctx))
      .where(owned(ctx, rfCards, eq(rfCards.customerId, input.customerId), eq(rfCards.bindStatus, "BIND")))
      .orderBy(asc(rfCards.id))
      .limit(CARDS_LOOKED_AT);
    const now = ctx.now();
    // A reservation is for later: a session the card is in now does not stop it.
    const card = cards.find((c) => authorizationStatus({ chargerAccepted: true, tag: cardEntry(c), busy: false, now }) === "Accepted");
    if (!card) throw new Invalid("driverServices.validation.customerHasNoCard", {}, { customerId: "driverServices.validation.customerHasNoCard" });
    return { idTag: card.idTag, parentIdTag: card.groupCode, customerId: input.customerId, card: true };
  }
  const idTag = input.idTag!;
  const [[card], [other]] = await ctx.db.batch([
    ctx.db
      .select({ customerId: rfCards.customerId, parentIdTag: customerGroups.code })
      .from(rfCards)
      .leftJoin(customers, customerJoin(ctx, rfCards.customerId))
      .leftJoin(customerGroups, customerGroupJoin(ctx))
      .where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag)))
      .limit(1),
    ctx.db
      .select({ customerId: idTags.customerId, parentIdTag: sql<string | null>`coalesce(${customerGroups.code}, ${idTags.parentIdTag})`, kind: idTags.kind })
      .from(idTags)
      .leftJoin(customers, customerJoin(ctx, idTags.customerId))
      .leftJoin(customerGroups, customerGroupJoin(ctx))
      .where(owned(ctx, idTags, sameTag(idTags.idTag, idTag)))
      .limit(1),
  ]);
  const known = card ?? other;
  return { idTag, parentIdTag: known?.parentIdTag ?? null, customerId: known?.customerId ?? null, card: countsAsCard(card, other) };
}

/**
 * POST /station-service/reservation: ReserveNow at once, with no look at the connector's last
 * status: the charger decides. The id comes from the system-wide sequence before the call; the
 * reservation is written only when the charger answered Accepted, and any other answer is a 409
 * with the reply (docs/decisions/0041-reservations.md).
 */
export const createReservation = verb({ menu: RESERVATION_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = reservationInput.parse(raw);
  const { point } = await findPoint(ctx, { id: input.pointId });
  if (input.connectorId > point.connectorCount) throw new Invalid("validation.connectorRequired", {}, { connectorId: "validation.connectorRequired" });
  if (input.expiryDate.getTime() <= ctx.now()) throw new Invalid("driverServices.validation.expiryFuture", {}, { expiryDate: "driverServices.validation.expiryFuture" });
  const tag = await reservedTag(ctx, point.id, input);
  const id = await newReservationId(ctx);
  await command(
    ctx,
    { id: point.id },
    "ReserveNow",
    {
      connectorId: input.connectorId,
      expiryDate: input.expiryDate.toISOString(),
      idTag: tag.idTag,
      ...(tag.parentIdTag && { parentIdTag: tag.parentIdTag }),
      reservationId: id,
    },
    // A 2.0.1 charger is told a card is a card; the group's code stays Central.
    { idToken: idTokenTypeOfTag(tag) },
  );
  const now = new Date(ctx.now());
  const values = {
    id,
    pointId: point.id,
    connectorId: input.connectorId,
    idTag: tag.idTag,
    parentIdTag: tag.parentIdTag,
    customerId: tag.customerId,
    status: "reserved" as const,
    expiryDate: input.expiryDate,
    createdBy: ctx.actor.accountId,
    createdAt: now,
    updatedAt: now,
  };
  const [[created]] = await ctx.db.batch([
    ctx.db.insert(reservations).values(ownedRow(ctx, values)).returning(),
    auditRow(ctx, { table: "reservations", module: "reservation", type: "CREATE", newData: values }),
  ]);
  return present(created, { serialNumber: point.serialNumber, customerName: null }, ctx.now());
});

const setStatus = (ctx: Ctx, id: number, status: ReservationStatus, from: ReservationStatus[]) =>
  ctx.db
    .update(reservations)
    .set({ status, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, reservations, eq(reservations.id, id), inArray(reservations.status, from)))
    .returning({ id: reservations.id });

/**
 * PUT /station-service/reservation/{id}/cancel: `canceling` while CancelReservation is out, then
 * `canceled` when the charger accepts. A refusal or an offline charger leaves it `reserved` (409);
 * a charger that does not answer leaves it `canceling`, and the cancel may be sent again.
 */
export const cancelReservation = verb({ menu: RESERVATION_MENU, mutates: true }, async (ctx, id: number) => {
  const { reservation } = await findReservation(ctx, id);
  if (!HOLDING.includes(statusAt(reservation, ctx.now()))) throw new Conflict("driverServices.errors.notCancelable", { status: statusAt(reservation, ctx.now()) });
  const [claimed] = await setStatus(ctx, id, "canceling", HOLDING);
  if (!claimed) throw new Conflict("driverServices.errors.notCancelable", { status: "finished" });
  try {
    await command(ctx, { id: reservation.pointId }, "CancelReservation", { reservationId: id });
  } catch (error) {
    if (error instanceof AppError && error.status === 409) await setStatus(ctx, id, "reserved", ["canceling"]);
    throw error;
  }
  await ctx.db.batch([
    setStatus(ctx, id, "canceled", ["canceling"]),
    auditRow(ctx, { table: "reservations", module: "reservation", type: "UPDATE", oldData: { id, status: reservation.status }, newData: { id, status: "canceled" } }),
  ]);
  return reservationDetail(ctx, id);
});

/** The next reservation id of the system-wide sequence (docs/decisions/0041-reservations.md). */
async function newReservationId(ctx: Ctx) {
  const [{ id }] = await ctx.db.insert(reservationIds).values({ createdAt: new Date(ctx.now()) }).returning({ id: reservationIds.id });
  return id;
}

/**
 * A partner's reservation still held, by the eMSP's own `reservation_id` (OCPI 2.2.1 §13.3.3):
 * what its CANCEL_RESERVATION cancels and what a repeated RESERVE_NOW replaces.
 */
export async function heldRoamingReservation(ctx: PartnerCtx, reservationId: string) {
  const [held] = await ctx.db
    .select()
    .from(reservations)
    .where(owned(ctx, reservations, eq(reservations.roamingPlatformId, ctx.actor.platformId), eq(reservations.roamingReservationId, reservationId), stillHeld(new Date(ctx.now()))))
    .orderBy(desc(reservations.id))
    .limit(1);
  return held;
}

/**
 * The OCPP reservation id for a partner's RESERVE_NOW: the held reservation's own when the eMSP
 * reserves again under the same `reservation_id` (a ReserveNow with a known id replaces it at the
 * charger, OCPP 1.6 §5.13), else the next of the system's sequence.
 */
export async function roamingReservationId(ctx: PartnerCtx, reservationId: string) {
  const held = await heldRoamingReservation(ctx, reservationId);
  return held?.id ?? (await newReservationId(ctx));
}

/**
 * The charger accepted a partner's ReserveNow: the reservation is `reserved` like the operator's
 * own (listed, used by a start with its id, finished at its expiry), held for the partner's token
 * uid, with no customer, marked with its partner (docs/rules/ocpi.md "Commands we take").
 */
export async function keepRoamingReservation(
  ctx: PartnerCtx,
  r: { id: number; pointId: number; connectorId: number; idTag: string; expiryDate: Date; reservationId: string },
) {
  const now = new Date(ctx.now());
  const values = { pointId: r.pointId, connectorId: r.connectorId, idTag: r.idTag, parentIdTag: null, customerId: null, status: "reserved" as const, expiryDate: r.expiryDate, endReason: null, updatedAt: now };
  await ctx.db
    .insert(reservations)
    .values(ownedRow(ctx, { id: r.id, ...values, roamingPlatformId: ctx.actor.platformId, roamingReservationId: r.reservationId, createdBy: null, createdAt: now }))
    .onConflictDoUpdate({ target: reservations.id, set: values, setWhere: and(eq(reservations.operatorId, ctx.operator.id), eq(reservations.roamingPlatformId, ctx.actor.platformId)) });
}

/** A partner's CANCEL_RESERVATION is out (`canceling`), then the charger's answer decides, as for the operator's cancel. */
export const claimRoamingCancel = (ctx: PartnerCtx, id: number) => setStatus(ctx, id, "canceling", HOLDING);
export const roamingCancelAnswered = (ctx: PartnerCtx, id: number, accepted: boolean) => setStatus(ctx, id, accepted ? "canceled" : "reserved", ["canceling"]);

const system = { actors: ["system"] } as const;

/**
 * A StartTransaction naming a reservation (OCPP 1.6 §5.13): on its point and connector (or a
 * reservation of the whole charger, connector 0), with the reserved tag or a tag of the same
 * parent, it uses the reservation, which is then `finished`.
 */
export const useReservation = verb(system, async (ctx: SystemCtx, pointId: number, start: { reservationId: number; connectorId: number; idTag: string; transactionId: number }) => {
  const [held] = await ctx.db
    .select()
    .from(reservations)
    .where(owned(ctx, reservations, eq(reservations.id, start.reservationId), eq(reservations.pointId, pointId), inArray(reservations.status, HOLDING)))
    .limit(1);
  if (!held || (held.connectorId !== 0 && held.connectorId !== start.connectorId)) return false;
  let matches = held.idTag.toUpperCase() === start.idTag.toUpperCase();
  if (!matches && held.parentIdTag) {
    const { tag } = await registryFacts(ctx, pointId, start.idTag);
    matches = tag?.parentIdTag?.toUpperCase() === held.parentIdTag.toUpperCase();
  }
  if (!matches) return false;
  await ctx.db
    .update(reservations)
    .set({ status: "finished", endReason: "used", transactionId: start.transactionId, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, reservations, eq(reservations.id, held.id), inArray(reservations.status, HOLDING)));
  return true;
});

/**
 * A charger ended one of its reservations itself (OCPP 2.0.1 H04 ReservationStatusUpdate): Expired
 * finishes it as the cron does at its expiry; Removed (the charger dropped it, e.g. its EVSE became
 * inoperative) finishes it with that reason. Only a reservation of this point still held changes;
 * the charger frees the connector with its own StatusNotification, as a 1.6 charger does.
 */
export const endReservation = verb(system, async (ctx: SystemCtx, pointId: number, reservationId: number, reason: "expired" | "removed") => {
  const now = new Date(ctx.now());
  const ended = await ctx.db
    .update(reservations)
    .set({ status: "finished", endReason: reason, updatedAt: now })
    .where(owned(ctx, reservations, eq(reservations.id, reservationId), eq(reservations.pointId, pointId), inArray(reservations.status, HOLDING)))
    .returning({ id: reservations.id });
  return ended.length > 0;
});

/** Held reservations whose expiry has passed become `finished`, for every operator (cron). */
export const expireReservations = verb(system, async (ctx: Ctx, now: Date) => {
  const done = await ctx.db
    .update(reservations)
    .set({ status: "finished", endReason: "expired", updatedAt: now })
    .where(acrossTenants("housekeeping ends every operator's expired reservations; each row keeps its own operator", inArray(reservations.status, HOLDING), lte(reservations.expiryDate, now)))
    .returning({ id: reservations.id });
  return done.length;
});
