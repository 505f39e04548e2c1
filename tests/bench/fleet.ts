import { rmSync } from "node:fs";
import { and, desc, eq, like } from "drizzle-orm";
import type { Db } from "../../db/client";
import { connectors, operators, points, stations } from "../../db/schema";
import { CONNECTOR_ROWS, batchOf, slices } from "../../db/statements";
import { hashChargerKey, keyBytesOf } from "../../workers/auth/charger-key";
import type { BenchCharger, OcppVersion } from "./protocol";

/** The bench's chargers: `BENCH-00001`… and `BENCH201-00001`…, all with this key (40 hex characters). */
export const BENCH_KEY = "62656e63682d6b65792d6f662d74686520666c65";

/**
 * One fleet per OCPP version, each its own points, so that what one version's phases leave on a
 * charger (a remote start, a transaction, a status) never meets the other's. The 1.6 fleet's
 * points take either version (AUTO, the default); the 2.0.1 fleet's admit 2.0.1 alone, so a
 * charger that ended up on 1.6 fails loudly (docs/rules/ocpp.md "Two protocols").
 */
const FLEETS: Record<OcppVersion, { prefix: string; pointNo: string; ocppVersion: "AUTO" | "OCPP201" }> = {
  "1.6": { prefix: "BENCH-", pointNo: "B", ocppVersion: "AUTO" },
  "2.0.1": { prefix: "BENCH201-", pointNo: "B201-", ocppVersion: "OCPP201" },
};

/** Point rows per insert: with the columns drizzle fills itself, under D1's 100 parameters. */
const POINT_ROWS = 5;

export interface BenchPoint extends BenchCharger {
  id: number;
}

/**
 * Registers `count` enabled two-connector AC points with the bench key under the demo operator's
 * highest-ranked enabled station, straight into the local database before the product is served:
 * through the API it would take 3 calls per charger, minutes for 5 000 (docs/performance.md).
 */
export async function seedBenchFleet(db: Db, count: number, keyHash: string, version: OcppVersion = "1.6"): Promise<BenchPoint[]> {
  const { prefix, pointNo, ocppVersion } = FLEETS[version];
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const [station] = await db
    .select()
    .from(stations)
    .where(and(eq(stations.operatorId, operator.id), eq(stations.status, "VALID")))
    .orderBy(desc(stations.rank))
    .limit(1);
  const now = new Date();
  const rows = Array.from({ length: count }, (_, i) => ({
    operatorId: operator.id,
    stationId: station.id,
    serialNumber: `${prefix}${String(i + 1).padStart(5, "0")}`,
    pointNo: `${pointNo}${i + 1}`,
    name: `Bench ${version} ${i + 1}`,
    type: "AC" as const,
    ratedPowerW: 22_000,
    connectorCount: 2,
    status: "VALID" as const,
    ocppVersion,
    keyHash,
    keySetAt: now,
  }));
  for (const group of slices(slices(rows, POINT_ROWS), 50)) {
    await batchOf(
      db,
      group.map((slice) => db.insert(points).values(slice).onConflictDoNothing()),
    );
  }
  const made = await db
    .select({ id: points.id, serial: points.serialNumber })
    .from(points)
    .where(and(eq(points.operatorId, operator.id), like(points.serialNumber, `${prefix}%`)))
    .orderBy(points.serialNumber);
  const connectorRows = made.flatMap((p) =>
    [1, 2].map((connectorNo) => ({ operatorId: operator.id, pointId: p.id, connectorNo, standard: "IEC2" as const, powerW: 11_000, chargeSpeed: "SLOW" as const })),
  );
  for (const group of slices(slices(connectorRows, CONNECTOR_ROWS), 50)) {
    await batchOf(
      db,
      group.map((slice) => db.insert(connectors).values(slice).onConflictDoNothing()),
    );
  }
  return made.slice(0, count).map((p) => ({ id: p.id, serial: p.serial, key: BENCH_KEY }));
}

/** A fresh `state` folder, migrated and seeded as `npm start` does, with `count` bench chargers of each version asked for. */
export async function prepareBenchState<V extends OcppVersion = "1.6">(state: string, count: number, versions: readonly V[] = ["1.6" as V]): Promise<Record<V, BenchPoint[]>> {
  rmSync(state, { recursive: true, force: true });
  // local-state reads the folder from the environment each time it is asked (`stateDir`).
  process.env.PLUGDESK_STATE = state;
  const { migrate, seed, withLocalDb } = await import("../../scripts/local-state");
  await migrate();
  await seed();
  return withLocalDb(async (db, { CHARGER_KEY_PEPPER }) => {
    const keyHash = hashChargerKey(keyBytesOf(BENCH_KEY)!, CHARGER_KEY_PEPPER);
    const fleets = {} as Record<V, BenchPoint[]>;
    for (const version of versions) fleets[version] = await seedBenchFleet(db, count, keyHash, version);
    return fleets;
  });
}
