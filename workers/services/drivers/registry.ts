import { eq, exists, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { adHocSessions, customerGroups, customerPoints, customers, idTags, rfCards, transactions } from "../../../db/schema";
import { CARD_ANSWER, heldTagStatus, type AuthorizationStatus, type HolderFacts } from "../../../domain/ocpp";
import { owned } from "../../../tenants/scope";
import type { SystemCtx, UserCtx } from "../context";
import { customerGroupJoin, customerJoin } from "./joins";

/**
 * The id-tag registry Authorize and StartTransaction read (docs/rules/drivers.md "Who may charge",
 * docs/decisions/0018-rfid-cards-are-the-tag-registry.md): RFID cards first, then the tags that
 * are not cards (the remote-start tag, app and OCPI tokens), each with its holder's status, points
 * and group. One D1 batch, one round trip, like the single read it replaces
 * (docs/rules/ocpp.md "Hot path").
 */

/** One entry of the registry as the answer needs it. */
export interface RegistryTag {
  status: AuthorizationStatus;
  expiresAt: number | null;
  remote: boolean;
  /** An RFID card of the operator's: what the RF-card restriction lets through (docs/rules/settings.md "RF-card restriction"). */
  card: boolean;
  parentIdTag: string | null;
}

/** Id tags compare case-insensitively (OCPP 1.6 §7.28 IdToken); `upper(…)` is what the unique indexes hold. */
export const sameTag = (column: SQLiteColumn, idTag: string): SQL => sql`upper(${column}) = upper(${idTag})`;

/** The holder's columns, joined within the same operator (also what a reservation's card choice reads). */
export function holderColumns(ctx: SystemCtx | UserCtx, pointId: number) {
  return {
    // Distinct names: a D1 batch answers rows as objects keyed by column name, so the joined
    // tables' `status` and `code` would otherwise overwrite the tag's own.
    customerStatus: sql<"NORMAL" | "ABNORMAL" | null>`${customers.status}`.as("holder_status"),
    chargeAllPoint: sql<number | null>`${customers.chargeAllPoint}`.as("holder_charge_all_point"),
    groupCode: sql<string | null>`${customerGroups.code}`.as("holder_group_code"),
    atThisPoint: sql<number>`${exists(
      ctx.db
        .select({ one: sql`1` })
        .from(customerPoints)
        .where(owned(ctx, customerPoints, eq(customerPoints.customerId, customers.id), eq(customerPoints.pointId, pointId))),
    )}`.as("holder_at_point"),
  };
}

export const holderOf = (row: { customerStatus: "NORMAL" | "ABNORMAL" | null; chargeAllPoint: number | null; atThisPoint: number }): HolderFacts | null =>
  row.customerStatus === null ? null : { status: row.customerStatus, chargeAllPoint: row.chargeAllPoint !== 0, atThisPoint: Boolean(row.atThisPoint) };

/** An RFID card's registry entry, from its row with `holderColumns` (also what a reservation's card choice judges). */
export const cardEntry = (card: {
  status: keyof typeof CARD_ANSWER;
  expiryDate: Date | null;
  customerStatus: "NORMAL" | "ABNORMAL" | null;
  chargeAllPoint: number | null;
  atThisPoint: number;
  groupCode: string | null;
}): RegistryTag => ({
  status: heldTagStatus(CARD_ANSWER[card.status], holderOf(card), true),
  expiresAt: card.expiryDate?.getTime() ?? null,
  remote: false,
  card: countsAsCard(card, undefined),
  parentIdTag: card.groupCode,
});

/**
 * The one rule of what counts as an RFID card: one of the operator's cards, or a tag registered as
 * RFID. It is what the RF-card restriction lets through, and what a command naming the tag tells
 * a 2.0.1 charger it is (domain/ocpp/v201/charger-model.ts `idTokenTypeOfTag`).
 */
export const countsAsCard = (card: object | undefined, tag: { kind: string } | undefined): boolean => card !== undefined || tag?.kind === "RFID";

/** Whether `idTag` is one of the operator's RFID cards (`countsAsCard`). */
export async function tagIsCard(ctx: SystemCtx | UserCtx, idTag: string): Promise<boolean> {
  const [[card], [tag]] = await ctx.db.batch([
    ctx.db.select({ one: sql<number>`1` }).from(rfCards).where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag))).limit(1),
    ctx.db.select({ kind: idTags.kind }).from(idTags).where(owned(ctx, idTags, sameTag(idTags.idTag, idTag))).limit(1),
  ]);
  return countsAsCard(card, tag);
}

/**
 * The registry's entry for `idTag` at `pointId`, and whether the tag is in an active session
 * anywhere in the operator's network (a start it was refused does not count).
 */
export async function registryFacts(ctx: SystemCtx, pointId: number, idTag: string) {
  const [cards, tags, busy, adHoc] = await ctx.db.batch([
    ctx.db
      .select({ status: rfCards.status, expiryDate: rfCards.expiryDate, ...holderColumns(ctx, pointId) })
      .from(rfCards)
      .leftJoin(customers, customerJoin(ctx, rfCards.customerId))
      .leftJoin(customerGroups, customerGroupJoin(ctx))
      .where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag)))
      .limit(1),
    ctx.db
      .select({ status: idTags.status, expiryDate: idTags.expiryDate, parentIdTag: idTags.parentIdTag, kind: idTags.kind, ...holderColumns(ctx, pointId) })
      .from(idTags)
      .leftJoin(customers, customerJoin(ctx, idTags.customerId))
      .leftJoin(customerGroups, customerGroupJoin(ctx))
      .where(owned(ctx, idTags, sameTag(idTags.idTag, idTag)))
      .limit(1),
    ctx.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(owned(ctx, transactions, sameTag(transactions.idTag, idTag), eq(transactions.status, "ACTIVE"), eq(transactions.authStatus, "Accepted")))
      .limit(1),
    // An ad-hoc session's one-time tag (docs/rules/payments.md "Ad-hoc payment"): its point, its
    // state, and whether a transaction of it has already ended (the tag starts one session only).
    ctx.db
      .select({
        pointId: adHocSessions.pointId,
        status: adHocSessions.status,
        used: sql<number>`exists (select 1 from ${transactions} where ${owned(ctx, transactions, sameTag(transactions.idTag, idTag), sql`${transactions.status} <> 'ACTIVE'`)})`,
      })
      .from(adHocSessions)
      .where(owned(ctx, adHocSessions, eq(adHocSessions.idTag, idTag.toUpperCase())))
      .limit(1),
  ]);
  const [card] = cards;
  const [other] = tags;
  let tag: RegistryTag | undefined;
  if (card) {
    tag = cardEntry(card);
  } else if (other) {
    const [session] = adHoc;
    // Accepted at its own point while its payment holds and before its one session ended; never elsewhere.
    const adHocStatus = !session || session.pointId !== pointId || !["STARTING", "CHARGING"].includes(session.status) ? "Invalid" : session.used ? "Expired" : other.status;
    tag = {
      status: other.kind === "AD_HOC" ? adHocStatus : heldTagStatus(other.status, holderOf(other), false),
      expiresAt: other.expiryDate?.getTime() ?? null,
      remote: other.kind === "REMOTE",
      card: countsAsCard(card, other),
      parentIdTag: other.groupCode ?? other.parentIdTag,
    };
  }
  return { tag, busy: busy.length > 0, adHoc: other?.kind === "AD_HOC" && !card };
}
