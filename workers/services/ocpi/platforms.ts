import { and, count, desc, eq } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { ocpiCdrs, ocpiCommands, ocpiLocations, ocpiParties, ocpiPlatforms, ocpiPulls, ocpiSessions, ocpiTariffs, ocpiTokenPushes } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { roleFromCredentials } from "../../../domain/ocpi/roles";
import { credentials } from "../../../domain/schemas/ocpi/credentials";
import { ocpiListQuery, platformInput } from "../../../domain/schemas/ocpi/console";
import { secretsKept } from "../../../domain/secret-destinations";
import { z } from "zod";
import { owned, ownedRow } from "../../../tenants/scope";
import { generateToken, tokenId } from "../../auth/tokens";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "./client";
import { endpointOf, negotiate, openPartnerToken, ourCredentials, ourIdentity, ourOrigin, registeredStatements, sealPartnerToken, VERSIONS_PATH } from "./identity";
import { pullPartiesAfterRegistration } from "./pull-queue";

/**
 * Partner platforms of an operator and the credentials handshake we start
 * (docs/rules/ocpi.md "Tokens and registration", OCPI 2.2.1 §7).
 */
const MENU = "emsp.platform";
const PARTY_MENUS = ["emsp.party", "emsp.platform"];

type Row = typeof ocpiPlatforms.$inferSelect;

const present = (r: Row) => ({
  id: r.id,
  name: r.name,
  role: r.role,
  versionsUrl: r.versionsUrl,
  /** The partner's token is never answered, only whether one is stored. */
  hasToken: r.partnerToken !== null,
  /** A token A we issued is waiting for the partner to register with it. */
  tokenIssued: r.ourTokenKind === "A",
  registerStatus: r.registerStatus,
  version: r.version,
  partnerCountryCode: r.partnerCountryCode,
  partnerPartyId: r.partnerPartyId,
  endpoints: r.endpoints ?? [],
  lastError: r.lastError,
  registeredAt: r.registeredAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
export type PlatformRecord = ReturnType<typeof present>;

export async function platformRow(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id))).limit(1);
  if (!row) throw new NotFound("ocpi.errors.platformNotFound");
  return row;
}

export const listPlatforms = verb({ menu: [MENU, ...PARTY_MENUS, "emsp.token", "emsp.session", "emsp.cdr", "emsp.location", "emsp.tariff"] }, async (ctx, raw: unknown) => {
  const q = ocpiListQuery.parse(raw);
  const where = owned(ctx, ocpiPlatforms, containingIf(ocpiPlatforms.name, q.q), q.status === "Registered" || q.status === "Unregistered" ? eq(ocpiPlatforms.registerStatus, q.status) : undefined);
  return pageOf(
    q,
    async ({ limit, offset }) => (await ctx.db.select().from(ocpiPlatforms).where(where).orderBy(desc(ocpiPlatforms.id)).limit(limit).offset(offset)).map(present),
    async () => (await ctx.db.select({ total: count() }).from(ocpiPlatforms).where(where))[0].total,
  );
});

/** Our country code, party id and name as partners see them, for the platform screen; null until the settings give them. */
export const roamingIdentity = verb({ menu: MENU }, async (ctx) => ourIdentity(ctx).catch(() => null));

export const getPlatform = verb({ menu: MENU }, async (ctx, id: number) => {
  const row = await platformRow(ctx, id);
  const identity = await ourIdentity(ctx).catch(() => null);
  return { ...present(row), ourCountryCode: identity?.countryCode ?? null, ourPartyId: identity?.partyId ?? null, ourVersionsUrl: `${ourOrigin(ctx)}${VERSIONS_PATH}` };
});

export const createPlatform = verb({ menu: MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = platformInput.parse(raw);
  const partnerToken = input.token ? await sealPartnerToken(ctx, input.token) : null;
  const [[row]] = await ctx.db.batch([
    ctx.db.insert(ocpiPlatforms).values(ownedRow(ctx, { name: input.name, role: input.role ?? "CPO", versionsUrl: input.versionsUrl ?? null, partnerToken })).returning(),
    auditRow(ctx, { table: "ocpi_platforms", module: "ocpi", type: "CREATE", newData: { name: input.name, role: input.role ?? "CPO", versionsUrl: input.versionsUrl, token: input.token } }),
  ]);
  return present(row);
});

