import { asc, count, desc, eq, exists, inArray, notExists, sql, sum } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { points, stations, subOperatorDevices } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { quotaKind, type PointType } from "../../../domain/schemas/equipment";
import { stationFilesPrefix, stationInput, stationListQuery, stationStatusInput, type StationInput } from "../../../domain/schemas/stations";
import { owned, ownedRow, visibleStations } from "../../../tenants/scope";
import { chargerObject, registrationChanged } from "../points/charger-object";
import { auditRow } from "../audit";
import { creatingMaintainer, ownDeviceRows } from "../maintenance/maintainers";
import { quotaOf } from "../points/quota";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { coordinatesOfAddress } from "./geocode";
import { locationsChanged } from "../ocpi/cpo-push";

/**
 * Equipment › Locations (docs/rules/equipment.md "Stations"). Reading is open to the screens that
 * pick a station.
 */
export const STATION_MENUS = ["equipment.station", "equipment.point", "equipment.remoteControl", "monitoring.loadMonitoring"];
/** Changing stations is the Locations screen's own permission. */
const WRITE_MENU = "equipment.station";

type StationRow = typeof stations.$inferSelect;

/**
 * AC and DC connectors: a point of type AC counts as AC, DC and MIXED count as DC
 * (docs/rules/equipment.md "Authorised connectors").
 */
export interface ConnectorTally {
  ac: number;
  dc: number;
}

const fileUrl = (key: string) => `/user-service/file/show?key=${encodeURIComponent(key)}`;

export const presentStation = (s: StationRow, tally?: { points: number; connectors: ConnectorTally }) => ({
  id: s.id,
  name: s.name,
  address: s.address,
  lat: s.lat,
  lng: s.lng,
  rank: s.rank,
  status: s.status,
  parkingFee: s.parkingFee,
  /** Minor units of the operator's currency. */
  parkingFeeAmount: s.parkingFeeAmount,
  servicePhone: s.servicePhone,
  maintainer: s.maintainer,
  price: s.price,
  businessHours: s.businessHours,
  description: s.description,
  logoKey: s.logoKey,
  logoUrl: s.logoKey ? fileUrl(s.logoKey) : null,
  mapIconKey: s.mapIconKey,
  mapIconUrl: s.mapIconKey ? fileUrl(s.mapIconKey) : null,
  /** kW. */
  powerLimit: s.powerLimitW === null ? null : s.powerLimitW / 1000,
  timeZone: s.timeZone,
  /** Published to roaming partners (docs/rules/ocpi.md "Locations we publish"). */
  publishToRoaming: s.publishToRoaming,
  pointCount: tally?.points ?? 0,
  connectors: tally?.connectors ?? { ac: 0, dc: 0 },
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});
export type Station = ReturnType<typeof presentStation>;

const kindOf = (type: PointType): keyof ConnectorTally => (quotaKind(type) === "AC" ? "ac" : "dc");

/** Points and connectors per station, for the stations of one page (connectors as workers/services/points/quota.ts counts them). */
async function tallies(ctx: UserCtx, stationIds: number[]) {
  const out = new Map<number, { points: number; connectors: ConnectorTally }>();
  if (!stationIds.length) return out;
  const rows = await rowsFor(stationIds, (slice) =>
    ctx.db
      .select({ stationId: points.stationId, type: points.type, points: count(), connectors: sum(points.connectorCount).mapWith(Number) })
      .from(points)
      .where(owned(ctx, points, inArray(points.stationId, slice)))
      .groupBy(points.stationId, points.type),
  );
  for (const id of stationIds) out.set(id, { points: 0, connectors: { ac: 0, dc: 0 } });
  for (const row of rows) {
    const tally = out.get(row.stationId)!;
    tally.points += row.points;
    tally.connectors[kindOf(row.type)] += row.connectors;
  }
  return out;
}

/**
 * Stations, highest rank first, filtered and paged on the server
 * (docs/rules/lists.md "Filters and sorting").
 */
