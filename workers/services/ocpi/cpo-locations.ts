import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { connectors, points, stations } from "../../../db/schema";
import { containingIf } from "../../../db/like";
import { groupBy, pageOf, rowsFor } from "../../../db/paging";
import { Conflict, NotFound } from "../../../domain/errors";
import { alpha3Of } from "../../../domain/ocpi/countries";
import { CONNECTOR_ID, pointOfEvseUid } from "../../../domain/ocpi/cpo-evse";
import { locationOfStation, type ConnectorFacts, type Publisher, type StationFacts } from "../../../domain/ocpi/location-of-station";
import { invalidParameters, reasonOf, unknownLocation } from "../../../domain/ocpi/wire";
import { instantOf } from "../../../domain/schemas/ocpi/common";
import { cpoListQuery, publishInput, senderQuery } from "../../../domain/schemas/ocpi/cpo";
import type { OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { ourIdentity } from "./identity";
import { publishingChanged, pushStatesOf, tariffsChanged } from "./cpo-push";

/**
 * The locations we publish as a CPO (docs/rules/ocpi.md "Locations we publish", OCPI 2.2.1 §8):
 * each station the operator marks `publishToRoaming`, with an EVSE per connector of its public
 * points, read by eMSPs page by page or one object at a time, and pushed to them on change.
 */

/** Our page limit on the sender (OCPI 2.2.1 §4.1.3: the server's limit wins). */
export const LOCATION_PAGE_LIMIT = 100;

export const LOCATION_MENU = "cpo.location";

/** Who publishes: our party, the country of our stations and the operator's zone. */
export async function publisherOf(ctx: Ctx): Promise<Publisher> {
  const [identity, settings] = await Promise.all([ourIdentity(ctx), settingsOf(ctx.db, ctx.operator.id)]);
  const country = alpha3Of(identity.countryCode);
  if (!country) throw new Conflict("ocpi.cpo.errors.unknownCountry", { countryCode: identity.countryCode });
  return { countryCode: identity.countryCode, partyId: identity.partyId, country, timeZone: settings.parameters.timeZone };
}

/**
 * When a published station last changed as partners see it: the station, its public points
 * (their edits and going on or off line) and their connectors' states.
 */
// tenancy: correlated to the outer station's own operator (p.operator_id = stations.operator_id), which every query using it scopes with owned()
const changedAt = sql<number>`max(${stations.updatedAt}, coalesce((
  select max(max(p.updated_at, coalesce(p.online_changed_at, 0), c.created_at, coalesce(c.status_at, 0)))
  from ${points} p join ${connectors} c on c.point_id = p.id and c.operator_id = p.operator_id
  where p.station_id = ${stations.id} and p.operator_id = ${stations.operatorId} and p.private_type = 'Public'
), 0))`;

const stationFacts = (s: typeof stations.$inferSelect): StationFacts => ({
  id: s.id,
  name: s.name,
  address: s.address,
  lat: s.lat,
  lng: s.lng,
  timeZone: s.timeZone,
  businessHours: s.businessHours,
  updatedAt: s.updatedAt.getTime(),
});

/** The EVSEs of some stations: each connector of their public points. */
async function connectorsOf(ctx: Ctx, stationIds: readonly number[]) {
  const rows = await rowsFor(stationIds, (slice) =>
    ctx.db
      .select({ point: points, connector: connectors })
      .from(connectors)
      .innerJoin(points, and(eq(points.id, connectors.pointId), eq(points.operatorId, connectors.operatorId)))
      .where(owned(ctx, connectors, inArray(points.stationId, slice), eq(points.privateType, "Public")))
      .orderBy(asc(points.id), asc(connectors.connectorNo)),
  );
  return groupBy(
    rows.map(({ point, connector }) => ({
      stationId: point.stationId,
      facts: {
        pointId: point.id,
        connectorNo: connector.connectorNo,
        standard: connector.standard,
        powerW: connector.powerW,
        status: connector.status,
        statusAt: connector.statusAt?.getTime() ?? null,
        createdAt: connector.createdAt.getTime(),
        pointUpdatedAt: Math.max(point.updatedAt.getTime(), point.onlineChangedAt?.getTime() ?? 0),
        pointEnabled: point.status === "VALID",
        pointOnline: point.online,
        tariffId: point.chargeStrategyId ? String(point.chargeStrategyId) : null,
      } satisfies ConnectorFacts,
    })),
    (r) => r.stationId,
  );
}

async function locationsOf(ctx: Ctx, publisher: Publisher, rows: (typeof stations.$inferSelect)[]): Promise<OcpiLocation[]> {
  const evses = await connectorsOf(ctx, rows.map((s) => s.id));
  return rows.map((s) => locationOfStation(publisher, stationFacts(s), (evses.get(s.id) ?? []).map((e) => e.facts)));
}

const publishedWhere = (ctx: Ctx, ...conditions: (SQL | undefined)[]) => owned(ctx, stations, eq(stations.publishToRoaming, true), ...conditions);

/** One published location as partners see it, or null when the station is not published (or gone). */
export async function publishedLocation(ctx: Ctx, stationId: number): Promise<OcpiLocation | null> {
  const [row] = await ctx.db.select().from(stations).where(publishedWhere(ctx, eq(stations.id, stationId))).limit(1);
  if (!row) return null;
  return (await locationsOf(ctx, await publisherOf(ctx), [row]))[0];
}

/**
 * A station withdrawn from roaming as partners are last told of it: `publish: false` and every
 * EVSE REMOVED (OCPI 2.2.1 §8.3.2: a location is never deleted). Null when the station is gone
 * or published.
 */
export async function withdrawnLocation(ctx: Ctx, stationId: number): Promise<OcpiLocation | null> {
  const [row] = await ctx.db.select().from(stations).where(owned(ctx, stations, eq(stations.id, stationId), eq(stations.publishToRoaming, false))).limit(1);
  if (!row) return null;
  const [location] = await locationsOf(ctx, await publisherOf(ctx), [row]);
  return { ...location, publish: false, evses: location.evses?.map((e) => ({ ...e, status: "REMOVED" as const })) };
}

/**
 * GET /ocpi/2.2.1/cpo/locations (OCPI 2.2.1 §8.2.1.1): our published locations, by station id,
 * `date_from` inclusive and `date_to` exclusive on their `last_updated`.
 */
export const listPublishedLocationsForPartner = verb({ actors: ["partner"] }, async (ctx, raw: unknown) => {
  const parsed = senderQuery.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  const q = parsed.data;
  const limit = Math.min(q.limit ?? LOCATION_PAGE_LIMIT, LOCATION_PAGE_LIMIT);
  const where = publishedWhere(
    ctx,
    q.date_from ? gte(changedAt, instantOf(q.date_from)) : undefined,
    q.date_to ? lt(changedAt, instantOf(q.date_to)) : undefined,
  );
  const publisher = await publisherOf(ctx);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(stations).where(where).orderBy(asc(stations.id)).limit(limit).offset(q.offset),
    ctx.db.select({ total: count() }).from(stations).where(where),
  ]);
  return { items: await locationsOf(ctx, publisher, rows), total, offset: q.offset, limit };
});

