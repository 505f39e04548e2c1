import { and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { idTags, ocpiPlatforms, ocpiTokenPushes, operators, rfCards } from "../../../db/schema";
import { rowsFor } from "../../../db/paging";
import { slices } from "../../../db/statements";
import { Conflict, Invalid } from "../../../domain/errors";
import type { OcpiToken } from "../../../domain/schemas/ocpi/tokens";
import { tokenPushInput, type OcpiTokenPush } from "../../../domain/schemas/ocpi/sync";
import { pageQuery } from "../../../domain/schemas/account-service";
import { acrossTenants, owned, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { reportError } from "../../http/report-error";
import { afterAnswer, type Ctx, type SystemCtx, type UserCtx } from "../context";
import { verb } from "../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "./client";
import { endpointOf, openPartnerToken, ourIdentity } from "./identity";
import { platformRow } from "./platforms";
import { registry, tokenOf, type RegistryEntry } from "./tokens";

/**
 * Token pushes (docs/rules/ocpi.md "Token pushes", OCPI 2.2.1 §12.2.2): when one of our tokens
 * changes, each registered partner with a tokens receiver gets it by `PUT
 * {url}/{country_code}/{party_id}/{uid}?type=`, through the push queue, retried while it fails.
 * One row per partner and token keeps the state; a delivery always sends the token as the registry
 * holds it then, so a message delivered twice or late sends nothing stale.
 */

export type TokenType = "RFID" | "APP_USER";
export interface ChangedToken {
  uid: string;
  type: TokenType;
}

/** Rows per insert: seven bound columns each and the update's four (D1's 100 parameters; docs/rules/lists.md). */
const PUSH_ROWS = 12;

/** The operator's registered platforms that take tokens. */
async function tokenReceivers(ctx: Ctx, platformId?: number) {
  const rows = await ctx.db
    .select({ platform: ocpiPlatforms })
    .from(ocpiPlatforms)
    // An operator that has not joined OCPI sends partners nothing (docs/rules/platform.md "Roaming").
    .innerJoin(operators, and(eq(operators.id, ocpiPlatforms.operatorId), eq(operators.joinOcpi, true)))
    .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.registerStatus, "Registered"), platformId ? eq(ocpiPlatforms.id, platformId) : undefined));
  // Our drivers' tokens go to the CPOs they charge at, never to an eMSP partner (docs/rules/ocpi.md "Roles").
  return rows.map((r) => r.platform).filter((p) => p.role !== "EMSP" && endpointOf(p.endpoints, "tokens", "RECEIVER"));
}

/** Marks each token PENDING for each platform (a new change: attempts start again) and queues one message per row. */
async function queuePushes(ctx: Ctx, platformIds: readonly number[], tokens: readonly ChangedToken[]) {
  const now = new Date(ctx.now());
  const rows = platformIds.flatMap((platformId) => tokens.map((t) => ({ platformId, uid: t.uid, type: t.type, state: "PENDING" as const, attempts: 0, queuedAt: now })));
  const ids: number[] = [];
  for (const slice of slices(rows, PUSH_ROWS)) {
    const written = await ctx.db
      .insert(ocpiTokenPushes)
      .values(ownedRows(ctx, slice))
      .onConflictDoUpdate({
        target: [ocpiTokenPushes.operatorId, ocpiTokenPushes.platformId, ocpiTokenPushes.uid],
        set: { type: sql`excluded.type`, state: "PENDING", attempts: 0, lastError: null, queuedAt: now },
      })
      .returning({ id: ocpiTokenPushes.id });
    ids.push(...written.map((r) => r.id));
  }
  const messages = ids.map((pushId) => ({ body: { kind: "ocpiToken", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, pushId } satisfies OcpiTokenPush }));
  for (const slice of slices(messages, 100)) await ctx.env.PUSH.sendBatch(slice);
  return ids.length;
}

/**
 * Called after a write that changed tokens (a card created, edited, blocked, bound, deleted; a
 * customer blocked or deleted): queues their push to every partner that takes tokens, after the
 * answer where the caller allows it. An operator without such a partner costs one indexed read.
 */
export async function tokensChanged(ctx: Ctx, tokens: readonly ChangedToken[]) {
  if (tokens.length === 0) return;
  const work = (async () => {
    const platforms = await tokenReceivers(ctx);
    if (platforms.length > 0) await queuePushes(ctx, platforms.map((p) => p.id), tokens);
  })();
  // The write has landed: a push that cannot be queued is reported, never the write's failure;
  // the force push sends it later.
  await afterAnswer(ctx, work.catch((error: unknown) => reportError("ocpi token push", error)), "ocpi token push");
}

