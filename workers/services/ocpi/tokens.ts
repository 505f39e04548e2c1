import { asc, count, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { customers, idTags, rfCards } from "../../../db/schema";
import { authorizationStatus, type AuthorizationStatus } from "../../../domain/ocpp";
import { invalidParameters, ocpiTime, reasonOf, unknownToken } from "../../../domain/ocpi/wire";
import { instantOf, tokenType } from "../../../domain/schemas/ocpi/common";
import { locationReferences, tokensQuery, type AllowedType, type OcpiToken } from "../../../domain/schemas/ocpi/tokens";
import { owned } from "../../../tenants/scope";
import { settingsOf } from "../../../tenants/resolve";
import { payerOf } from "../drivers/payer";
import { systemCtx, type PartnerCtx, type SystemCtx, type UserCtx } from "../context";
import { registryFacts, sameTag } from "../drivers/registry";
import { verb } from "../verb";
import { ourIdentity, type OurIdentity } from "./identity";
import { registeredCaller } from "./partner";
import { customerJoin } from "../drivers/joins";

/**
 * Our tokens, of which we are the sender (docs/rules/ocpi.md "Tokens", OCPI 2.2.1 §12): the
 * operator's RFID cards and app users' tokens as OCPI Tokens, paged for a CPO that pulls them,
 * and real-time authorization decided by the same registry and customer rules as Authorize at our
 * own chargers (docs/rules/drivers.md "Who may charge").
 */

/** The most tokens one page answers (the `X-Limit` header; OCPI 2.2.1 §4.1.4). */
export const TOKEN_PAGE_LIMIT = 100;

/** One registry entry as the union of cards and other tags reads it. */
const columns = (uid: SQL, type: SQL, usable: SQL, expires: SQL, updated: SQL) => ({
  uid: sql<string>`${uid}`.as("uid"),
  type: sql<"RFID" | "APP_USER">`${type}`.as("type"),
  usable: sql<number>`${usable}`.as("usable"),
  expiresAt: sql<number | null>`${expires}`.as("expires_at"),
  updatedAt: sql<number>`${updated}`.as("updated_at"),
});

export function registry(ctx: Pick<PartnerCtx, "db" | "operator">, window: { from?: number; to?: number; uid?: string }) {
  const range = (column: Parameters<typeof gte>[0]) => [
    window.from !== undefined ? gte(column, new Date(window.from)) : undefined,
    window.to !== undefined ? lt(column, new Date(window.to)) : undefined,
  ];
  // A card charges when it is valid and held by a customer in good standing; another tag when it
  // is accepted and its holder, if any, is (docs/rules/drivers.md "Who may charge").
  const cards = ctx.db
    .select(
      columns(
        sql`${rfCards.idTag}`,
        sql`'RFID'`,
        sql`${rfCards.status} = 'VALID' and coalesce(${customers.status}, '') = 'NORMAL'`,
        sql`${rfCards.expiryDate}`,
        sql`${rfCards.updatedAt}`,
      ),
    )
    .from(rfCards)
    .leftJoin(customers, customerJoin(ctx, rfCards.customerId))
    .where(owned(ctx, rfCards, ...range(rfCards.updatedAt), window.uid ? sameTag(rfCards.idTag, window.uid) : undefined));
  // Tags that are not cards: RFID tags and app users' tokens; the remote-start tag and tokens of
  // other eMSPs are not ours to offer.
  const tags = ctx.db
    .select(
      columns(
        sql`${idTags.idTag}`,
        sql`case ${idTags.kind} when 'RFID' then 'RFID' else 'APP_USER' end`,
        sql`${idTags.status} = 'Accepted' and coalesce(${customers.status}, 'NORMAL') = 'NORMAL'`,
        sql`${idTags.expiryDate}`,
        sql`${idTags.createdAt}`,
      ),
    )
    .from(idTags)
    .leftJoin(customers, customerJoin(ctx, idTags.customerId))
    .where(owned(ctx, idTags, inArray(idTags.kind, ["RFID", "APP"]), ...range(idTags.createdAt), window.uid ? sameTag(idTags.idTag, window.uid) : undefined));
  return { cards, tags };
}

type Entry = { uid: string; type: "RFID" | "APP_USER"; usable: number; expiresAt: number | null; updatedAt: number };
/** One token of the registry as the union of cards and other tags reads it. */
export type RegistryEntry = Entry;

export function tokenOf(entry: Entry, identity: Pick<OurIdentity, "countryCode" | "partyId" | "name">, now: number): OcpiToken {
  return {
    country_code: identity.countryCode,
    party_id: identity.partyId,
    uid: entry.uid,
    type: entry.type,
    // An eMA-like contract id: country, party, then the tag (OCPI 2.2.1 §12.4.2 contract_id).
    contract_id: `${identity.countryCode}-${identity.partyId}-C${entry.uid}`.slice(0, 36),
    issuer: identity.name.slice(0, 64),
    valid: Boolean(entry.usable) && (entry.expiresAt === null || entry.expiresAt > now),
    // Every start is asked of us in real time: customer rules and points change (OCPI 2.2.1 §12.4.6).
    whitelist: "ALWAYS",
    last_updated: ocpiTime(entry.updatedAt),
  };
}

/** GET /tokens: the registry paged by `offset`/`limit`, by `last_updated` in [date_from, date_to) (OCPI 2.2.1 §12.2.1.1). */
export const listOurTokens = verb({ actors: ["partner"] }, async (ctx, raw: unknown) => {
  await registeredCaller(ctx);
  const parsed = tokensQuery.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  const q = parsed.data;
  const limit = Math.min(q.limit ?? TOKEN_PAGE_LIMIT, TOKEN_PAGE_LIMIT);
  const window = { from: q.date_from ? instantOf(q.date_from) : undefined, to: q.date_to ? instantOf(q.date_to) : undefined };
  const identity = await ourIdentity(ctx);
  const { cards, tags } = registry(ctx, window);
  const counts = registry(ctx, window);
  const [rows, [cardCount], [tagCount]] = await Promise.all([
    cards.unionAll(tags).orderBy(asc(sql`updated_at`), asc(sql`uid`)).limit(limit).offset(q.offset) as Promise<Entry[]>,
    ctx.db.select({ n: count() }).from(counts.cards.as("c")),
    ctx.db.select({ n: count() }).from(counts.tags.as("t")),
  ]);
  const now = ctx.now();
  return { tokens: rows.map((r) => tokenOf(r, identity, now)), total: cardCount.n + tagCount.n, offset: q.offset, limit };
});

/** Our registry's answer in OCPI's words (OCPI 2.2.1 §12.4.1 AllowedType). */
const ALLOWED: Record<AuthorizationStatus, AllowedType> = {
  Accepted: "ALLOWED",
  Blocked: "BLOCKED",
  Expired: "EXPIRED",
  Invalid: "NOT_ALLOWED",
  ConcurrentTx: "ALLOWED",
};

/**
 * NO_CREDIT (OCPI 2.2.1 §12.4.1): the operator's parameter settings ask for a minimum balance to
 * charge, and the wallet that would pay (the holder's, or its group leader's) does not reach it
 * with its overdraft credit (docs/rules/ocpi.md "Tokens"). No minimum, no such answer.
 */
async function lacksCredit(ctx: SystemCtx, uid: string) {
  const minimum = (await settingsOf(ctx.db, ctx.operator.id)).parameters.minimumChargeBalance;
  if (minimum <= 0) return false;
  const payer = await payerOf(ctx, uid);
  if (!payer) return false;
  const [wallet] = await ctx.db
    .select({ balance: customers.balance, overdraftCredit: customers.overdraftCredit })
    .from(customers)
    .where(owned(ctx, customers, eq(customers.id, payer.payerId)))
    .limit(1);
  return !wallet || wallet.balance + wallet.overdraftCredit < minimum;
}

/**
 * What the registry answers for one of our tokens at a charger that is not ours: real-time
 * authorization and the commands we send ask the same question (docs/rules/ocpi.md "Tokens").
 */
async function registryAnswer(system: SystemCtx, uid: string): Promise<AllowedType> {
  // Point 0 is none of ours: the holder's point list cannot admit it (docs/rules/drivers.md "Who may charge").
  const { tag } = await registryFacts(system, 0, uid);
  const status = authorizationStatus({ tag: tag ?? null, chargerAccepted: true, busy: false, now: system.now(), cardsOnly: false });
  return ALLOWED[status] === "ALLOWED" && (await lacksCredit(system, uid)) ? "NO_CREDIT" : ALLOWED[status];
}

/**
 * POST /tokens/{uid}/authorize (OCPI 2.2.1 §12.2.1.2): the registry's status for the token at a
 * charger that is not ours, so a customer limited to some of our points gets NOT_ALLOWED; a token
 * the registry allows whose wallet lacks the minimum balance gets NO_CREDIT. An unknown token is
 * 404 with 2004.
 */
export const authorizeOurToken = verb({ actors: ["partner"] }, async (ctx, uid: string, type: unknown, raw: unknown) => {
  await registeredCaller(ctx);
  const kind = tokenType.optional().safeParse(type === "" ? undefined : type);
  if (!kind.success) throw invalidParameters(`type: ${reasonOf(kind.error.issues)}`);
  const location = raw === undefined || raw === null ? undefined : locationReferences.safeParse(raw);
  if (location && !location.success) throw invalidParameters(reasonOf(location.error.issues));
  const { cards, tags } = registry(ctx, { uid });
  const [entry] = (await cards.unionAll(tags).limit(1)) as Entry[];
  if (!entry || (kind.data && kind.data !== entry.type)) throw unknownToken();
  const allowed = await registryAnswer(systemCtx(ctx.env, ctx.operator, ctx.actor.name, ctx.now), uid);
  const identity = await ourIdentity(ctx);
  return {
    allowed,
    token: tokenOf(entry, identity, ctx.now()),
    ...(location?.data && { location: location.data }),
    ...(allowed === "ALLOWED" && { authorization_reference: crypto.randomUUID() }),
  };
});

/**
 * One of our tokens for a command we send, with the registry's answer as real-time authorization
 * would give it: the eMSP authorizes the token before StartSession or ReserveNow, since the CPO
 * will not ask (OCPI 2.2.1 §13.3.4, §13.3.5). Undefined for a token that is not ours.
 */
export async function ourTokenForCommand(ctx: UserCtx, uid: string): Promise<{ token: OcpiToken; allowed: AllowedType } | undefined> {
  const { cards, tags } = registry(ctx, { uid });
  const [entry] = (await cards.unionAll(tags).limit(1)) as Entry[];
  if (!entry) return undefined;
  const allowed = await registryAnswer(systemCtx(ctx.env, ctx.operator, `ocpi command ${ctx.actor.username}`, ctx.now), uid);
  return { token: tokenOf(entry, await ourIdentity(ctx), ctx.now()), allowed };
}