export const listStations = verb({ menu: STATION_MENUS }, async (ctx, raw: unknown) => {
  const q = stationListQuery.parse(raw);
  // A maintainer's list is their own stations (docs/rules/maintenance.md "Maintainers").
  const where = visibleStations(
    ctx,
    containingIf(stations.name, q.name),
    containingIf(stations.address, q.address),
    q.status ? eq(stations.status, q.status) : undefined,
    q.parkingFee ? eq(stations.parkingFee, q.parkingFee === "true") : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) => ctx.db.select().from(stations).where(where).orderBy(desc(stations.rank), desc(stations.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(stations).where(where))[0].total,
  );
  const counts = await tallies(
    ctx,
    page.records.map((s) => s.id),
  );
  return { ...page, records: page.records.map((s) => presentStation(s, counts.get(s.id))) };
});

/** Id, name, status and coordinates of every station, for selects and the coordinate picker. */
export const stationOptions = verb({ menu: STATION_MENUS }, async (ctx) => {
  return ctx.db
    .select({ id: stations.id, name: stations.name, status: stations.status, lat: stations.lat, lng: stations.lng })
    .from(stations)
    .where(visibleStations(ctx))
    .orderBy(desc(stations.rank), asc(stations.name))
    .limit(1000);
});

/** One of the operator's stations; another operator's is 404. */
export async function findStation(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select()
    .from(stations)
    .where(visibleStations(ctx, eq(stations.id, id)))
    .limit(1);
  if (!row) throw new NotFound("errors.stationNotFound");
  return row;
}

export const stationDetail = verb({ menu: STATION_MENUS }, async (ctx, id: number) => {
  const station = await findStation(ctx, id);
  return presentStation(station, (await tallies(ctx, [id])).get(id));
});

/**
 * The operator's authorised AC and DC connectors (its price package) with those its points use,
 * have enabled and may still add, as the point rules count them (docs/rules/equipment.md
 * "Authorised connectors").
 */
export const stationConnectorQuota = verb({ menu: STATION_MENUS }, async (ctx) => {
  const quota = await quotaOf(ctx);
  return { ac: quota.AC, dc: quota.DC };
});

/** A logo or map icon must be one this operator uploaded (POST /user-service/file/upload?kind=logo|mapIcon). */
async function checkUpload(ctx: UserCtx, key: string | undefined, field: "logoKey" | "mapIconKey") {
  if (key === undefined) return;
  const message = field === "logoKey" ? "stations.validation.logo" : "stations.validation.mapIcon";
  const fail = () => new Invalid(message, {}, { [field]: message });
  if (!key.startsWith(stationFilesPrefix(ctx.operator.id))) throw fail();
  if (!(await ctx.env.FILES.head(key))) throw fail();
}

const checkImages = (ctx: UserCtx, input: StationInput) => Promise.all([checkUpload(ctx, input.logoKey, "logoKey"), checkUpload(ctx, input.mapIconKey, "mapIconKey")]);

/**
 * Coordinates as given, else kept while the address is unchanged, else geocoded
 * (docs/rules/equipment.md "Station coordinates").
 */
async function coordinatesFor(ctx: UserCtx, input: StationInput, before?: StationRow) {
  if (input.lat !== undefined && input.lng !== undefined) return { lat: input.lat, lng: input.lng };
  if (before && before.address === input.address && before.lat !== null && before.lng !== null) return { lat: before.lat, lng: before.lng };
  return coordinatesOfAddress(ctx, input.address);
}

function rowValues(input: StationInput, coordinates: { lat: string | null; lng: string | null }) {
  return {
    name: input.name,
    address: input.address,
    lat: coordinates.lat,
    lng: coordinates.lng,
    parkingFee: input.parkingFee,
    parkingFeeAmount: input.parkingFee ? (input.parkingFeeAmount ?? null) : null,
    servicePhone: input.servicePhone,
    maintainer: input.maintainer,
    rank: input.rank,
    price: input.price ?? null,
    businessHours: input.businessHours,
    description: input.description,
    logoKey: input.logoKey ?? null,
    mapIconKey: input.mapIconKey ?? null,
    powerLimitW: input.powerLimit === undefined ? null : Math.round(input.powerLimit * 1000),
    timeZone: input.timeZone ?? null,
  };
}