/** Cards of `uids`, as changed tokens. */
export const changedCards = (uids: readonly string[]): ChangedToken[] => [...new Set(uids)].map((uid) => ({ uid, type: "RFID" }));

/** A customer's tokens (cards, RFID tags, app tokens): what its status or deletion changes. */
export async function customerTokens(ctx: Ctx, customerId: number): Promise<ChangedToken[]> {
  const [cards, tags] = await ctx.db.batch([
    ctx.db.select({ uid: rfCards.idTag }).from(rfCards).where(owned(ctx, rfCards, eq(rfCards.customerId, customerId))),
    ctx.db
      .select({ uid: idTags.idTag, kind: idTags.kind })
      .from(idTags)
      .where(owned(ctx, idTags, eq(idTags.customerId, customerId), inArray(idTags.kind, ["RFID", "APP"]))),
  ]);
  return [...cards.map((c) => ({ uid: c.uid, type: "RFID" as const })), ...tags.map((t) => ({ uid: t.uid, type: t.kind === "RFID" ? ("RFID" as const) : ("APP_USER" as const) }))];
}

/**
 * POST /ocpi-service/token/push `{ platformId?, uids? }`: push again now, to one partner or every
 * one that takes tokens, some tokens (each must be in the registry: 400) or all of them.
 */
export const forcePushTokens = verb({ menu: "emsp.token", mutates: true }, async (ctx, raw: unknown) => {
  const input = tokenPushInput.parse(raw ?? {});
  if (input.platformId) await platformRow(ctx, input.platformId);
  const platforms = await tokenReceivers(ctx, input.platformId);
  if (platforms.length === 0) throw new Conflict("ocpi.errors.noTokenReceiver");
  const tokens: ChangedToken[] = [];
  if (input.uids) {
    for (const uid of new Set(input.uids)) {
      const { cards, tags } = registry(ctx, { uid });
      const [entry] = (await cards.unionAll(tags).limit(1)) as RegistryEntry[];
      if (!entry) throw new Invalid("ocpi.validation.unknownUid", {}, { uids: "ocpi.validation.unknownUid" });
      tokens.push({ uid: entry.uid, type: entry.type });
    }
  } else {
    const { cards, tags } = registry(ctx, {});
    tokens.push(...((await cards.unionAll(tags)) as RegistryEntry[]).map((e) => ({ uid: e.uid, type: e.type })));
  }
  const queued = await queuePushes(ctx, platforms.map((p) => p.id), tokens);
  await auditRow(ctx, { table: "ocpi_token_pushes", module: "ocpi", type: "UPDATE", newData: { platforms: platforms.map((p) => p.id), uids: input.uids ?? "all", queued } });
  return { queued };
});

/**
 * Pushes still PENDING long after they were queued (a message lost on the way), across operators,
 * for the cron to queue again; delivering one twice sends the same token twice, which is harmless.
 */
export const lostTokenPushes = verb({ actors: ["system"] }, async (ctx, queuedBefore: Date) =>
  ctx.db
    .select({ pushId: ocpiTokenPushes.id, operatorId: ocpiTokenPushes.operatorId, operatorCode: operators.code })
    .from(ocpiTokenPushes)
    .innerJoin(operators, eq(operators.id, ocpiTokenPushes.operatorId))
    // An operator that has not joined OCPI sends partners nothing (docs/rules/platform.md "Roaming").
    .where(
      acrossTenants(
        "the cron finds every operator's waiting token pushes; each is delivered as its own operator",
        eq(ocpiTokenPushes.state, "PENDING"),
        lt(ocpiTokenPushes.queuedAt, queuedBefore),
        eq(operators.joinOcpi, true),
      ),
    )
    .limit(1000),
);

/** The push state of some tokens, per partner, for the tokens list. */
export async function pushesOf(ctx: Ctx, uids: readonly string[]) {
  const rows = await rowsFor([...new Set(uids)], (slice) =>
    ctx.db
      .select({ push: ocpiTokenPushes, platformName: ocpiPlatforms.name })
      .from(ocpiTokenPushes)
      .innerJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, ocpiTokenPushes.platformId), eq(ocpiPlatforms.operatorId, ocpiTokenPushes.operatorId)))
      .where(owned(ctx, ocpiTokenPushes, inArray(ocpiTokenPushes.uid, slice)))
      .orderBy(ocpiTokenPushes.platformId),
  );
  return rows.map(({ push: p, platformName }) => ({
    uid: p.uid,
    platformId: p.platformId,
    platformName,
    state: p.state,
    attempts: p.attempts,
    lastError: p.lastError,
    pushedAt: p.pushedAt?.toISOString() ?? null,
  }));
}
export type TokenPushStatus = Awaited<ReturnType<typeof pushesOf>>[number];

