import { eq } from "drizzle-orm";
import { customerGroups, customers, idTags, rfCards } from "../../../db/schema";
import { levelAt } from "../../../domain/schemas/wallets";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { sameTag } from "./registry";
import { customerGroupJoin } from "./joins";

/**
 * Who pays a session (docs/rules/billing.md "Who pays"): read from the drivers' own rows (cards,
 * tags, customers and their groups), so billing, payments, roaming and receipts ask the same
 * question here without importing each other.
 */

/** The account a session is charged to: the customer behind the tag, or its group's leader. */
export interface Payer {
  /** The customer behind the tag (shown on the record). */
  customerId: number;
  /** The customer debited: the same, or the group's leader when the customer pays by LEADER. */
  payerId: number;
  payerName: string;
  memberLevel: "NORMAL" | "SILVER" | "GOLD";
}

/**
 * The customer behind an id tag (docs/rules/drivers.md "RFID cards"): the card's holder, else the
 * customer a tag that is not a card names; null for the operator's remote tag and unknown tags.
 * A customer whose `payWay` is LEADER is charged to the leader of its group, when it has one.
 */
export async function payerOf(ctx: Ctx, idTag: string): Promise<Payer | null> {
  const [cards, tags] = await ctx.db.batch([
    ctx.db.select({ customerId: rfCards.customerId }).from(rfCards).where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag))).limit(1),
    ctx.db.select({ customerId: idTags.customerId }).from(idTags).where(owned(ctx, idTags, sameTag(idTags.idTag, idTag))).limit(1),
  ]);
  const customerId = cards[0]?.customerId ?? tags[0]?.customerId ?? null;
  if (customerId === null) return null;
  const [holder] = await ctx.db
    .select({
      id: customers.id,
      payWay: customers.payWay,
      leaderId: customerGroups.leaderId,
      firstName: customers.firstName,
      lastName: customers.lastName,
      memberLevel: customers.memberLevel,
      memberUntil: customers.memberUntil,
    })
    .from(customers)
    .leftJoin(customerGroups, customerGroupJoin(ctx))
    .where(owned(ctx, customers, eq(customers.id, customerId)))
    .limit(1);
  if (!holder) return null;
  const payerId = holder.payWay === "LEADER" && holder.leaderId !== null ? holder.leaderId : holder.id;
  // A paid level whose period ended is NORMAL from then on, before the housekeeping lowers it (docs/rules/wallets.md "Membership").
  if (payerId === holder.id) return { customerId, payerId, payerName: `${holder.firstName} ${holder.lastName}`, memberLevel: levelAt(holder, ctx.now()) };
  const [leader] = await ctx.db
    .select({ firstName: customers.firstName, lastName: customers.lastName, memberLevel: customers.memberLevel, memberUntil: customers.memberUntil })
    .from(customers)
    .where(owned(ctx, customers, eq(customers.id, payerId)))
    .limit(1);
  if (!leader) return { customerId, payerId: holder.id, payerName: `${holder.firstName} ${holder.lastName}`, memberLevel: levelAt(holder, ctx.now()) };
  return { customerId, payerId, payerName: `${leader.firstName} ${leader.lastName}`, memberLevel: levelAt(leader, ctx.now()) };
}
