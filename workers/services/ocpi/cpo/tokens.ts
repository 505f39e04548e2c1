import { desc, eq, gte, inArray, sql } from "drizzle-orm";
import { ocpiCpoSessions, ocpiCpoTokens, ocpiPlatforms, points, stations } from "../../../../db/schema";
import type { IdTagInfo } from "../../../../domain/ocpp";
import type { LocalEntry } from "../../../../domain/local-list";
import { invalidParameters, OcpiError, reasonOf, unknownToken } from "../../../../domain/ocpi/wire";
import { instantOf, OCPI_STATUS } from "../../../../domain/schemas/ocpi/common";
import { authorizationAnswer, incomingToken, tokenPatch, type CpoAuthMethod, type IncomingToken } from "../../../../domain/schemas/ocpi/cpo-sessions";
import { TOKEN_TYPES } from "../../../../domain/schemas/ocpi/common";
import { owned, ownedRow } from "../../../../tenants/scope";
import type { PartnerCtx, SystemCtx } from "../../context";
import { verb } from "../../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "../client";
import { isCallerParty } from "../partner";
import { openPartnerToken, ourIdentity } from "../identity";
import { evseUidOf } from "../../../../domain/ocpi/cpo-evse";

/**
 * The tokens receiver of our CPO side (OCPI 2.2.1 §12.2.2; docs/rules/ocpi.md "Partners' drivers
 * at our chargers"): eMSPs push their drivers' tokens, kept whole per partner, and a charger's
 * Authorize or start of a token that is not ours is answered from them, with the eMSP's
 * real-time authorization (§12.4.4) where the token's whitelist asks for it.
 */

const partner = { actors: ["partner"] as const };

export interface TokenPath {
  countryCode: string;
  partyId: string;
  uid: string;
  type: string | undefined;
}

function typeOf(type: string | undefined) {
  const value = type ?? "RFID";
  if (!(TOKEN_TYPES as readonly string[]).includes(value)) throw invalidParameters(`type: one of ${TOKEN_TYPES.join(", ")}`);
  return value;
}

/** The caller may push only tokens of its own parties (OCPI 2.2.1 §12.2.2), named alike in the URL and the object. */
async function checkParty(ctx: PartnerCtx, path: TokenPath, object: { country_code?: string; party_id?: string; uid?: string; type?: string }) {
  if ((object.country_code ?? path.countryCode) !== path.countryCode || (object.party_id ?? path.partyId) !== path.partyId || (object.uid ?? path.uid) !== path.uid) {
    throw invalidParameters("country_code, party_id and uid must be those of the URL");
  }
  if (object.type !== undefined && object.type !== typeOf(path.type)) throw invalidParameters("type must be that of the URL");
  if (!(await isCallerParty(ctx, path.countryCode, path.partyId))) throw new OcpiError(403, OCPI_STATUS.clientError, `${path.countryCode}*${path.partyId} is not a party of this connection`);
}

const tokenKey = (ctx: PartnerCtx, path: TokenPath) =>
  owned(
    ctx,
    ocpiCpoTokens,
    eq(ocpiCpoTokens.platformId, ctx.actor.platformId),
    eq(ocpiCpoTokens.countryCode, path.countryCode),
    eq(ocpiCpoTokens.partyId, path.partyId),
    eq(ocpiCpoTokens.uid, path.uid),
    eq(ocpiCpoTokens.type, typeOf(path.type)),
  );

async function storedToken(ctx: PartnerCtx, path: TokenPath) {
  const [row] = await ctx.db.select().from(ocpiCpoTokens).where(tokenKey(ctx, path)).limit(1);
  return row;
}

/** Writes a whole token; an older `last_updated` than the stored one changes nothing (OCPI 2.2.1 §3.4). */
async function store(ctx: PartnerCtx, token: IncomingToken & Record<string, unknown>) {
  const lastUpdated = new Date(instantOf(token.last_updated));
  const columns = {
    contractId: token.contract_id,
    whitelist: token.whitelist,
    valid: token.valid,
    data: token as Record<string, unknown>,
    lastUpdated,
    receivedAt: new Date(ctx.now()),
  };
  const written = await ctx.db
    .insert(ocpiCpoTokens)
    .values(ownedRow(ctx, { platformId: ctx.actor.platformId, countryCode: token.country_code, partyId: token.party_id, uid: token.uid, type: token.type, ...columns }))
    .onConflictDoUpdate({
      target: [ocpiCpoTokens.operatorId, ocpiCpoTokens.platformId, ocpiCpoTokens.countryCode, ocpiCpoTokens.partyId, ocpiCpoTokens.uid, ocpiCpoTokens.type],
      set: columns,
      setWhere: sql`${ocpiCpoTokens.lastUpdated} <= ${lastUpdated.getTime()}`,
    })
    .returning({ id: ocpiCpoTokens.id });
  return { applied: written.length > 0 };
}

