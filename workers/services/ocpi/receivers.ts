import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { ocpiCdrs, ocpiLocations, ocpiSessions, ocpiTariffs } from "../../../db/schema";
import { invalidParameters, reasonOf, unknownLocation, unknownObject } from "../../../domain/ocpi/wire";
import { instantOf } from "../../../domain/schemas/ocpi/common";
import { cdr as cdrSchema, type OcpiCdr } from "../../../domain/schemas/ocpi/cdrs";
import { connector, connectorPatch, evse, evsePatch, location, locationPatch, type OcpiConnector, type OcpiEvse, type OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import { session as sessionSchema, sessionPatch, type OcpiSession } from "../../../domain/schemas/ocpi/sessions";
import { tariff as tariffSchema, type OcpiTariff } from "../../../domain/schemas/ocpi/tariffs";
import { owned, ownedRow, type TenantFilter } from "../../../tenants/scope";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { PartnerCtx } from "../context";
import { verb } from "../verb";
import { queueCdrBilling } from "./cdr-billing";
import { isCallerParty, registeredCaller } from "./partner";

/**
 * Our receiver interfaces as an eMSP (docs/rules/ocpi.md "Receivers", OCPI 2.2.1 §8.2.2, §9.2.2,
 * §10.2.2, §11.2.2): what a CPO pushes is validated whole (a bad object is 2001 with the reason,
 * nothing stored), stored per platform under its own identity, PATCHes merged into the stored
 * object and validated again, and an update older than what is stored never replaces it.
 */
const partner = { actors: ["partner"] as const, mutates: true };

/** The object's identity in the URL. */
export interface ObjectPath {
  countryCode: string;
  partyId: string;
  id: string;
}

function parsed<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidParameters(reasonOf(result.error.issues));
  return result.data;
}

/** The URL's party must be the caller's, and a body's identity the URL's (OCPI 2.2.1 §8.2.2.2). */
async function checkPath(ctx: PartnerCtx, path: ObjectPath, body?: { country_code?: string; party_id?: string; id?: string }) {
  await registeredCaller(ctx);
  if (!(await isCallerParty(ctx, path.countryCode, path.partyId))) throw invalidParameters(`${path.countryCode}*${path.partyId} is not a party of this connection`);
  if (body && (body.country_code !== path.countryCode || body.party_id !== path.partyId || body.id !== path.id)) {
    throw invalidParameters("country_code, party_id and id of the object must be those of the URL");
  }
}

/** Merges a PATCH into a stored object: the fields sent replace the stored ones, lists whole (OCPI 2.2.1 §3.4.2). */
const merged = <T extends object>(stored: T, patch: Record<string, unknown>) => ({ ...stored, ...patch }) as Record<string, unknown>;

const newer = (incoming: string, stored: string) => instantOf(incoming) >= instantOf(stored);

/** What an answer says when a stale update is left alone: still success, as the object is current. */
export const STALE = "Not applied: a newer version is already stored";

const identity = (ctx: PartnerCtx, path: ObjectPath) => ({ platformId: ctx.actor.platformId, countryCode: path.countryCode, partyId: path.partyId });

type Stored = typeof ocpiLocations | typeof ocpiSessions | typeof ocpiTariffs;

/** One object of the calling platform by its OCPI identity. */
const objectWhere = (ctx: PartnerCtx, table: Stored | typeof ocpiCdrs, objectId: SQLiteColumn, path: ObjectPath) =>
  owned(ctx, table, eq(table.platformId, ctx.actor.platformId), eq(table.countryCode, path.countryCode), eq(table.partyId, path.partyId), eq(objectId, path.id));

/**
 * Inserts an object or replaces the stored one unless the stored one is newer: the comparison is
 * in the statement, so two pushes racing cannot put the older one last (OCPI 2.2.1 §3.4).
 */
async function upsertNewer<T extends Stored>(ctx: PartnerCtx, table: T, objectId: SQLiteColumn, row: Record<string, unknown>, values: Record<string, unknown>) {
  const rows = await ctx.db
    .insert(table as typeof ocpiTariffs)
    .values(ownedRow(ctx, row as typeof ocpiTariffs.$inferInsert))
    .onConflictDoUpdate({
      target: [table.operatorId, table.platformId, table.countryCode, table.partyId, objectId],
      set: values,
      setWhere: sql`excluded.last_updated >= ${table.lastUpdated}`,
    })
    .returning({ id: table.id });
  return rows.length > 0;
}

