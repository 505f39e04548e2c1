import { desc, eq, gte, isNull, lt, or, sql } from "drizzle-orm";
import { chargeRecords, ocpiCpoSessions, ocpiPlatforms, operators, points } from "../../../../db/schema";
import { CONNECTOR_ID, evseUidOf } from "../../../../domain/ocpi/cpo-evse";
import { ocpiTime } from "../../../../domain/ocpi/wire";
import { majorUnits } from "../../../../domain/pricing";
import type { OcpiCpoDelivery } from "../../../../domain/schemas/ocpi/cpo-sessions";
import { mainCurrencyOf } from "../../../../domain/schemas/settings";
import { settingsOf } from "../../../../tenants/resolve";
import { acrossTenants, owned, ownedRow } from "../../../../tenants/scope";
import type { Ctx, PartnerCtx, SystemCtx } from "../../context";
import { verb } from "../../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "../client";
import { openPartnerToken, ourIdentity, type OurIdentity } from "../identity";
import type { RoamingGrant } from "./tokens";
import { z } from "zod";

/**
 * The sessions sender of our CPO side (OCPI 2.2.1 §9; docs/rules/ocpi.md "Sessions and CDRs we
 * send"): a partner's driver's session at our charger is PUT to its eMSP when it starts and
 * PATCHed as it goes (at most once a minute) and when it ends; eMSPs may also pull them.
 */

export type CpoSessionRow = typeof ocpiCpoSessions.$inferSelect;

/** PATCHes of one session are at least this far apart (the once a minute). */
export const SESSION_PATCH_EVERY_MS = 60_000;

/** The OCPI Session (OCPI 2.2.1 §9.3.1) of a row, in our party's name. */
export function sessionObject(row: CpoSessionRow, identity: Pick<OurIdentity, "countryCode" | "partyId">, decimals: number) {
  return {
    country_code: identity.countryCode,
    party_id: identity.partyId,
    id: String(row.id),
    start_date_time: ocpiTime(row.startAt.getTime()),
    ...(row.endAt && { end_date_time: ocpiTime(row.endAt.getTime()) }),
    kwh: row.energyWh / 1000,
    cdr_token: { country_code: row.tokenCountryCode, party_id: row.tokenPartyId, uid: row.tokenUid, type: row.tokenType, contract_id: row.contractId },
    auth_method: row.authMethod,
    ...(row.authorizationReference && { authorization_reference: row.authorizationReference }),
    location_id: row.locationId,
    evse_uid: row.evseUid,
    connector_id: row.connectorId,
    currency: row.currency,
    ...(row.costIncl !== null && { total_cost: { excl_vat: majorUnits(row.costExcl ?? row.costIncl, decimals), incl_vat: majorUnits(row.costIncl, decimals) } }),
    status: row.status,
    last_updated: ocpiTime(row.lastUpdated.getTime()),
  };
}

/** Queues one delivery to an eMSP on the push queue (docs/rules/ocpi.md "Sessions and CDRs we send"). */
export async function queueCpoDelivery(ctx: Ctx, object: OcpiCpoDelivery["object"], id: number) {
  const message: OcpiCpoDelivery = { kind: "ocpiCpoDelivery", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, object, id };
  await ctx.env.PUSH.send(message);
}

export interface StartedFacts {
  transactionId: number;
  pointId: number;
  connectorNo: number;
  startAt: Date;
}

/**
 * A partner's driver started at our charger: the START_SESSION's pending session takes the
 * transaction (or a new ACTIVE one is made for a driver let in by its token), the charge record
 * is marked with the partner that owes it, in one batch; then the session goes to the eMSP.
 */
export async function roamingSessionStarted(ctx: SystemCtx, grant: RoamingGrant, started: StartedFacts) {
  const now = new Date(ctx.now());
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const [point] = await ctx.db.select({ stationId: points.stationId }).from(points).where(owned(ctx, points, eq(points.id, started.pointId))).limit(1);
  const mark = ctx.db
    .update(chargeRecords)
    .set({ roamingPlatformId: grant.platformId, updatedAt: now })
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, started.transactionId)));
  const place = {
    pointId: started.pointId,
    connectorNo: started.connectorNo,
    locationId: String(point?.stationId ?? 0),
    evseUid: evseUidOf(started.pointId, started.connectorNo),
    connectorId: CONNECTOR_ID,
  };
  const session =
    grant.sessionId !== null
      ? ctx.db
          .update(ocpiCpoSessions)
          .set({ ...place, transactionId: started.transactionId, status: "ACTIVE", startAt: started.startAt, lastUpdated: now })
          .where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.id, grant.sessionId), eq(ocpiCpoSessions.status, "PENDING")))
          .returning({ id: ocpiCpoSessions.id })
      : ctx.db
          .insert(ocpiCpoSessions)
          .values(
            ownedRow(ctx, {
              platformId: grant.platformId,
              tokenCountryCode: grant.countryCode,
              tokenPartyId: grant.partyId,
              tokenUid: grant.uid,
              tokenType: grant.type,
              contractId: grant.contractId,
              authMethod: grant.authMethod,
              authorizationReference: grant.authorizationReference,
              ...place,
              transactionId: started.transactionId,
              status: "ACTIVE" as const,
              currency: settings.currencyCode,
              startAt: started.startAt,
              lastUpdated: now,
              createdAt: now,
            }),
          )
          .onConflictDoNothing()
          .returning({ id: ocpiCpoSessions.id });
  const [, made] = await ctx.db.batch([mark, session]);
  const [row] = made as { id: number }[];
  if (row) await queueCpoDelivery(ctx, "session", row.id);
}