/** Name, versions URL and token; the URL and token of a registered platform are fixed until it unregisters. */
export const updatePlatform = verb({ menu: MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = platformInput.parse(raw);
  const before = await platformRow(ctx, id);
  // The role is part of the connection: its credentials were checked against it.
  const changesConnection = (input.versionsUrl ?? null) !== before.versionsUrl || input.token !== undefined || (input.role !== undefined && input.role !== before.role);
  if (before.registerStatus === "Registered" && changesConnection) throw new Conflict("ocpi.errors.registeredFixed");
  // The partner's token goes only to the versions URL it was entered for (docs/rules/settings.md "Secrets at rest").
  const stored = secretsKept([before.versionsUrl], [input.versionsUrl], before.partnerToken, null);
  const partnerToken = input.token ? await sealPartnerToken(ctx, input.token) : stored;
  const [[row]] = await ctx.db.batch([
    ctx.db
      .update(ocpiPlatforms)
      .set({ name: input.name, role: input.role ?? before.role, versionsUrl: input.versionsUrl ?? null, partnerToken, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id)))
      .returning(),
    auditRow(ctx, { table: "ocpi_platforms", module: "ocpi", type: "UPDATE", oldData: { id, name: before.name, role: before.role, versionsUrl: before.versionsUrl }, newData: { id, ...input } }),
  ]);
  return present(row);
});

/** Deletes an unregistered platform with everything its partner sent. */
export const deletePlatform = verb({ menu: MENU, mutates: true }, async (ctx, id: number) => {
  const before = await platformRow(ctx, id);
  if (before.registerStatus === "Registered") throw new Conflict("ocpi.errors.unregisterFirst");
  const ofPlatform = <T extends typeof ocpiParties | typeof ocpiLocations | typeof ocpiSessions | typeof ocpiCdrs | typeof ocpiTariffs | typeof ocpiCommands | typeof ocpiPulls | typeof ocpiTokenPushes>(table: T) =>
    ctx.db.delete(table).where(owned(ctx, table, eq(table.platformId, id)));
  await ctx.db.batch([
    ofPlatform(ocpiParties),
    ofPlatform(ocpiLocations),
    ofPlatform(ocpiSessions),
    ofPlatform(ocpiCdrs),
    ofPlatform(ocpiTariffs),
    ofPlatform(ocpiCommands),
    ofPlatform(ocpiPulls),
    ofPlatform(ocpiTokenPushes),
    ctx.db.delete(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id))),
    auditRow(ctx, { table: "ocpi_platforms", module: "ocpi", type: "DELETE", oldData: { id, name: before.name } }),
  ]);
  return { id };
});

/**
 * Issues a token A for a partner that registers with us (OCPI 2.2.1 §7.1): shown once, stored as
 * its SHA-256 only; it admits nothing but the versions and the credentials handshake.
 */
export const issuePlatformToken = verb({ menu: MENU, mutates: true }, async (ctx, id: number) => {
  const before = await platformRow(ctx, id);
  if (before.registerStatus === "Registered") throw new Conflict("ocpi.errors.alreadyRegistered");
  const token = generateToken();
  await ctx.db.batch([
    ctx.db
      .update(ocpiPlatforms)
      .set({ ourTokenHash: tokenId(token), ourTokenKind: "A", updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id))),
    auditRow(ctx, { table: "ocpi_platforms", module: "ocpi", type: "UPDATE", oldData: { id }, newData: { id, token: "issued A" } }),
  ]);
  return { token, versionsUrl: `${ourOrigin(ctx)}${VERSIONS_PATH}` };
});

/** Records a failed handshake on the platform and answers 409 with the partner's reason. */
async function failed(ctx: UserCtx, id: number, failure: PartnerFailure): Promise<never> {
  await ctx.db
    .update(ocpiPlatforms)
    .set({ lastError: failure.reason.slice(0, 500), updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id)));
  throw new Conflict("ocpi.errors.registerFailed", { reason: failure.reason });
}

/**
 * Registers with the partner now (OCPI 2.2.1 §7.2.1 and §8 of its credentials module): its
 * versions with its token A, 2.2.1's endpoints, then our credentials with a fresh token B, which
 * we store before sending, since the partner may call us with it before it answers; its answer's
 * token C is what we use from then on. A registered platform updates (PUT) with a new token B:
 * the token rotation.
 */