/** PUT: the whole token (OCPI 2.2.1 §12.2.2.2). */
export const putCpoToken = verb(partner, async (ctx, path: TokenPath, raw: unknown) => {
  const parsed = incomingToken.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  await checkParty(ctx, path, parsed.data);
  return store(ctx, parsed.data);
});

/** PATCH: some fields of a stored token, `last_updated` required (OCPI 2.2.1 §12.2.2.3); an unknown token is 404. */
export const patchCpoToken = verb(partner, async (ctx, path: TokenPath, raw: unknown) => {
  const parsed = tokenPatch.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  await checkParty(ctx, path, parsed.data);
  const stored = await storedToken(ctx, path);
  if (!stored) throw unknownToken();
  const merged = incomingToken.safeParse({ ...stored.data, ...parsed.data });
  if (!merged.success) throw invalidParameters(reasonOf(merged.error.issues));
  return store(ctx, merged.data);
});

/** GET: the token as we hold it (OCPI 2.2.1 §12.2.2.1). */
export const getCpoToken = verb(partner, async (ctx, path: TokenPath) => {
  typeOf(path.type);
  if (!(await isCallerParty(ctx, path.countryCode, path.partyId))) throw unknownToken();
  const stored = await storedToken(ctx, path);
  if (!stored) throw unknownToken();
  return stored.data;
});

// Authorising a partner's driver at our charger ------------------------------------------------

/** How long a charger's Authorize waits for the eMSP's real-time answer before the stored token decides. */
export const REAL_TIME_AUTHORIZATION_MS = 4_000;

/** A START_SESSION lets its token in at its point this long (a driver who never plugs in does not keep it open). */
export const PENDING_START_MS = 10 * 60_000;

/** What a roaming authorization found: the partner, the token and how it was let in. */
export interface RoamingGrant {
  platformId: number;
  countryCode: string;
  partyId: string;
  uid: string;
  type: string;
  contractId: string;
  authMethod: CpoAuthMethod;
  authorizationReference: string | null;
  /** A START_SESSION's pending session this start takes over. */
  sessionId: number | null;
}

export interface RoamingAnswer {
  idTagInfo: IdTagInfo;
  grant: RoamingGrant | null;
}

/** OCPI 2.2.1 §12.4.1 AllowedType as OCPP 1.6 §7.2 AuthorizationStatus. */
const STATUS_OF_ALLOWED = { ALLOWED: "Accepted", BLOCKED: "Blocked", EXPIRED: "Expired", NO_CREDIT: "Blocked", NOT_ALLOWED: "Invalid" } as const;

type Outcome = { kind: "answer"; allowed: keyof typeof STATUS_OF_ALLOWED; authorizationReference: string | null } | { kind: "noAnswer"; reason: string };

/**
 * The eMSP's real-time authorization (OCPI 2.2.1 §12.4.4): `POST {tokens sender}/{uid}/authorize?type=`
 * with the location and EVSE, answered within `REAL_TIME_AUTHORIZATION_MS` or not at all.
 */