/** Replaces a merged object only if nothing changed it since it was read (`last_updated` as read). */
async function replaceIfUnchanged<T extends Stored>(ctx: PartnerCtx, table: T, where: TenantFilter, values: Record<string, unknown>, expected: number) {
  const rows = await ctx.db
    .update(table as typeof ocpiTariffs)
    .set(values)
    .where(owned(ctx, table, where, eq(table.lastUpdated, new Date(expected))))
    .returning({ id: table.id });
  return rows.length > 0;
}

// Locations -----------------------------------------------------------------

const locationWhere = (ctx: PartnerCtx, path: ObjectPath) => objectWhere(ctx, ocpiLocations, ocpiLocations.locationId, path);

async function storedLocation(ctx: PartnerCtx, path: ObjectPath) {
  const [row] = await ctx.db.select().from(ocpiLocations).where(locationWhere(ctx, path)).limit(1);
  return row;
}

/** Writes a whole location; `expected` is the stored `last_updated` the change was computed from. */
function writeLocation(ctx: PartnerCtx, path: ObjectPath, value: OcpiLocation, expected?: number): Promise<boolean> {
  const values = { name: value.name ?? null, city: value.city, data: value, lastUpdated: new Date(instantOf(value.last_updated)), receivedAt: new Date(ctx.now()) };
  return expected !== undefined
    ? replaceIfUnchanged(ctx, ocpiLocations, locationWhere(ctx, path), values, expected)
    : upsertNewer(ctx, ocpiLocations, ocpiLocations.locationId, { ...identity(ctx, path), locationId: path.id, ...values }, values);
}

/** The path below a location: none, an EVSE, or a connector of an EVSE. */
export interface LocationPath extends ObjectPath {
  evseUid?: string;
  connectorId?: string;
}

function findEvse(value: OcpiLocation, uid: string) {
  const found = value.evses?.find((e) => e.uid === uid);
  if (!found) throw unknownObject(`Unknown EVSE ${uid}`);
  return found;
}

function findConnector(e: OcpiEvse, id: string) {
  const found = e.connectors.find((c) => c.id === id);
  if (!found) throw unknownObject(`Unknown connector ${id}`);
  return found;
}

export const getLocation = verb({ actors: ["partner"] }, async (ctx, path: LocationPath) => {
  await checkPath(ctx, path);
  const row = await storedLocation(ctx, path);
  if (!row) throw unknownLocation();
  const value = row.data as OcpiLocation;
  if (!path.evseUid) return value;
  const e = findEvse(value, path.evseUid);
  return path.connectorId ? findConnector(e, path.connectorId) : e;
});

/** Replaces `evse` (or one connector in it) inside a location, the location's `last_updated` following. */
function withEvse(value: OcpiLocation, next: OcpiEvse): OcpiLocation {
  const evses = value.evses ?? [];
  const at = evses.findIndex((e) => e.uid === next.uid);
  const list = at < 0 ? [...evses, next] : evses.map((e, i) => (i === at ? next : e));
  const lastUpdated = newer(next.last_updated, value.last_updated) ? next.last_updated : value.last_updated;
  return { ...value, evses: list, last_updated: lastUpdated };
}

function withConnector(e: OcpiEvse, next: OcpiConnector): OcpiEvse {
  const at = e.connectors.findIndex((c) => c.id === next.id);
  const connectors = at < 0 ? [...e.connectors, next] : e.connectors.map((c, i) => (i === at ? next : c));
  return { ...e, connectors, last_updated: newer(next.last_updated, e.last_updated) ? next.last_updated : e.last_updated };
}

/**
 * PUT a location, an EVSE of it, or a connector of an EVSE (OCPI 2.2.1 §8.2.2.2). An EVSE or
 * connector of an unknown location is 2003.
 */
export const putLocation = verb(partner, async (ctx, path: LocationPath, raw: unknown) => {
  if (!path.evseUid) {
    const value = parsed(location, raw);
    await checkPath(ctx, path, value);
    return { applied: await writeLocation(ctx, path, value) };
  }
  await checkPath(ctx, path);
  const row = await storedLocation(ctx, path);
  if (!row) throw unknownLocation();
  const stored = row.data as OcpiLocation;
  let next: OcpiLocation;
  if (!path.connectorId) {
    const value = parsed(evse, raw);
    if (value.uid !== path.evseUid) throw invalidParameters("uid of the EVSE must be the URL's");
    const before = stored.evses?.find((e) => e.uid === value.uid);
    if (before && !newer(value.last_updated, before.last_updated)) return { applied: false };
    next = withEvse(stored, value);
  } else {
    const value = parsed(connector, raw);
    if (value.id !== path.connectorId) throw invalidParameters("id of the connector must be the URL's");
    const e = findEvse(stored, path.evseUid);
    const before = e.connectors.find((c) => c.id === value.id);
    if (before && !newer(value.last_updated, before.last_updated)) return { applied: false };
    next = withEvse(stored, withConnector(e, value));
  }
  return { applied: await writeLocation(ctx, path, parsed(location, next), row.lastUpdated.getTime()) };
});