/**
 * A new station starts disabled; it is enabled once it has a charging point
 * (docs/rules/equipment.md "Stations").
 */
export const createStation = verb({ menu: WRITE_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = stationInput.parse(raw);
  // Maintenance staff whose role holds this screen answer for the stations they create (docs/rules/maintenance.md "Maintainers").
  const maintainerId = await creatingMaintainer(ctx);
  await checkImages(ctx, input);
  const values = rowValues(input, await coordinatesFor(ctx, input));
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(stations)
      .values(ownedRow(ctx, { ...values, status: "INVALID" as const, createdAt: now, updatedAt: now }))
      .returning(),
    // Right after the station's insert, so that `last_insert_rowid()` is the new station.
    ...(await ownDeviceRows(ctx, maintainerId, [{ stationId: sql<number>`last_insert_rowid()` }])),
    auditRow(ctx, { table: "stations", module: "station", type: "CREATE", newData: values }),
  ]);
  return presentStation(created);
});

/**
 * What defines an enabled station as equipment: where it is (address and coordinates), the time
 * zone its prices are read in and the power limit load management works to. Enabled items cannot be
 * edited (docs/rules/equipment.md "Enabled equipment is locked"): these need the station disabled
 * first; contact details, business hours, price text, parking fee, description, logo, name and rank
 * stay editable.
 */
export const LOCKED_WHEN_ENABLED = ["address", "lat", "lng", "timeZone", "powerLimit"] as const;

function lockedChanges(before: StationRow, after: ReturnType<typeof rowValues>) {
  const sameDegrees = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Number(a) === Number(b));
  const changed = {
    address: before.address !== after.address,
    lat: !sameDegrees(before.lat, after.lat),
    lng: !sameDegrees(before.lng, after.lng),
    timeZone: (before.timeZone ?? null) !== after.timeZone,
    powerLimit: before.powerLimitW !== after.powerLimitW,
  };
  return LOCKED_WHEN_ENABLED.filter((field) => changed[field]);
}

export const updateStation = verb({ menu: WRITE_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findStation(ctx, id);
  const input = stationInput.parse(raw);
  await checkImages(ctx, input);
  if (before.status === "VALID" && before.address !== input.address) {
    throw new Conflict("stations.errors.enabledLocked", {}, { locked: ["address"] });
  }
  const values = rowValues(input, await coordinatesFor(ctx, input, before));
  if (before.status === "VALID") {
    const locked = lockedChanges(before, values);
    if (locked.length) throw new Conflict("stations.errors.enabledLocked", {}, { locked });
  }
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(stations)
      .set({ ...values, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, stations, eq(stations.id, id)))
      .returning(),
    auditRow(ctx, { table: "stations", module: "station", type: "UPDATE", oldData: presentStation(before), newData: values }),
  ]);
  // A published station's edit reaches roaming partners at once (docs/rules/ocpi.md "Pushes of what we publish").
  await locationsChanged(ctx, [id]);
  return presentStation(updated, (await tallies(ctx, [id])).get(id));
});

/**
 * A station with charging points cannot be deleted, nor an enabled one. The condition is part
 * of the delete itself, so a point added meanwhile cannot be orphaned
 * (docs/decisions/0002-d1-without-interactive-transactions.md).
 */
