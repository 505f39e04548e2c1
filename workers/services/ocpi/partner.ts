import { and, eq, inArray } from "drizzle-orm";
import { ocpiParties, ocpiPlatforms } from "../../../db/schema";
import { methodNotAllowed, OcpiError, unauthorized } from "../../../domain/ocpi/wire";
import { credentials as credentialsSchema } from "../../../domain/schemas/ocpi/credentials";
import { inService } from "../../../domain/operator-validity";
import { roleFromCredentials } from "../../../domain/ocpi/roles";
import { operatorById } from "../../../tenants/resolve";
import { acrossTenants, owned } from "../../../tenants/scope";
import { generateToken, tokenId } from "../../auth/tokens";
import { auditRow } from "../audit";
import type { PartnerCtx, PublicCtx } from "../context";
import { verb } from "../verb";
import { clientApiError, PartnerFailure, workerFetch, type OcpiFetch } from "./client";
import { negotiate, ourCredentials, ourIdentity, registeredStatements, sealPartnerToken } from "./identity";
import { pullPartiesAfterRegistration } from "./pull-queue";

/**
 * A partner calling us (docs/rules/ocpi.md "Tokens and registration"): its token names its
 * platform, the platform its operator; then the credentials module of OCPI 2.2.1 §7 in the
 * direction where the partner starts.
 */

/**
 * The partner context of a request from the tokens its Authorization header may stand for.
 * Crosses tenants on purpose: the token is unique across operators and is the only thing that
 * names the operator (docs/rules/tenancy.md "Crossing tenants").
 */
export const partnerOf = verb({ actors: ["public"] }, async (ctx: PublicCtx, tokens: string[]): Promise<PartnerCtx> => {
  if (tokens.length === 0) throw unauthorized("Authorization: Token … is required");
  const hashes = tokens.map(tokenId);
  const [platform] = await ctx.db
    .select()
    .from(ocpiPlatforms)
    .where(acrossTenants("a partner's token names its platform, the platform its operator: the lookup that finds the tenant", inArray(ocpiPlatforms.ourTokenHash, hashes)))
    .limit(1);
  if (!platform || !platform.ourTokenKind) throw unauthorized();
  const operator = await operatorById(ctx.db, platform.operatorId);
  // An operator out of service has no roaming either (docs/rules/platform.md "Validity"), nor one
  // that has not joined OCPI: its partners are answered as an unknown party (docs/rules/platform.md "Roaming").
  if (!operator || operator.status !== "VALID" || !inService(operator, ctx.now()) || !operator.joinOcpi) throw unauthorized();
  return {
    ...ctx,
    operator: { id: operator.id, code: operator.code, sub: operator.sub, parentId: operator.parentId },
    actor: { kind: "partner", name: `ocpi ${platform.name}`.slice(0, 100), platformId: platform.id, tokenKind: platform.ourTokenKind },
  };
});

/** The platform row of the calling partner. */
export async function callerPlatform(ctx: PartnerCtx) {
  const [row] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, ctx.actor.platformId))).limit(1);
  if (!row) throw unauthorized();
  return row;
}

/** Every module but versions and credentials wants a registered partner: a token A is 401 (OCPI 2.2.1 §7.1). */
export async function registeredCaller(ctx: PartnerCtx) {
  const row = await callerPlatform(ctx);
  if (ctx.actor.tokenKind !== "B" || row.registerStatus !== "Registered") throw unauthorized("Register first: this token admits only the credentials module");
  return row;
}

/** Whether `countryCode*partyId` is one of the calling platform's parties (its roles, or behind its hub). */
export async function isCallerParty(ctx: PartnerCtx, countryCode: string, partyId: string) {
  const [row] = await ctx.db
    .select({ id: ocpiParties.id })
    .from(ocpiParties)
    .where(owned(ctx, ocpiParties, eq(ocpiParties.platformId, ctx.actor.platformId), eq(ocpiParties.countryCode, countryCode), eq(ocpiParties.partyId, partyId)))
    .limit(1);
  return Boolean(row);
}