export const registerPlatform = verb({ menu: MENU, mutates: true }, async (ctx, id: number, send: OcpiFetch = workerFetch) => {
  const before = await platformRow(ctx, id);
  if (!before.versionsUrl || !before.partnerToken) throw new Conflict("ocpi.errors.tokenAndUrlFirst");
  const identity = await ourIdentity(ctx);
  const theirToken = await openPartnerToken(ctx, before.partnerToken);
  const tokenB = generateToken();
  try {
    const { version, endpoints } = await negotiate(send, before.versionsUrl, theirToken);
    const url = endpointOf(endpoints, "credentials", "RECEIVER");
    if (!url) throw new PartnerFailure(`${before.versionsUrl}: no credentials endpoint in ${version}`, 3003);
    // Our new token is valid before the partner hears of it; the old one stays valid until it answers.
    if (before.registerStatus !== "Registered") {
      await ctx.db.update(ocpiPlatforms).set({ ourTokenHash: tokenId(tokenB), ourTokenKind: "B" }).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id)));
    }
    const from = { countryCode: identity.countryCode, partyId: identity.partyId };
    const answer = await callPartner(send, url, theirToken, credentials, {
      method: before.registerStatus === "Registered" ? "PUT" : "POST",
      body: ourCredentials(ctx, identity, tokenB),
      from,
    });
    // The partner answers as the role its platform was entered with, or the connection is not made (docs/rules/ocpi.md "CPO role").
    const role = roleFromCredentials(before.role, answer.data.roles);
    if (!role) throw new PartnerFailure(`${url}: the credentials name no ${before.role} role`, 2001);
    const state = { partnerToken: await sealPartnerToken(ctx, answer.data.token), ourTokenHash: tokenId(tokenB), version, endpoints, roles: answer.data.roles, role };
    await ctx.db.batch([
      ...registeredStatements(ctx, id, state),
      auditRow(ctx, {
        table: "ocpi_platforms",
        module: "ocpi",
        type: "UPDATE",
        oldData: { id, registerStatus: before.registerStatus },
        newData: { id, registerStatus: "Registered", version, roles: answer.data.roles.map((r) => `${r.country_code}*${r.party_id} ${r.role}`) },
      }),
    ]);
    await pullPartiesAfterRegistration(ctx, id);
    return present(await platformRow(ctx, id));
  } catch (error) {
    if (error instanceof PartnerFailure) return failed(ctx, id, error);
    throw error;
  }
});

/**
 * Unregisters (OCPI 2.2.1 §7.2.4): DELETE on the partner's credentials, then our token is revoked
 * whatever the partner answered (it must not keep access because it failed to answer); its
 * answer is reported.
 */
export const unregisterPlatform = verb({ menu: MENU, mutates: true }, async (ctx, id: number, send: OcpiFetch = workerFetch) => {
  const before = await platformRow(ctx, id);
  if (before.registerStatus !== "Registered") throw new Conflict("ocpi.errors.notRegistered");
  let partnerError: string | null = null;
  const url = endpointOf(before.endpoints, "credentials", "RECEIVER");
  try {
    if (!url || !before.partnerToken) throw new PartnerFailure("no credentials endpoint");
    await callPartner(send, url, await openPartnerToken(ctx, before.partnerToken), z.unknown(), { method: "DELETE" });
  } catch (error) {
    if (!(error instanceof PartnerFailure)) throw error;
    partnerError = error.reason;
  }
  await ctx.db.batch([
    ctx.db
      .update(ocpiPlatforms)
      .set({ registerStatus: "Unregistered", ourTokenHash: null, ourTokenKind: null, lastError: partnerError, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, id))),
    auditRow(ctx, { table: "ocpi_platforms", module: "ocpi", type: "UPDATE", oldData: { id, registerStatus: "Registered" }, newData: { id, registerStatus: "Unregistered", partnerError } }),
  ]);
  return { ...present(await platformRow(ctx, id)), partnerError };
});

/** The parties behind the operator's platforms, with their roles. */
export const listParties = verb({ menu: PARTY_MENUS }, async (ctx, raw: unknown) => {
  const q = ocpiListQuery.parse(raw);
  const where = owned(
    ctx,
    ocpiParties,
    q.platformId ? eq(ocpiParties.platformId, q.platformId) : undefined,
    containingIf(ocpiParties.businessName, q.q),
    q.status ? eq(ocpiParties.role, q.status) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ party: ocpiParties, platformName: ocpiPlatforms.name })
        .from(ocpiParties)
        .innerJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, ocpiParties.platformId), eq(ocpiPlatforms.operatorId, ocpiParties.operatorId)))
        .where(where)
        .orderBy(ocpiParties.countryCode, ocpiParties.partyId, ocpiParties.id)
        .limit(limit)
        .offset(offset);
      return rows.map(({ party: p, platformName }) => ({
        id: p.id,
        platformId: p.platformId,
        platformName,
        countryCode: p.countryCode,
        partyId: p.partyId,
        role: p.role,
        businessName: p.businessName,
        website: p.website,
        status: p.status,
        lastUpdated: p.lastUpdated.toISOString(),
      }));
    },
    async () => (await ctx.db.select({ total: count() }).from(ocpiParties).where(where))[0].total,
  );
});

