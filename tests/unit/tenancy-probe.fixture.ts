// A service as it must never be written: read by tests/unit/tenancy.test.ts to prove the
// structural tenancy check fails on a forgotten tenant filter. Never imported.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { points, stations } from "../../db/schema";

export async function leaky(db: Db, id: number) {
  await db.select().from(points).where(eq(points.id, id));
  await db.select().from(stations);
  await db.insert(stations).values({ operatorId: 1, name: "x" });
}
