import { eq, sql } from "drizzle-orm";
import { ocpiParties } from "../../../db/schema";
import { invalidParameters, ocpiTime, reasonOf, unknownObject } from "../../../domain/ocpi/wire";
import { instantOf } from "../../../domain/schemas/ocpi/common";
import { clientInfo, type ClientInfo } from "../../../domain/schemas/ocpi/hubclientinfo";
import { owned, ownedRow } from "../../../tenants/scope";
import type { PartnerCtx } from "../context";
import { verb } from "../verb";
import { registeredCaller } from "./partner";

/**
 * hubclientinfo, of which we are the receiver (docs/rules/ocpi.md "Hubs", OCPI 2.2.1 §17): a hub
 * tells us which parties are behind it and whether they are connected; they become parties of the
 * hub's platform, so pushes for them are accepted from the hub.
 */

/** Whether the calling platform is a hub (its credentials named the HUB role). */
export async function callerIsHub(ctx: PartnerCtx) {
  const [row] = await ctx.db
    .select({ id: ocpiParties.id })
    .from(ocpiParties)
    .where(owned(ctx, ocpiParties, eq(ocpiParties.platformId, ctx.actor.platformId), eq(ocpiParties.role, "HUB")))
    .limit(1);
  return Boolean(row);
}

async function hubCaller(ctx: PartnerCtx) {
  await registeredCaller(ctx);
  if (!(await callerIsHub(ctx))) throw unknownObject("hubclientinfo is for hubs only");
}

const partyWhere = (ctx: PartnerCtx, countryCode: string, partyId: string) =>
  owned(ctx, ocpiParties, eq(ocpiParties.platformId, ctx.actor.platformId), eq(ocpiParties.countryCode, countryCode), eq(ocpiParties.partyId, partyId));

export const getClientInfo = verb({ actors: ["partner"] }, async (ctx, countryCode: string, partyId: string): Promise<ClientInfo> => {
  await hubCaller(ctx);
  const [row] = await ctx.db.select().from(ocpiParties).where(partyWhere(ctx, countryCode, partyId)).limit(1);
  if (!row) throw unknownObject("Unknown party");
  return clientInfo.parse({ party_id: row.partyId, country_code: row.countryCode, role: row.role, status: row.status, last_updated: ocpiTime(row.lastUpdated.getTime()) });
});

/** PUT: the party and its status; an older `last_updated` does not replace a newer one. */
export const putClientInfo = verb({ actors: ["partner"], mutates: true }, async (ctx, countryCode: string, partyId: string, raw: unknown) => {
  await hubCaller(ctx);
  const parsed = clientInfo.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  const info = parsed.data;
  if (info.country_code !== countryCode || info.party_id !== partyId) throw invalidParameters("country_code and party_id must be those of the URL");
  const values = { status: info.status, lastUpdated: new Date(instantOf(info.last_updated)) };
  const rows = await ctx.db
    .insert(ocpiParties)
    .values(ownedRow(ctx, { platformId: ctx.actor.platformId, countryCode, partyId, role: info.role, ...values }))
    .onConflictDoUpdate({
      target: [ocpiParties.operatorId, ocpiParties.platformId, ocpiParties.countryCode, ocpiParties.partyId, ocpiParties.role],
      set: values,
      setWhere: sql`excluded.last_updated >= ${ocpiParties.lastUpdated}`,
    })
    .returning({ id: ocpiParties.id });
  return { applied: rows.length > 0 };
});
