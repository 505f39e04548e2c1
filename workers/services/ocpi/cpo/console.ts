import { and, count, desc, eq, gte, lt, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { containing } from "../../../../db/like";
import { pageOf, type PageRequest } from "../../../../db/paging";
import { ocpiCpoCdrs, ocpiCpoCommands, ocpiCpoSessions, ocpiCpoTokens, ocpiPlatforms } from "../../../../db/schema";
import { cpoCommandListQuery, cpoListQuery, settlementQuery } from "../../../../domain/schemas/ocpi/cpo-sessions";
import { dayKey, localDate, zonedToUtc } from "../../../../domain/time";
import { settingsOf } from "../../../../tenants/resolve";
import { owned, type TenantFilter } from "../../../../tenants/scope";
import type { UserCtx } from "../../context";
import { verb } from "../../verb";

/**
 * Partners' drivers at our chargers, for the console and `/ocpi-service/cpo/…` (docs/rules/ocpi.md
 * "Partners' drivers at our chargers"): the roaming sessions and CDRs with their push state, the
 * tokens partners pushed, each paged on the server; and the monthly settlement per partner.
 */

export const SESSION_MENU = "cpo.session";
export const CDR_MENU = "cpo.cdr";
export const TOKEN_MENU = "cpo.token";

type PartnerTable = typeof ocpiCpoSessions | typeof ocpiCpoCdrs | typeof ocpiCpoTokens | typeof ocpiCpoCommands;

const platformJoin = (table: PartnerTable) => and(eq(ocpiPlatforms.id, table.platformId), eq(ocpiPlatforms.operatorId, table.operatorId));

/**
 * One page of a table of partners' rows, newest first by `newest` (then by id), each presented
 * with the name of the partner it came from, and the total (docs/rules/lists.md). The filter is
 * the tenancy scope's, so a list cannot forget the operator.
 */
function pageWithPartner<T extends PartnerTable, R>(
  ctx: UserCtx,
  q: PageRequest,
  t: T,
  where: TenantFilter,
  newest: AnySQLiteColumn,
  present: (row: T["$inferSelect"], platformName: string) => R,
) {
  const table: PartnerTable = t;
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ row: table, platformName: ocpiPlatforms.name })
        .from(table)
        .innerJoin(ocpiPlatforms, platformJoin(table))
        .where(where)
        .orderBy(desc(newest), desc(table.id))
        .limit(limit)
        .offset(offset);
      return rows.map(({ row, platformName }) => present(row as T["$inferSelect"], platformName));
    },
    async () => (await ctx.db.select({ total: count() }).from(table).where(where))[0].total,
  );
}

export const listCpoSessionsForConsole = verb({ menu: SESSION_MENU }, async (ctx, raw: unknown) => {
  const q = cpoListQuery.parse(raw);
  const t = ocpiCpoSessions;
  const where = owned(
    ctx,
    t,
    q.platformId ? eq(t.platformId, q.platformId) : undefined,
    q.pushState ? eq(t.pushState, q.pushState) : undefined,
    q.text ? or(containing(t.tokenUid, q.text), containing(t.contractId, q.text), containing(t.locationId, q.text), containing(t.evseUid, q.text)) : undefined,
  );
  return pageWithPartner(ctx, q, t, where, t.startAt, (s, platformName) => ({
    id: s.id,
    platformId: s.platformId,
    platformName,
    tokenUid: s.tokenUid,
    contractId: s.contractId,
    party: `${s.tokenCountryCode}*${s.tokenPartyId}`,
    authMethod: s.authMethod,
    locationId: s.locationId,
    evseUid: s.evseUid,
    pointId: s.pointId,
    connectorNo: s.connectorNo,
    transactionId: s.transactionId,
    status: s.status,
    energyWh: s.energyWh,
    currency: s.currency,
    costExcl: s.costExcl,
    costIncl: s.costIncl,
    startAt: s.startAt.toISOString(),
    endAt: s.endAt?.toISOString() ?? null,
    pushState: s.pushState,
    pushError: s.pushError,
    pushAttempts: s.pushAttempts,
    pushedAt: s.pushedAt?.toISOString() ?? null,
  }));
});

/**
 * The commands partners sent us (docs/rules/ocpi.md "Commands we take"), newest first: what they
 * asked, our CommandResponse, and the charger's CommandResult with its delivery to the eMSP. A
 * screen of the session area: the commands start, stop and reserve its sessions.
 */