async function platformOf(ctx: SystemCtx, platformId: number) {
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, platformId))).limit(1);
  return platform;
}

/** The eMSP's receiver of a module, with the token to call it, or why there is none. */
export async function receiverOf(ctx: SystemCtx, platformId: number, identifier: "sessions" | "cdrs") {
  const platform = await platformOf(ctx, platformId);
  const endpoint = platform?.endpoints?.find((e) => e.identifier === identifier && e.role === "RECEIVER");
  if (!platform || platform.registerStatus !== "Registered" || !platform.partnerToken) return { error: "The partner is not registered" } as const;
  if (!endpoint) return { error: `The partner has no ${identifier} receiver` } as const;
  return { url: endpoint.url.replace(/\/$/, ""), token: await openPartnerToken(ctx, platform.partnerToken), platform } as const;
}

const anything = z.unknown();

/**
 * One session to its eMSP (OCPI 2.2.1 §9.2.2): PUT until the eMSP has taken it once, then PATCH
 * of what changes (energy, cost, status, end). The push state records the outcome; answers
 * false when the queue should try again.
 */
export const deliverCpoSession = verb({ actors: ["system"] }, async (ctx, sessionId: number, send: OcpiFetch = workerFetch) => {
  const [row] = await ctx.db.select().from(ocpiCpoSessions).where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.id, sessionId))).limit(1);
  if (!row || row.status === "PENDING") return true;
  const receiver = await receiverOf(ctx, row.platformId, "sessions");
  const [identity, settings] = await Promise.all([ourIdentity(ctx), settingsOf(ctx.db, ctx.operator.id)]);
  const record = (state: "ACCEPTED" | "RETRYING", error: string | null) =>
    ctx.db
      .update(ocpiCpoSessions)
      .set({
        pushState: state,
        pushError: error,
        pushAttempts: state === "ACCEPTED" ? 0 : sql`${ocpiCpoSessions.pushAttempts} + 1`,
        ...(state === "ACCEPTED" && { pushedAt: new Date(ctx.now()) }),
      })
      .where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.id, row.id), eq(ocpiCpoSessions.lastUpdated, row.lastUpdated)));
  if ("error" in receiver) {
    await record("RETRYING", receiver.error ?? null);
    return false;
  }
  const object = sessionObject(row, identity, mainCurrencyOf(settings.parameters).decimals);
  const url = `${receiver.url}/${identity.countryCode}/${identity.partyId}/${row.id}`;
  const first = row.pushedAt === null;
  const body = first
    ? object
    : {
        kwh: object.kwh,
        status: object.status,
        ...(object.total_cost && { total_cost: object.total_cost }),
        ...(object.end_date_time && { end_date_time: object.end_date_time }),
        last_updated: object.last_updated,
      };
  try {
    await callPartner(send, url, receiver.token, anything, { method: first ? "PUT" : "PATCH", body, from: identity, to: { countryCode: row.tokenCountryCode, partyId: row.tokenPartyId } });
  } catch (error) {
    if (!(error instanceof PartnerFailure)) throw error;
    await record("RETRYING", error.reason.slice(0, 500));
    return false;
  }
  await record("ACCEPTED", null);
  return true;
});

/**
 * A running session's energy and cost as they grow (the cost priced as billing would price a stop
 * now: `workers/services/pricing/running-cost.ts`): written on the row (its `last_updated` moves)
 * and PATCHed when the last push is a minute old or more and either moved; the final price comes
 * with COMPLETED.
 */
export async function roamingSessionProgress(ctx: SystemCtx, transactionId: number, progress: { energyWh: number; costIncl?: number; costExcl?: number }) {
  const now = ctx.now();
  const costs = progress.costIncl === undefined ? {} : { costIncl: progress.costIncl, costExcl: progress.costExcl ?? progress.costIncl };
  const [row] = await ctx.db
    .update(ocpiCpoSessions)
    .set({ energyWh: progress.energyWh, ...costs, lastUpdated: new Date(now) })
    .where(
      owned(
        ctx,
        ocpiCpoSessions,
        eq(ocpiCpoSessions.transactionId, transactionId),
        eq(ocpiCpoSessions.status, "ACTIVE"),
        or(isNull(ocpiCpoSessions.pushedAt), lt(ocpiCpoSessions.pushedAt, new Date(now - SESSION_PATCH_EVERY_MS))),
        progress.costIncl === undefined
          ? sql`${ocpiCpoSessions.energyWh} <> ${progress.energyWh}`
          : sql`(${ocpiCpoSessions.energyWh} <> ${progress.energyWh} OR ${ocpiCpoSessions.costIncl} IS NOT ${progress.costIncl})`,
      ),
    )
    .returning({ id: ocpiCpoSessions.id });
  if (row) await queueCpoDelivery(ctx, "session", row.id);
  return Boolean(row);
}