export const deleteStation = verb({ menu: WRITE_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findStation(ctx, id);
  if (before.status === "VALID") throw new Conflict("stations.errors.deleteEnabled");
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(points)
    .where(owned(ctx, points, eq(points.stationId, id)));
  if (n > 0) throw new Conflict("stations.errors.hasPoints", { count: n });
  const noPoints = notExists(ctx.db.select({ id: points.id }).from(points).where(owned(ctx, points, eq(points.stationId, id))));
  const [, deleted] = await ctx.db.batch([
    ctx.db.delete(subOperatorDevices).where(owned(ctx, subOperatorDevices, eq(subOperatorDevices.stationId, id), noPoints)),
    ctx.db
      .delete(stations)
      .where(owned(ctx, stations, eq(stations.id, id), eq(stations.status, "INVALID"), noPoints))
      .returning({ id: stations.id }),
    auditRow(ctx, { table: "stations", module: "station", type: "DELETE", oldData: presentStation(before) }),
  ]);
  if (!deleted.length) throw new Conflict("stations.errors.hasPoints", { count: 1 });
  return null;
});

/**
 * Enable or disable a station (docs/rules/equipment.md "Stations"). Enabling needs at least one
 * charging point ('The Location has no charging Station') and leaves the points as they are.
 * Disabling disables every point of the station in the same batch, then tells each connected
 * charger ChangeAvailability Inoperative, as disabling one point does
 * (workers/services/points/point-admin.ts).
 */
export const setStationStatus = verb({ menu: WRITE_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { status } = stationStatusInput.parse(raw);
  const before = await findStation(ctx, id);
  const now = new Date(ctx.now());
  const audit = auditRow(ctx, { table: "stations", module: "station", type: "UPDATE", oldData: { id, status: before.status }, newData: { id, status } });

  if (status === "VALID") {
    const [{ n }] = await ctx.db
      .select({ n: count() })
      .from(points)
      .where(owned(ctx, points, eq(points.stationId, id)));
    if (n === 0) throw new Conflict("stations.errors.noPoints");
    // The condition rides on the update too, so a point deleted meanwhile cannot leave an enabled, empty station.
    const hasPoints = exists(ctx.db.select({ id: points.id }).from(points).where(owned(ctx, points, eq(points.stationId, id))));
    const [enabled] = await ctx.db.batch([
      ctx.db
        .update(stations)
        .set({ status, updatedAt: now })
        .where(owned(ctx, stations, eq(stations.id, id), hasPoints))
        .returning({ id: stations.id }),
      audit,
    ]);
    if (!enabled.length) throw new Conflict("stations.errors.noPoints");
    await locationsChanged(ctx, [id]);
    return { id, status, points: [] };
  }

  const list = await ctx.db
    .select({ id: points.id, serialNumber: points.serialNumber, status: points.status })
    .from(points)
    .where(owned(ctx, points, eq(points.stationId, id)))
    .orderBy(asc(points.serialNumber));
  const enabledPoints = list.filter((p) => p.status === "VALID");
  await ctx.db.batch([
    ctx.db
      .update(stations)
      .set({ status, updatedAt: now })
      .where(owned(ctx, stations, eq(stations.id, id))),
    ctx.db
      .update(points)
      .set({ status: "INVALID", updatedAt: now })
      .where(owned(ctx, points, eq(points.stationId, id), eq(points.status, "VALID"))),
    audit,
    ...enabledPoints.map((p) =>
      auditRow(ctx, {
        table: "points",
        module: "point",
        type: "UPDATE",
        oldData: { id: p.id, status: "VALID" },
        newData: { id: p.id, status: "INVALID", station: id },
      }),
    ),
  ]);
  await locationsChanged(ctx, [id]);
  const told = await Promise.all(
    list.map(async (p) => {
      const point = { operatorId: ctx.operator.id, serialNumber: p.serialNumber };
      await registrationChanged(ctx.env, point);
      const stub = chargerObject(ctx.env, point);
      const outcome = await stub.send("ChangeAvailability", { connectorId: 0, type: "Inoperative" });
      return { id: p.id, serialNumber: p.serialNumber, availability: outcome.ok ? (outcome.response as { status: string }).status : outcome.reason };
    }),
  );
  return { id, status, points: told };
});