export const listCpoCommandsForConsole = verb({ menu: SESSION_MENU }, async (ctx, raw: unknown) => {
  const q = cpoCommandListQuery.parse(raw);
  const t = ocpiCpoCommands;
  const where = owned(ctx, t, q.platformId ? eq(t.platformId, q.platformId) : undefined, q.command ? eq(t.command, q.command) : undefined);
  return pageWithPartner(ctx, q, t, where, t.createdAt, (c, platformName) => {
    const request = c.request as { location_id?: unknown; evse_uid?: unknown; session_id?: unknown; reservation_id?: unknown; token?: { uid?: unknown } };
    const text = (x: unknown) => (typeof x === "string" ? x : null);
    return {
      id: c.id,
      platformId: c.platformId,
      platformName,
      command: c.command,
      tokenUid: text(request.token?.uid),
      locationId: text(request.location_id),
      evseUid: text(request.evse_uid),
      sessionId: text(request.session_id),
      reservationId: text(request.reservation_id),
      response: c.response,
      result: c.result,
      resultError: c.resultError,
      resultAt: c.resultAt?.toISOString() ?? null,
      createdAt: c.createdAt.toISOString(),
    };
  });
});

export const listCpoCdrsForConsole = verb({ menu: CDR_MENU }, async (ctx, raw: unknown) => {
  const q = cpoListQuery.parse(raw);
  const t = ocpiCpoCdrs;
  const where = owned(
    ctx,
    t,
    q.platformId ? eq(t.platformId, q.platformId) : undefined,
    q.pushState ? eq(t.pushState, q.pushState) : undefined,
    q.text ? containing(t.cdrId, q.text) : undefined,
  );
  return pageWithPartner(ctx, q, t, where, t.startAt, (c, platformName) => ({
    id: c.id,
    cdrId: c.cdrId,
    platformId: c.platformId,
    platformName,
    sessionId: c.sessionId,
    currency: c.currency,
    totalExcl: c.totalExcl,
    totalIncl: c.totalIncl,
    energyWh: c.energyWh,
    startAt: c.startAt.toISOString(),
    pushState: c.pushState,
    pushError: c.pushError,
    pushAttempts: c.pushAttempts,
    nextAttemptAt: c.nextAttemptAt?.toISOString() ?? null,
    acceptedAt: c.acceptedAt?.toISOString() ?? null,
    cdr: c.data,
  }));
});

export const listCpoTokensForConsole = verb({ menu: TOKEN_MENU }, async (ctx, raw: unknown) => {
  const q = cpoListQuery.parse(raw);
  const t = ocpiCpoTokens;
  const where = owned(
    ctx,
    t,
    q.platformId ? eq(t.platformId, q.platformId) : undefined,
    q.text ? or(containing(t.uid, q.text), containing(t.contractId, q.text)) : undefined,
  );
  return pageWithPartner(ctx, q, t, where, t.receivedAt, (k, platformName) => ({
    id: k.id,
    platformId: k.platformId,
    platformName,
    countryCode: k.countryCode,
    partyId: k.partyId,
    uid: k.uid,
    type: k.type,
    contractId: k.contractId,
    whitelist: k.whitelist,
    valid: k.valid,
    lastUpdated: k.lastUpdated.toISOString(),
    receivedAt: k.receivedAt.toISOString(),
  }));
});

/** The first instant of `yyyy-MM` and of the month after, in the operator's zone. */
function monthBounds(month: string, zone: string) {
  const [y, m] = month.split("-").map(Number);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
  return { from: zonedToUtc(`${month}-01T00:00`, zone)!, to: zonedToUtc(`${next}-01T00:00`, zone)! };
}

/**
 * The monthly roaming settlement (docs/rules/billing.md "Roaming at our chargers"): per partner and
 * currency, the sessions whose CDR was made, their energy and what the partner owes (the CDRs'
 * totals with VAT, in minor units), by the sessions' start in the operator's zone. Without a month,
 * the current one in that zone: on the 1st at 00:30 in Warsaw it is already the new month.
 */
export const roamingSettlement = verb({ menu: CDR_MENU }, async (ctx, raw: unknown) => {
  const query = settlementQuery.parse(raw);
  const zone = (await settingsOf(ctx.db, ctx.operator.id)).parameters.timeZone;
  const month = query.month ?? dayKey(localDate(Date.now(), zone)).slice(0, 7);
  const { from, to } = monthBounds(month, zone);
  const t = ocpiCpoCdrs;
  const rows = await ctx.db
    .select({
      platformId: t.platformId,
      platformName: ocpiPlatforms.name,
      currency: t.currency,
      sessions: count(),
      energyWh: sql<number>`sum(${t.energyWh})`,
      owedExcl: sql<number>`sum(${t.totalExcl})`,
      owed: sql<number>`sum(${t.totalIncl})`,
      accepted: sql<number>`sum(case when ${t.pushState} = 'ACCEPTED' then 1 else 0 end)`,
    })
    .from(t)
    .innerJoin(ocpiPlatforms, platformJoin(t))
    .where(owned(ctx, t, gte(t.startAt, new Date(from)), lt(t.startAt, new Date(to))))
    .groupBy(t.platformId, ocpiPlatforms.name, t.currency)
    .orderBy(ocpiPlatforms.name, t.currency);
  return { month, timeZone: zone, from: new Date(from).toISOString(), to: new Date(to).toISOString(), partners: rows };
});