/**
 * Our tokens as partners see them, for the console (`emspToken`): the same registry and the same
 * OCPI Token each partner pulls, paged.
 */
export const listTokensForConsole = verb({ menu: "emsp.token" }, async (ctx: UserCtx, raw: unknown) => {
  const q = pageQuery.parse(raw);
  const identity = await ourIdentity(ctx).catch(() => ({ countryCode: "", partyId: "", name: ctx.operator.name }));
  const { cards, tags } = registry(ctx, {});
  const counts = registry(ctx, {});
  const [rows, [cardCount], [tagCount]] = await Promise.all([
    cards.unionAll(tags).orderBy(desc(sql`updated_at`), asc(sql`uid`)).limit(q.size).offset((q.current - 1) * q.size) as Promise<RegistryEntry[]>,
    ctx.db.select({ n: count() }).from(counts.cards.as("c")),
    ctx.db.select({ n: count() }).from(counts.tags.as("t")),
  ]);
  const now = ctx.now();
  // Each token's push to each partner (docs/rules/ocpi.md "Token pushes").
  const pushes = await pushesOf(ctx, rows.map((r) => r.uid));
  return {
    records: rows.map((r) => {
      const token = tokenOf(r, identity, now);
      return {
        uid: token.uid,
        type: token.type,
        contractId: token.contract_id,
        valid: token.valid,
        whitelist: token.whitelist,
        countryCode: token.country_code,
        partyId: token.party_id,
        lastUpdated: token.last_updated,
        pushes: pushes.filter((p) => p.uid === r.uid),
      };
    }),
    total: cardCount.n + tagCount.n,
    current: q.current,
    size: q.size,
  };
});


/**
 * Delivers one push (the queue, as the system): the token as the registry holds it now, or, if it
 * is gone, as not valid any more. Answers false when the queue should try again. Outgoing pushes
 * are not written to the operation log: the row is their record.
 */
export const deliverTokenPush = verb({ actors: ["system"] }, async (ctx: SystemCtx, pushId: number, send: OcpiFetch = workerFetch): Promise<boolean> => {
  const [row] = await ctx.db.select().from(ocpiTokenPushes).where(owned(ctx, ocpiTokenPushes, eq(ocpiTokenPushes.id, pushId))).limit(1);
  if (!row || row.state === "SENT") return true;
  // Only the change this delivery read is settled: a newer one has its own message.
  const settle = (values: Partial<typeof ocpiTokenPushes.$inferInsert>) =>
    ctx.db
      .update(ocpiTokenPushes)
      .set({ ...values, attempts: sql`${ocpiTokenPushes.attempts} + 1` })
      .where(owned(ctx, ocpiTokenPushes, eq(ocpiTokenPushes.id, pushId), eq(ocpiTokenPushes.attempts, row.attempts), eq(ocpiTokenPushes.queuedAt, row.queuedAt)));
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, row.platformId))).limit(1);
  const url = platform?.registerStatus === "Registered" ? endpointOf(platform.endpoints, "tokens", "RECEIVER") : undefined;
  if (!platform || !url || !platform.partnerToken) {
    // Nothing to retry until the partner registers again; force push then.
    await settle({ state: "FAILED", lastError: "The partner is not registered or takes no tokens" });
    return true;
  }
  try {
    const identity = await ourIdentity(ctx);
    const { cards, tags } = registry(ctx, { uid: row.uid });
    const [entry] = (await cards.unionAll(tags).limit(1)) as RegistryEntry[];
    // A token gone from the registry is published as no longer valid (OCPI 2.2.1 has no DELETE of a token).
    const token: OcpiToken = tokenOf(entry ?? { uid: row.uid, type: row.type, usable: 0, expiresAt: null, updatedAt: ctx.now() }, identity, ctx.now());
    const target = `${url.replace(/\/$/, "")}/${identity.countryCode}/${identity.partyId}/${encodeURIComponent(token.uid)}?type=${token.type}`;
    const to = platform.partnerCountryCode && platform.partnerPartyId ? { countryCode: platform.partnerCountryCode, partyId: platform.partnerPartyId } : undefined;
    await callPartner(send, target, await openPartnerToken(ctx, platform.partnerToken), z.unknown(), { method: "PUT", body: token, from: identity, to });
    await settle({ state: "SENT", lastError: null, pushedAt: new Date(ctx.now()) });
    return true;
  } catch (error) {
    const reason = error instanceof PartnerFailure ? error.reason : error instanceof Conflict ? error.key : null;
    if (reason === null) throw error;
    await settle({ state: "FAILED", lastError: reason.slice(0, 500) });
    return false;
  }
});
