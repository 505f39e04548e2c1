import { count, desc, eq, like } from "drizzle-orm";
import { stations } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { stationListQuery } from "../../../domain/schemas/equipment";
import { owned } from "../../../tenants/scoped";
import type { Ctx } from "../context";

/** Equipment › Locations (SPEC.md §3 station); the full screens come with the equipment work. */
export const STATION_MENUS = ["equipment.station", "equipment.point", "equipment.remoteControl", "monitoring.loadMonitoring"];

type StationRow = typeof stations.$inferSelect;

export const presentStation = (s: StationRow) => ({
  id: s.id,
  name: s.name,
  address: s.address,
  lat: s.lat,
  lng: s.lng,
  rank: s.rank,
  status: s.status,
  powerLimit: s.powerLimitW === null ? null : s.powerLimitW / 1000,
  servicePhone: s.servicePhone,
  businessHours: s.businessHours,
});

/** Stations, highest rank first (SPEC.md §9). */
export async function listStations(ctx: Ctx, raw: unknown) {
  const q = stationListQuery.parse(raw);
  const where = owned(
    ctx,
    stations,
    q.name ? like(stations.name, `%${q.name.replace(/[%_]/g, "")}%`) : undefined,
    q.status ? eq(stations.status, q.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(stations).where(where).orderBy(desc(stations.rank), desc(stations.id)).limit(q.size).offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(stations).where(where),
  ]);
  return { records: rows.map(presentStation), total, current: q.current, size: q.size };
}

export async function findStation(ctx: Ctx, id: number) {
  const [row] = await ctx.db.select().from(stations).where(owned(ctx, stations, eq(stations.id, id))).limit(1);
  if (!row) throw new NotFound("errors.stationNotFound");
  return row;
}