/** The running roaming sessions whose last push is a minute old, across operators (the cron's look). */
export const dueSessionUpdates = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .select({ id: ocpiCpoSessions.id, transactionId: ocpiCpoSessions.transactionId, operatorId: ocpiCpoSessions.operatorId, operatorCode: operators.code })
    .from(ocpiCpoSessions)
    .innerJoin(operators, eq(operators.id, ocpiCpoSessions.operatorId))
    .where(
      acrossTenants(
        "the cron finds every operator's running roaming sessions due for a PATCH; each is updated as its own operator",
        eq(ocpiCpoSessions.status, "ACTIVE"),
        lt(ocpiCpoSessions.pushedAt, new Date(ctx.now() - SESSION_PATCH_EVERY_MS)),
      ),
    )
    .limit(500),
);

/** Sessions whose push was refused and not taken since, across operators (the cron sends them again). */
export const dueSessionRetries = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .select({ id: ocpiCpoSessions.id, operatorId: ocpiCpoSessions.operatorId, operatorCode: operators.code })
    .from(ocpiCpoSessions)
    .innerJoin(operators, eq(operators.id, ocpiCpoSessions.operatorId))
    .where(
      acrossTenants(
        "the cron finds every operator's roaming sessions whose push was refused; each is delivered as its own operator",
        eq(ocpiCpoSessions.pushState, "RETRYING"),
        lt(ocpiCpoSessions.lastUpdated, new Date(ctx.now() - SESSION_PATCH_EVERY_MS)),
      ),
    )
    .limit(500),
);

// GET for eMSPs that pull (OCPI 2.2.1 §9.2.1) -----------------------------------------------

/** The page limit of our senders' lists. */
export const CPO_PAGE_LIMIT = 100;

const whole = z.string().regex(/^\d{1,9}$/).transform(Number);
export const senderQuery = z.object({
  offset: whole.default(0),
  limit: whole.refine((n) => n >= 1, "limit must be at least 1").optional(),
  date_from: z.string().optional(),
  date_to: z.string().optional(),
});

/** The period of a pull by `last_updated`, `date_from` inclusive and `date_to` exclusive (OCPI 2.2.1 §9.2.1.1). */
export function periodOf(query: { date_from?: string; date_to?: string }) {
  const from = query.date_from ? Date.parse(query.date_from.endsWith("Z") ? query.date_from : `${query.date_from}Z`) : undefined;
  const to = query.date_to ? Date.parse(query.date_to.endsWith("Z") ? query.date_to : `${query.date_to}Z`) : undefined;
  return { from: Number.isNaN(from) ? undefined : from, to: Number.isNaN(to) ? undefined : to };
}

/** `GET /ocpi/2.2.1/cpo/sessions`: the caller's drivers' sessions at our chargers, a page at a time. */
export const listCpoSessions = verb({ actors: ["partner"] }, async (ctx: PartnerCtx, raw: Record<string, string>) => {
  const query = senderQuery.parse(raw);
  const limit = Math.min(query.limit ?? CPO_PAGE_LIMIT, CPO_PAGE_LIMIT);
  const { from, to } = periodOf(query);
  const where = owned(
    ctx,
    ocpiCpoSessions,
    eq(ocpiCpoSessions.platformId, ctx.actor.platformId),
    sql`${ocpiCpoSessions.status} <> 'PENDING'`,
    ...(from === undefined ? [] : [gte(ocpiCpoSessions.lastUpdated, new Date(from))]),
    ...(to === undefined ? [] : [lt(ocpiCpoSessions.lastUpdated, new Date(to))]),
  );
  const [identity, settings] = await Promise.all([ourIdentity(ctx), settingsOf(ctx.db, ctx.operator.id)]);
  const [rows, [{ total }]] = await ctx.db.batch([
    ctx.db.select().from(ocpiCpoSessions).where(where).orderBy(desc(ocpiCpoSessions.startAt), desc(ocpiCpoSessions.id)).limit(limit).offset(query.offset),
    ctx.db.select({ total: sql<number>`count(*)` }).from(ocpiCpoSessions).where(where),
  ]);
  const decimals = mainCurrencyOf(settings.parameters).decimals;
  return { items: rows.map((row) => sessionObject(row, identity, decimals)), total, offset: query.offset, limit };
});
