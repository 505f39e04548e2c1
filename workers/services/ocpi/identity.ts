import { eq } from "drizzle-orm";
import { ocpiParties, ocpiPlatforms } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import type { OperatorRole, PartnerRole } from "../../../domain/ocpi/roles";
import type { Credentials } from "../../../domain/schemas/ocpi/credentials";
import { endpoint, OUR_VERSION, versionDetails, versionList, type Endpoint } from "../../../domain/schemas/ocpi/versions";
import { operatorById, settingsOf } from "../../../tenants/resolve";
import { owned, ownedRows } from "../../../tenants/scope";
import { seal, sealContext, unseal } from "../../auth/sealed";
import type { Ctx, PartnerCtx } from "../context";
import { callPartner, PartnerFailure, type OcpiFetch } from "./client";

/**
 * Who we are on the wire and what we know of a partner (docs/rules/ocpi.md "Tokens and
 * registration"): our country code and party id from the parameter settings, our versions URL,
 * the partner's negotiated endpoints and parties.
 */

/** The path of the one versions URL every operator shares; the token says whose it is. */
export const VERSIONS_PATH = "/ocpi/versions";
export const VERSION_PATH = `/ocpi/${OUR_VERSION}`;

export interface OurIdentity {
  countryCode: string;
  partyId: string;
  name: string;
  /** The roles the operator takes (docs/rules/ocpi.md "CPO role"). */
  roles: OperatorRole[];
}

export async function ourIdentity(ctx: Ctx | PartnerCtx): Promise<OurIdentity> {
  const [settings, operator] = await Promise.all([settingsOf(ctx.db, ctx.operator.id), operatorById(ctx.db, ctx.operator.id)]);
  const { countryCode, partyId, roles } = settings.parameters.ocpi;
  // Without them there is no role to offer a partner (OCPI 2.2.1 §7.3.1 CredentialsRole).
  if (!countryCode || !partyId) throw new Conflict("ocpi.errors.identityMissing");
  return { countryCode, partyId, name: operator?.name ?? ctx.operator.code, roles };
}

export function ourOrigin(ctx: Ctx | PartnerCtx): string {
  const origin = ctx.request.origin;
  if (!origin) throw new Conflict("ocpi.errors.noOrigin");
  return origin;
}

/**
 * Our credentials for a partner: the token it will use with us, our versions URL, and each role
 * the operator takes, with the same country code and party id (OCPI 2.2.1 §7.3.1), eMSP first.
 */
export function ourCredentials(ctx: Ctx | PartnerCtx, identity: OurIdentity, token: string): Credentials {
  const roles = (["EMSP", "CPO"] as const).filter((role) => identity.roles.includes(role));
  return {
    token,
    url: `${ourOrigin(ctx)}${VERSIONS_PATH}`,
    roles: roles.map((role) => ({ role, business_details: { name: identity.name }, party_id: identity.partyId, country_code: identity.countryCode })),
  };
}

const PURPOSE = "ocpiPartnerToken";
export const sealPartnerToken = (ctx: Ctx | PartnerCtx, token: string) => seal(ctx.env, sealContext(ctx.operator.id, PURPOSE), token);
export const openPartnerToken = (ctx: Ctx | PartnerCtx, sealed: string) => unseal(ctx.env, sealContext(ctx.operator.id, PURPOSE), sealed);

/**
 * Version negotiation (OCPI 2.2.1 §6): the partner's versions, 2.2.1 among them, and that
 * version's endpoints. A partner without 2.2.1 is refused with 3002.
 */
export async function negotiate(send: OcpiFetch, versionsUrl: string, token: string) {
  const versions = (await callPartner(send, versionsUrl, token, versionList)).data;
  const ours = versions.find((v) => v.version === OUR_VERSION);
  if (!ours) throw new PartnerFailure(`${versionsUrl}: no version ${OUR_VERSION} offered (${versions.map((v) => v.version).join(", ") || "none"})`, 3002);
  const details = (await callPartner(send, ours.url, token, versionDetails)).data;
  // Modules of later versions or private ones are skipped, not refused.
  const endpoints = details.endpoints.flatMap((e) => {
    const known = endpoint.safeParse(e);
    return known.success ? [known.data] : [];
  });
  return { version: OUR_VERSION, endpoints };
}

/** The URL of one of a partner's modules in one role, if it offers it. */
export function endpointOf(endpoints: readonly { identifier: string; role: string; url: string }[] | null, identifier: string, role: "SENDER" | "RECEIVER") {
  return endpoints?.find((e) => e.identifier === identifier && e.role === role)?.url ?? (identifier === "credentials" ? endpoints?.find((e) => e.identifier === identifier)?.url : undefined);
}

/** What a completed handshake stores: the platform's new state and its parties, one batch. */
export function registeredStatements(
  ctx: Ctx | PartnerCtx,
  platformId: number,
  state: { partnerToken: string; ourTokenHash: string; version: string; endpoints: Endpoint[]; roles: Credentials["roles"]; role?: PartnerRole },
) {
  // The party of the role the platform was entered with names the partner (docs/rules/ocpi.md "CPO role").
  const main = state.roles.find((r) => r.role === state.role) ?? state.roles.find((r) => r.role === "CPO") ?? state.roles.find((r) => r.role === "HUB") ?? state.roles[0];
  const now = new Date(ctx.now());
  return [
    ctx.db
      .update(ocpiPlatforms)
      .set({
        partnerToken: state.partnerToken,
        ourTokenHash: state.ourTokenHash,
        ourTokenKind: "B",
        registerStatus: "Registered",
        version: state.version,
        ...(state.role ? { role: state.role } : {}),
        partnerCountryCode: main.country_code,
        partnerPartyId: main.party_id,
        endpoints: state.endpoints,
        lastError: null,
        registeredAt: now,
        updatedAt: now,
      })
      .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, platformId))),
    ctx.db.delete(ocpiParties).where(owned(ctx, ocpiParties, eq(ocpiParties.platformId, platformId))),
    ctx.db.insert(ocpiParties).values(
      ownedRows(
        ctx,
        state.roles.map((r) => ({
          platformId,
          countryCode: r.country_code,
          partyId: r.party_id,
          role: r.role,
          businessName: r.business_details.name,
          website: r.business_details.website ?? null,
          lastUpdated: now,
        })),
      ),
    ),
  ] as const;
}