/**
 * GET /ocpi/2.2.1/cpo/locations/{location_id}[/{evse_uid}[/{connector_id}]] (OCPI 2.2.1 §8.2.1.2):
 * one object; a station not published, another operator's, or an EVSE or connector it does not
 * have is 2003 unknown location.
 */
export const getPublishedObject = verb({ actors: ["partner"] }, async (ctx, path: { id: string; evseUid?: string; connectorId?: string }) => {
  const stationId = /^[1-9][0-9]{0,14}$/.test(path.id) ? Number(path.id) : null;
  const location = stationId === null ? null : await publishedLocation(ctx, stationId);
  if (!location) throw unknownLocation();
  if (path.evseUid === undefined) return location;
  const evse = pointOfEvseUid(path.evseUid) ? location.evses?.find((e) => e.uid === path.evseUid) : undefined;
  if (!evse) throw unknownLocation("Unknown EVSE");
  if (path.connectorId === undefined) return evse;
  const connector = path.connectorId === CONNECTOR_ID ? evse.connectors[0] : undefined;
  if (!connector) throw unknownLocation("Unknown connector");
  return connector;
});

/**
 * GET /ocpi-service/cpo/location: what we publish, as partners see it, paged on the server, by
 * name; each with the state of its delivery to each partner.
 */
export const listPublishedLocations = verb({ menu: LOCATION_MENU }, async (ctx, raw: unknown) => {
  const q = cpoListQuery.parse(raw);
  const publisher = await publisherOf(ctx);
  const where = publishedWhere(ctx, containingIf(stations.name, q.q));
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db.select().from(stations).where(where).orderBy(asc(stations.id)).limit(limit).offset(offset);
      const [locations, pushes] = await Promise.all([locationsOf(ctx, publisher, rows), pushStatesOf(ctx, "locations", rows.map((r) => String(r.id)))]);
      return locations.map((location) => ({ stationId: Number(location.id), name: location.name ?? "", location, pushes: pushes.get(location.id) ?? [] }));
    },
    async () => (await ctx.db.select({ total: count() }).from(stations).where(where))[0].total,
  );
});

/**
 * PUT /ocpi-service/cpo/location/{stationId} `{ publish }`: whether partners see the station. A
 * published station goes to every eMSP at once; one withdrawn is sent once more with
 * `publish: false` and its EVSEs REMOVED (OCPI 2.2.1 has no DELETE of a location, §8.2.2).
 */
export const setStationPublished = verb({ menu: [LOCATION_MENU, "equipment.station"], mutates: true }, async (ctx, stationId: number, raw: unknown) => {
  const input = publishInput.parse(raw);
  const [before] = await ctx.db.select().from(stations).where(owned(ctx, stations, eq(stations.id, stationId))).limit(1);
  if (!before) throw new NotFound("errors.stationNotFound");
  if (before.publishToRoaming !== input.publish) {
    await ctx.db.batch([
      ctx.db
        .update(stations)
        .set({ publishToRoaming: input.publish, updatedAt: new Date(ctx.now()) })
        .where(owned(ctx, stations, eq(stations.id, stationId))),
      auditRow(ctx, { table: "stations", module: "ocpi", type: "UPDATE", oldData: { id: stationId, publishToRoaming: before.publishToRoaming }, newData: { id: stationId, publishToRoaming: input.publish } }),
    ]);
    await publishingChanged(ctx, stationId);
    // The strategies its points charge by are published (or withdrawn) with it.
    const strategies = await ctx.db
      .selectDistinct({ id: points.chargeStrategyId })
      .from(points)
      .where(owned(ctx, points, eq(points.stationId, stationId)));
    await tariffsChanged(ctx, strategies.flatMap((s) => (s.id ? [s.id] : [])));
  }
  return { stationId, publish: input.publish };
});

/** Whether the operator roams as a CPO (`ocpi.roles`): the screens of what we publish say so when it does not. */
export const roamsAsCpo = verb({ menu: [LOCATION_MENU, "cpo.tariff"] }, async (ctx) => (await settingsOf(ctx.db, ctx.operator.id)).parameters.ocpi.roles.includes("CPO"));