async function askEmsp(ctx: SystemCtx, platform: typeof ocpiPlatforms.$inferSelect, token: { countryCode: string; partyId: string; uid: string; type: string }, location: { locationId: string; evseUid: string }, send: OcpiFetch): Promise<Outcome> {
  const endpoint = platform.endpoints?.find((e) => e.identifier === "tokens" && e.role === "SENDER");
  if (!endpoint || !platform.partnerToken || platform.registerStatus !== "Registered") return { kind: "noAnswer", reason: "no tokens sender" };
  const [partnerToken, identity] = await Promise.all([openPartnerToken(ctx, platform.partnerToken), ourIdentity(ctx)]);
  const url = `${endpoint.url.replace(/\/$/, "")}/${encodeURIComponent(token.uid)}/authorize?type=${token.type}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "noAnswer", reason: "timeout" }), REAL_TIME_AUTHORIZATION_MS);
  });
  const asked = callPartner(send, url, partnerToken, authorizationAnswer, {
    method: "POST",
    body: { location_id: location.locationId, evse_uids: [location.evseUid] },
    from: identity,
    to: { countryCode: token.countryCode, partyId: token.partyId },
  }).then(
    ({ data }): Outcome => ({ kind: "answer", allowed: data.allowed, authorizationReference: data.authorization_reference ?? null }),
    (error: unknown): Outcome => ({ kind: "noAnswer", reason: error instanceof PartnerFailure ? error.reason : String(error) }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answer to a charger about a tag that is not in the operator's registry: a START_SESSION's
 * pending session at this point (the eMSP authorised it, OCPI 2.2.1 §13.3.5), else a token an
 * eMSP pushed, by its whitelist (§12.4.2): ALWAYS and ALLOWED from the stored token,
 * ALLOWED_OFFLINE by real-time authorization with the stored token when the eMSP does not answer
 * in time, NEVER by real-time authorization only. Null when no partner knows the tag: the caller
 * answers Invalid, so an unknown token never starts a session.
 */
export async function roamingTagInfo(
  ctx: SystemCtx,
  pointId: number,
  idTag: string,
  send: OcpiFetch = workerFetch,
): Promise<RoamingAnswer | null> {
  const sameUid = sql`upper(${ocpiCpoTokens.uid}) = upper(${idTag})`;
  // No join inside the batch: a D1 batch answers rows keyed by column name, and two tables' `id` would collide.
  const [pending, tokens, [point]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(ocpiCpoSessions)
      .where(
        owned(
          ctx,
          ocpiCpoSessions,
          eq(ocpiCpoSessions.pointId, pointId),
          eq(ocpiCpoSessions.status, "PENDING"),
          sql`upper(${ocpiCpoSessions.tokenUid}) = upper(${idTag})`,
          gte(ocpiCpoSessions.createdAt, new Date(ctx.now() - PENDING_START_MS)),
        ),
      )
      .orderBy(desc(ocpiCpoSessions.id))
      .limit(1),
    ctx.db
      .select()
      .from(ocpiCpoTokens)
      .where(
        owned(
          ctx,
          ocpiCpoTokens,
          sameUid,
          inArray(ocpiCpoTokens.platformId, ctx.db.select({ id: ocpiPlatforms.id }).from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.registerStatus, "Registered")))),
        ),
      )
      .orderBy(desc(ocpiCpoTokens.lastUpdated))
      .limit(1),
    ctx.db.select({ stationId: points.stationId }).from(points).where(owned(ctx, points, eq(points.id, pointId))).limit(1),
  ]);
  const [session] = pending;
  if (session) {
    return {
      idTagInfo: { status: "Accepted" },
      grant: {
        platformId: session.platformId,
        countryCode: session.tokenCountryCode,
        partyId: session.tokenPartyId,
        uid: session.tokenUid,
        type: session.tokenType,
        contractId: session.contractId,
        authMethod: "COMMAND",
        authorizationReference: session.authorizationReference,
        sessionId: session.id,
      },
    };
  }
  const [token] = tokens;
  if (!token) return null;
  const grant = (authMethod: CpoAuthMethod, authorizationReference: string | null): RoamingGrant => ({
    platformId: token.platformId,
    countryCode: token.countryCode,
    partyId: token.partyId,
    uid: token.uid,
    type: token.type,
    contractId: token.contractId,
    authMethod,
    authorizationReference,
    sessionId: null,
  });
  const stored = (): RoamingAnswer => (token.valid ? { idTagInfo: { status: "Accepted" }, grant: grant("WHITELIST", null) } : { idTagInfo: { status: "Blocked" }, grant: null });
  if (token.whitelist === "ALWAYS" || token.whitelist === "ALLOWED") return stored();
  // The charger's Authorize names no connector: the location and the point's first EVSE.
  const location = { locationId: String(point?.stationId ?? 0), evseUid: evseUidOf(pointId, 1) };
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, token.platformId))).limit(1);
  const outcome = platform ? await askEmsp(ctx, platform, token, location, send) : ({ kind: "noAnswer", reason: "no platform" } as const);
  if (outcome.kind === "answer") {
    const status = STATUS_OF_ALLOWED[outcome.allowed];
    return { idTagInfo: { status }, grant: status === "Accepted" ? grant("AUTH_REQUEST", outcome.authorizationReference) : null };
  }
  // No answer in time: ALLOWED_OFFLINE falls back to the stored token, NEVER is refused (OCPI 2.2.1 §12.4.2).
  return token.whitelist === "ALLOWED_OFFLINE" ? stored() : { idTagInfo: { status: "Invalid" }, grant: null };
}

/**
 * The entries an offline list adds at a published point for partners' drivers: each valid
 * ALLOWED_OFFLINE token of a registered partner (OCPI 2.2.1 §12.4.2: whitelisted when the eMSP
 * cannot be asked), Accepted, unless the operator's own tag of that uid is listed. A uid longer
 * than OCPP 1.6's 20 characters cannot be listed (docs/rules/driver-services.md "Offline lists").
 */
export async function roamingListEntries(ctx: SystemCtx, pointId: number): Promise<LocalEntry[]> {
  const [published] = await ctx.db
    .select({ id: points.id })
    .from(points)
    .where(owned(ctx, points, eq(points.id, pointId), inArray(points.stationId, ctx.db.select({ id: stations.id }).from(stations).where(owned(ctx, stations, eq(stations.publishToRoaming, true))))))
    .limit(1);
  if (!published) return [];
  const rows = await ctx.db
    .select({ uid: ocpiCpoTokens.uid })
    .from(ocpiCpoTokens)
    .where(
      owned(
        ctx,
        ocpiCpoTokens,
        eq(ocpiCpoTokens.valid, true),
        eq(ocpiCpoTokens.whitelist, "ALLOWED_OFFLINE"),
        sql`length(${ocpiCpoTokens.uid}) <= 20`,
        inArray(ocpiCpoTokens.platformId, ctx.db.select({ id: ocpiPlatforms.id }).from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.registerStatus, "Registered")))),
      ),
    );
  return rows.map((r) => ({ idTag: r.uid, status: "Accepted" as const, expiryDate: null, parentIdTag: null }));
}