const partner = { actors: ["partner"] as const };

/** GET: our credentials, with the token the partner is using (OCPI 2.2.1 §7.2.1). */
export const getOurCredentials = verb(partner, async (ctx, currentToken: string) => {
  await callerPlatform(ctx);
  return ourCredentials(ctx, await ourIdentity(ctx), currentToken);
});

/**
 * POST (a token A we issued) or PUT (a registered partner's update): we read its versions with the
 * token it gave us, keep 2.2.1's endpoints and its roles, and answer our credentials with a new
 * token for it; the token it called with stops working (OCPI 2.2.1 §7.2.2, §7.2.3).
 */
export const acceptCredentials = verb(partner, async (ctx, method: "POST" | "PUT", raw: unknown, send: OcpiFetch = workerFetch) => {
  const platform = await callerPlatform(ctx);
  const registered = platform.registerStatus === "Registered" && ctx.actor.tokenKind === "B";
  // POST on a registered connection and PUT on an unregistered one are 405 (OCPI 2.2.1 §7.2.2, §7.2.3).
  if (method === "POST" && registered) throw methodNotAllowed("Already registered: use PUT to update");
  if (method === "PUT" && !registered) throw methodNotAllowed("Not registered: use POST to register");
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) throw new OcpiError(400, 2001, `Invalid credentials: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  const theirs = parsed.data;
  // A partner of any role registers with us, but as the role its platform was entered with (docs/rules/ocpi.md "CPO role").
  const role = roleFromCredentials(platform.role, theirs.roles);
  if (!role) throw new OcpiError(400, 2001, `Invalid credentials: roles name no ${platform.role}, the role this connection was issued for`);
  const identity = await ourIdentity(ctx);
  let negotiated: Awaited<ReturnType<typeof negotiate>>;
  try {
    negotiated = await negotiate(send, theirs.url, theirs.token);
  } catch (error) {
    if (error instanceof PartnerFailure) throw clientApiError(error);
    throw error;
  }
  const ourToken = generateToken();
  const state = { partnerToken: await sealPartnerToken(ctx, theirs.token), ourTokenHash: tokenId(ourToken), ...negotiated, roles: theirs.roles, role };
  await ctx.db.batch([
    ...registeredStatements(ctx, platform.id, state),
    ctx.db.update(ocpiPlatforms).set({ versionsUrl: theirs.url }).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, platform.id))),
    auditRow(ctx, {
      table: "ocpi_platforms",
      module: "ocpi",
      type: "UPDATE",
      oldData: { id: platform.id, registerStatus: platform.registerStatus },
      newData: { id: platform.id, registerStatus: "Registered", versionsUrl: theirs.url, roles: theirs.roles.map((r) => `${r.country_code}*${r.party_id} ${r.role}`) },
    }),
  ]);
  await pullPartiesAfterRegistration(ctx, platform.id);
  return ourCredentials(ctx, identity, ourToken);
});

/** DELETE: the partner unregisters; its token stops working at once (OCPI 2.2.1 §7.2.4). */
export const dropCredentials = verb(partner, async (ctx) => {
  const platform = await callerPlatform(ctx);
  if (platform.registerStatus !== "Registered" || ctx.actor.tokenKind !== "B") throw methodNotAllowed("Not registered");
  await ctx.db.batch([
    ctx.db
      .update(ocpiPlatforms)
      .set({ registerStatus: "Unregistered", ourTokenHash: null, ourTokenKind: null, partnerToken: null, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, ocpiPlatforms, and(eq(ocpiPlatforms.id, platform.id)))),
    auditRow(ctx, { table: "ocpi_platforms", module: "ocpi", type: "UPDATE", oldData: { id: platform.id, registerStatus: "Registered" }, newData: { id: platform.id, registerStatus: "Unregistered" } }),
  ]);
  return null;
});