/** PATCH a location, an EVSE or a connector: merged, validated whole, stale ones left alone. */
export const patchLocation = verb(partner, async (ctx, path: LocationPath, raw: unknown) => {
  await checkPath(ctx, path);
  const patch = parsed(path.connectorId ? connectorPatch : path.evseUid ? evsePatch : locationPatch, raw) as Record<string, unknown> & { last_updated: string };
  const row = await storedLocation(ctx, path);
  if (!row) throw unknownLocation();
  const stored = row.data as OcpiLocation;
  let next: unknown;
  if (!path.evseUid) {
    if (!newer(patch.last_updated, stored.last_updated)) return { applied: false };
    next = merged(stored, patch);
  } else {
    const e = findEvse(stored, path.evseUid);
    if (!path.connectorId) {
      if (!newer(patch.last_updated, e.last_updated)) return { applied: false };
      next = withEvse(stored, parsed(evse, merged(e, patch)));
    } else {
      const c = findConnector(e, path.connectorId);
      if (!newer(patch.last_updated, c.last_updated)) return { applied: false };
      next = withEvse(stored, withConnector(e, parsed(connector, merged(c, patch))));
    }
  }
  const value = parsed(location, next);
  if (value.id !== path.id || value.country_code !== path.countryCode || value.party_id !== path.partyId) throw invalidParameters("the identity of a location cannot change");
  return { applied: await writeLocation(ctx, path, value, row.lastUpdated.getTime()) };
});

// Sessions ------------------------------------------------------------------

const sessionWhere = (ctx: PartnerCtx, path: ObjectPath) => objectWhere(ctx, ocpiSessions, ocpiSessions.sessionId, path);

async function storedSession(ctx: PartnerCtx, path: ObjectPath) {
  const [row] = await ctx.db.select().from(ocpiSessions).where(sessionWhere(ctx, path)).limit(1);
  return row;
}

const sessionColumns = (ctx: PartnerCtx, s: OcpiSession) => ({
  status: s.status,
  tokenUid: s.cdr_token.uid,
  locationId: s.location_id,
  startAt: new Date(instantOf(s.start_date_time)),
  endAt: s.end_date_time ? new Date(instantOf(s.end_date_time)) : null,
  kwh: String(s.kwh),
  currency: s.currency,
  totalCost: s.total_cost ? String(s.total_cost.incl_vat ?? s.total_cost.excl_vat) : null,
  data: s,
  lastUpdated: new Date(instantOf(s.last_updated)),
  receivedAt: new Date(ctx.now()),
});

function writeSession(ctx: PartnerCtx, path: ObjectPath, value: OcpiSession, expected?: number) {
  const values = sessionColumns(ctx, value);
  return expected !== undefined
    ? replaceIfUnchanged(ctx, ocpiSessions, sessionWhere(ctx, path), values, expected)
    : upsertNewer(ctx, ocpiSessions, ocpiSessions.sessionId, { ...identity(ctx, path), sessionId: path.id, ...values }, values);
}

export const getSession = verb({ actors: ["partner"] }, async (ctx, path: ObjectPath) => {
  await checkPath(ctx, path);
  const row = await storedSession(ctx, path);
  if (!row) throw unknownObject("Unknown session");
  return row.data as OcpiSession;
});

export const putSession = verb(partner, async (ctx, path: ObjectPath, raw: unknown) => {
  const value = parsed(sessionSchema, raw);
  await checkPath(ctx, path, value);
  return { applied: await writeSession(ctx, path, value) };
});

export const patchSession = verb(partner, async (ctx, path: ObjectPath, raw: unknown) => {
  await checkPath(ctx, path);
  const patch = parsed(sessionPatch, raw);
  const row = await storedSession(ctx, path);
  if (!row) throw unknownObject("Unknown session");
  const stored = row.data as OcpiSession;
  if (!newer(patch.last_updated!, stored.last_updated)) return { applied: false };
  const value = parsed(sessionSchema, merged(stored, patch));
  if (value.id !== path.id || value.country_code !== path.countryCode || value.party_id !== path.partyId) throw invalidParameters("the identity of a session cannot change");
  return { applied: await writeSession(ctx, path, value, row.lastUpdated.getTime()) };
});

