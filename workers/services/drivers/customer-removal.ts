import { count, eq, inArray, or, sql } from "drizzle-orm";
import { bills, chargeRecords, feedback, idTags, localListEntries, offlineListMembers, reservations, rfCards, vehicles } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import { owned } from "../../../tenants/scope";
import type { UserCtx } from "../context";
import { stillHeld } from "../driver-services/reservations";

/**
 * What deleting a customer must take along or refuse (docs/rules/drivers.md "Customers"): its
 * history of money and sessions is kept, so bills, charge records and reservations a charger still
 * holds refuse the deletion with a 409 that says which; vehicles and offline-list memberships go
 * with the customer, and the chargers holding its tags get a push that blocks them.
 */

/** Throws the 409 that names the first kept record that stops a customer's deletion. */
export async function refuseKeptHistory(ctx: UserCtx, customerId: number) {
  const [[held], [billed], [charged]] = await Promise.all([
    ctx.db
      .select({ n: count() })
      .from(reservations)
      .where(owned(ctx, reservations, eq(reservations.customerId, customerId), stillHeld(new Date(ctx.now())))),
    ctx.db.select({ n: count() }).from(bills).where(owned(ctx, bills, eq(bills.customerId, customerId))),
    ctx.db.select({ n: count() }).from(chargeRecords).where(owned(ctx, chargeRecords, eq(chargeRecords.customerId, customerId))),
  ]);
  if (held.n > 0) throw new Conflict("drivers.errors.reservationsDelete", { count: held.n });
  if (billed.n > 0) throw new Conflict("drivers.errors.billsDelete", { count: billed.n });
  if (charged.n > 0) throw new Conflict("drivers.errors.chargeRecordsDelete", { count: charged.n });
}

/**
 * The (list, point) pairs whose charger holds one of the customer's tags: each gets a push item so
 * that the next Differential update blocks them (docs/rules/driver-services.md "Offline lists").
 */
export async function listsHoldingTagsOf(ctx: UserCtx, customerId: number) {
  const cardTags = ctx.db
    .select({ key: sql`upper(${rfCards.idTag})` })
    .from(rfCards)
    .where(owned(ctx, rfCards, eq(rfCards.customerId, customerId)));
  const otherTags = ctx.db
    .select({ key: sql`upper(${idTags.idTag})` })
    .from(idTags)
    .where(owned(ctx, idTags, eq(idTags.customerId, customerId)));
  const key = sql`upper(${localListEntries.idTag})`;
  return ctx.db
    .selectDistinct({ listId: localListEntries.listId, pointId: localListEntries.pointId })
    .from(localListEntries)
    .where(owned(ctx, localListEntries, or(inArray(key, cardTags), inArray(key, otherTags))))
    .orderBy(localListEntries.listId, localListEntries.pointId);
}

/** The statements that take the customer's vehicles and list memberships along and release its past reservations and feedback. */
export function customerRemovals(ctx: UserCtx, customerId: number) {
  return [
    ctx.db.delete(vehicles).where(owned(ctx, vehicles, eq(vehicles.customerId, customerId))),
    ctx.db.delete(offlineListMembers).where(owned(ctx, offlineListMembers, eq(offlineListMembers.customerId, customerId))),
    ctx.db.update(reservations).set({ customerId: null }).where(owned(ctx, reservations, eq(reservations.customerId, customerId))),
    ctx.db.update(feedback).set({ customerId: null }).where(owned(ctx, feedback, eq(feedback.customerId, customerId))),
  ];
}
