import { and, count, desc, eq, gte, lte, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { containing } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { ocpiCdrs, ocpiLocations, ocpiPlatforms, ocpiSessions, ocpiTariffs } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { ocpiListQuery, WALL_CLOCK, type OcpiListQuery } from "../../../domain/schemas/ocpi/console";
import { localBound, zonedToUtc } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * What partners sent, for the console and `/ocpi-service` (docs/rules/ocpi.md "Console"): paged on
 * the server, by platform, text, status and time, each record with the OCPI object's own id, its
 * platform and party, and the object itself for the detail.
 */

type Pushed = typeof ocpiLocations | typeof ocpiSessions | typeof ocpiCdrs | typeof ocpiTariffs;

/** The filters every list shares, on the table's own time column. */
function shared(q: OcpiListQuery, table: Pushed, time: SQLiteColumn, text: SQLiteColumn[], status?: SQLiteColumn): (SQL | undefined)[] {
  return [
    q.platformId ? eq(table.platformId, q.platformId) : undefined,
    q.q ? or(...text.map((c) => containing(c, q.q!))) : undefined,
    q.status && status ? eq(status, q.status) : undefined,
    q.from ? gte(time, new Date(q.from)) : undefined,
    q.to ? lte(time, new Date(q.to)) : undefined,
  ];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filter's times: a wall-clock time or a day as the console's date-range picker sends it is
 * the operator's, a day as `to` included to its end (docs/rules/lists.md "Filters and sorting");
 * an instant with an offset is taken as it is.
 */
export async function inOperatorZone(ctx: UserCtx, raw: unknown) {
  if (typeof raw !== "object" || raw === null) return raw;
  const query = { ...(raw as Record<string, unknown>) };
  const zone = (await settingsOf(ctx.db, ctx.operator.id)).parameters.timeZone;
  for (const key of ["from", "to"]) {
    const value = query[key];
    if (typeof value !== "string") continue;
    const at = WALL_CLOCK.test(value) ? zonedToUtc(value, zone) : DAY.test(value) ? localBound(value, zone, key as "from" | "to") : undefined;
    if (at !== undefined) query[key] = new Date(at).toISOString();
  }
  return query;
}

async function listOf<T extends Pushed, R>(ctx: UserCtx, raw: unknown, table: T, time: SQLiteColumn, text: SQLiteColumn[], present: (row: T["$inferSelect"], platform: string) => R, status?: SQLiteColumn) {
  const q = ocpiListQuery.parse(await inOperatorZone(ctx, raw));
  const where = owned(ctx, table, ...shared(q, table, time, text, status));
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ row: table as Pushed, platform: ocpiPlatforms.name })
        .from(table as typeof ocpiLocations)
        .innerJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, table.platformId), eq(ocpiPlatforms.operatorId, table.operatorId)))
        .where(where)
        .orderBy(desc(time), desc(table.id))
        .limit(limit)
        .offset(offset);
      return rows.map((r) => present(r.row as T["$inferSelect"], r.platform));
    },
    async () => (await ctx.db.select({ total: count() }).from(table as typeof ocpiLocations).where(where))[0].total,
  );
}

const common = (r: { id: number; platformId: number; countryCode: string; partyId: string; lastUpdated: Date; receivedAt: Date }, platformName: string) => ({
  id: r.id,
  platformId: r.platformId,
  platformName,
  countryCode: r.countryCode,
  partyId: r.partyId,
  lastUpdated: r.lastUpdated.toISOString(),
  receivedAt: r.receivedAt.toISOString(),
});

export const listLocations = verb({ menu: "emsp.location" }, (ctx, raw: unknown) =>
  listOf(ctx, raw, ocpiLocations, ocpiLocations.lastUpdated, [ocpiLocations.locationId, ocpiLocations.name, ocpiLocations.city], (r, p) => ({
    ...common(r, p),
    locationId: r.locationId,
    name: r.name,
    city: r.city,
    data: r.data,
  })),
);

export const listSessions = verb({ menu: "emsp.session" }, (ctx, raw: unknown) =>
  listOf(
    ctx,
    raw,
    ocpiSessions,
    ocpiSessions.startAt,
    [ocpiSessions.sessionId, ocpiSessions.tokenUid, ocpiSessions.locationId],
    (r, p) => ({
      ...common(r, p),
      sessionId: r.sessionId,
      uid: r.tokenUid,
      status: r.status,
      locationId: r.locationId,
      startTime: r.startAt.toISOString(),
      stopTime: r.endAt?.toISOString() ?? null,
      kwh: r.kwh,
      totalCost: r.totalCost,
      currency: r.currency,
      cdrId: r.cdrId,
    }),
    ocpiSessions.status,
  ),
);

/** CDRs, filtered by what billing made of them (`status`: docs/rules/ocpi.md "CDRs billed to the wallet"). */
export const listCdrs = verb({ menu: "emsp.cdr" }, (ctx, raw: unknown) =>
  listOf(
    ctx,
    raw,
    ocpiCdrs,
    ocpiCdrs.startAt,
    [ocpiCdrs.cdrId, ocpiCdrs.tokenUid, ocpiCdrs.sessionId, ocpiCdrs.locationId],
    (r, p) => ({
      ...common(r, p),
      cdrId: r.cdrId,
      sessionId: r.sessionId,
      uid: r.tokenUid,
      locationId: r.locationId,
      startTime: r.startAt.toISOString(),
      stopTime: r.endAt.toISOString(),
      kwh: r.kwh,
      totalCost: r.totalCost,
      currency: r.currency,
      billingStatus: r.billingStatus,
      /** Why billing held it for review (docs/rules/ocpi.md "What a CDR may bill"), null when never held. */
      holdReason: r.holdReason,
      chargeRecordId: r.chargeRecordId,
    }),
    ocpiCdrs.billingStatus,
  ),
);

export const listTariffs = verb({ menu: "emsp.tariff" }, (ctx, raw: unknown) =>
  listOf(
    ctx,
    raw,
    ocpiTariffs,
    ocpiTariffs.lastUpdated,
    [ocpiTariffs.tariffId],
    (r, p) => ({ ...common(r, p), tariffId: r.tariffId, currency: r.currency, type: r.type, data: r.data }),
    ocpiTariffs.type,
  ),
);

/** One location with its EVSEs and connectors, for the detail. */
export const getLocationRecord = verb({ menu: "emsp.location" }, async (ctx, id: number) => {
  const [row] = await ctx.db.select().from(ocpiLocations).where(owned(ctx, ocpiLocations, eq(ocpiLocations.id, id))).limit(1);
  if (!row) throw new NotFound("ocpi.errors.notFound");
  return { ...common(row, ""), locationId: row.locationId, name: row.name, city: row.city, data: row.data };
});