// Tariffs -------------------------------------------------------------------

const tariffWhere = (ctx: PartnerCtx, path: ObjectPath) => objectWhere(ctx, ocpiTariffs, ocpiTariffs.tariffId, path);

export const getTariff = verb({ actors: ["partner"] }, async (ctx, path: ObjectPath) => {
  await checkPath(ctx, path);
  const [row] = await ctx.db.select().from(ocpiTariffs).where(tariffWhere(ctx, path)).limit(1);
  if (!row) throw unknownObject("Unknown tariff");
  return row.data as OcpiTariff;
});

export const putTariff = verb(partner, async (ctx, path: ObjectPath, raw: unknown) => {
  const value = parsed(tariffSchema, raw);
  await checkPath(ctx, path, value);
  const values = { currency: value.currency, type: value.type ?? null, data: value, lastUpdated: new Date(instantOf(value.last_updated)), receivedAt: new Date(ctx.now()) };
  return { applied: await upsertNewer(ctx, ocpiTariffs, ocpiTariffs.tariffId, { ...identity(ctx, path), tariffId: path.id, ...values }, values) };
});

/** A tariff the CPO no longer offers (OCPI 2.2.1 §11.2.2.3). */
export const deleteTariff = verb(partner, async (ctx, path: ObjectPath) => {
  await checkPath(ctx, path);
  const rows = await ctx.db.delete(ocpiTariffs).where(tariffWhere(ctx, path)).returning({ id: ocpiTariffs.id });
  if (rows.length === 0) throw unknownObject("Unknown tariff");
  return { applied: true };
});

// CDRs ----------------------------------------------------------------------

/** The path of the URL a CDR is found at afterwards (OCPI 2.2.1 §10.2.2.2: the `Location` header). */
export const cdrPath = (id: number) => `/ocpi/2.2.1/cdrs/${id}`;

/**
 * POST a CDR (OCPI 2.2.1 §10.2.2.2). CDRs are final: the same CDR posted again keeps the first
 * and answers its URL. The session it closes gets its CDR id. A new CDR goes to the billing queue,
 * so the answer does not wait for the wallet (docs/rules/ocpi.md "CDRs billed to the wallet").
 */
export const postCdr = verb(partner, async (ctx, raw: unknown) => {
  const value: OcpiCdr = parsed(cdrSchema, raw);
  const path = { countryCode: value.country_code, partyId: value.party_id, id: value.id };
  await checkPath(ctx, path, value);
  const [row] = await ctx.db
    .insert(ocpiCdrs)
    .values(
      ownedRow(ctx, {
        ...identity(ctx, path),
        cdrId: value.id,
        sessionId: value.session_id ?? null,
        tokenUid: value.cdr_token.uid,
        locationId: value.cdr_location.id,
        startAt: new Date(instantOf(value.start_date_time)),
        endAt: new Date(instantOf(value.end_date_time)),
        kwh: String(value.total_energy),
        currency: value.currency,
        totalCost: String(value.total_cost.incl_vat ?? value.total_cost.excl_vat),
        data: value,
        lastUpdated: new Date(instantOf(value.last_updated)),
        receivedAt: new Date(ctx.now()),
      }),
    )
    .onConflictDoNothing()
    .returning({ id: ocpiCdrs.id });
  const id =
    row?.id ??
    (
      await ctx.db
        .select({ id: ocpiCdrs.id })
        .from(ocpiCdrs)
        .where(objectWhere(ctx, ocpiCdrs, ocpiCdrs.cdrId, path))
        .limit(1)
    )[0].id;
  if (row && value.session_id) {
    await ctx.db
      .update(ocpiSessions)
      .set({ cdrId: value.id })
      .where(owned(ctx, ocpiSessions, sessionWhere(ctx, { ...path, id: value.session_id })));
  }
  if (row) await queueCdrBilling(ctx, id);
  return { id, created: Boolean(row) };
});

/** GET a CDR at the URL we answered; only the platform that sent it finds it. */
export const getCdr = verb({ actors: ["partner"] }, async (ctx, id: number) => {
  await registeredCaller(ctx);
  const [row] = await ctx.db.select().from(ocpiCdrs).where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, id), eq(ocpiCdrs.platformId, ctx.actor.platformId))).limit(1);
  if (!row) throw unknownObject("Unknown CDR");
  return row.data as OcpiCdr;
});
