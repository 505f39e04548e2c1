import { eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { customerGroups, customerPoints, customers, idTags, localListEntries, offlineListMembers, offlineLists, rfCards } from "../../../db/schema";
import { IN_LIST, slices } from "../../../db/statements";
import type { ListedTag, LocalEntry } from "../../../domain/local-list";
import { tagKey } from "../../../domain/local-list";
import { CARD_ANSWER, type AuthorizationStatus } from "../../../domain/ocpp";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { customerGroupJoin, customerJoin } from "../drivers/joins";

/**
 * What an offline list names, read for a push and for the points that are behind
 * (docs/rules/driver-services.md "Offline lists"): the listed customers (directly and through
 * their groups) and their tags of the chargeable type, each with what decides its status.
 * Scopes are subqueries, never id lists, so a list of any size costs no parameters
 * (docs/rules/lists.md "D1's 100 parameters").
 */

/** The customers a list names: directly, or as members of a listed group. */
function listedCustomers(ctx: Ctx, listId: number) {
  const members = (column: typeof offlineListMembers.customerId | typeof offlineListMembers.groupId) =>
    ctx.db.select({ id: column }).from(offlineListMembers).where(owned(ctx, offlineListMembers, eq(offlineListMembers.listId, listId), isNotNull(column)));
  return ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(owned(ctx, customers, or(inArray(customers.id, members(offlineListMembers.customerId)), inArray(customers.groupId, members(offlineListMembers.groupId)))));
}

/** The list itself; undefined when it is not the operator's. */
export async function listRow(ctx: Ctx, listId: number) {
  const [row] = await ctx.db.select().from(offlineLists).where(owned(ctx, offlineLists, eq(offlineLists.id, listId))).limit(1);
  return row;
}

const holder = {
  customerId: customers.id,
  customerStatus: sql<"NORMAL" | "ABNORMAL">`${customers.status}`.as("holder_status"),
  chargeAllPoint: sql<number>`${customers.chargeAllPoint}`.as("holder_charge_all_point"),
  parentIdTag: sql<string | null>`${customerGroups.code}`.as("holder_group_code"),
};

/** The listed customers' tags of the list's chargeable type: bound RFID cards and app tokens. */
export async function listedTags(ctx: Ctx, list: typeof offlineLists.$inferSelect): Promise<ListedTag[]> {
  const listed = listedCustomers(ctx, list.id);
  const wantCards = list.chargeableType !== "APP";
  const wantApp = list.chargeableType !== "RFID";
  const [cards, tokens] = await Promise.all([
    wantCards
      ? ctx.db
          .select({ idTag: rfCards.idTag, status: rfCards.status, expiryDate: rfCards.expiryDate, ...holder })
          .from(rfCards)
          .innerJoin(customers, customerJoin(ctx, rfCards.customerId))
          .leftJoin(customerGroups, customerGroupJoin(ctx))
          .where(owned(ctx, rfCards, eq(rfCards.bindStatus, "BIND"), inArray(rfCards.customerId, listed)))
      : [],
    wantApp
      ? ctx.db
          .select({ idTag: idTags.idTag, status: idTags.status, expiryDate: idTags.expiryDate, ...holder })
          .from(idTags)
          .innerJoin(customers, customerJoin(ctx, idTags.customerId))
          .leftJoin(customerGroups, customerGroupJoin(ctx))
          .where(owned(ctx, idTags, eq(idTags.kind, "APP"), inArray(idTags.customerId, listed)))
      : [],
  ]);
  const tag = (own: AuthorizationStatus, r: (typeof cards)[number] | (typeof tokens)[number]): ListedTag => ({
    idTag: r.idTag,
    own,
    expiryDate: r.expiryDate?.getTime() ?? null,
    parentIdTag: r.parentIdTag,
    customerId: r.customerId,
    customerStatus: r.customerStatus,
    chargeAllPoint: Boolean(r.chargeAllPoint),
  });
  return [...cards.map((c) => tag(CARD_ANSWER[c.status as keyof typeof CARD_ANSWER], c)), ...tokens.map((t) => tag(t.status as AuthorizationStatus, t))];
}

/** The points each listed customer limited to some points may charge at (docs/rules/drivers.md "Who may charge"). */
export async function allowedPoints(ctx: Ctx, listId: number) {
  const rows = await ctx.db
    .select({ customerId: customerPoints.customerId, pointId: customerPoints.pointId })
    .from(customerPoints)
    .where(owned(ctx, customerPoints, inArray(customerPoints.customerId, listedCustomers(ctx, listId))));
  const allowed = new Map<number, Set<number>>();
  for (const r of rows) allowed.set(r.customerId, (allowed.get(r.customerId) ?? new Set()).add(r.pointId));
  return allowed;
}

/** The entries the chargers of `pointIds` hold, by point and tag (read in slices). */
export async function heldEntries(ctx: Ctx, pointIds: readonly number[]) {
  const held = new Map<number, Map<string, LocalEntry & { listId: number }>>();
  for (const slice of slices([...new Set(pointIds)], IN_LIST)) {
    const rows = await ctx.db.select().from(localListEntries).where(owned(ctx, localListEntries, inArray(localListEntries.pointId, slice)));
    for (const r of rows) {
      const map = held.get(r.pointId) ?? new Map();
      map.set(tagKey(r.idTag), { idTag: r.idTag, status: r.status, expiryDate: r.expiryDate?.getTime() ?? null, parentIdTag: r.parentIdTag, listId: r.listId });
      held.set(r.pointId, map);
    }
  }
  return held;
}

