import { inArray, ne } from "drizzle-orm";
import { points } from "../../../db/schema";
import { IN_LIST, slices } from "../../../db/statements";
import { acrossTenants } from "../../../tenants/scope";
import { systemCtx, type UserCtx } from "../context";
import { verb } from "../verb";

/**
 * A serial number (the chargeBoxId) is unique across the platform, since a charger's URL carries
 * it alone (docs/rules/equipment.md "Points"). Whether one is taken is a question about every
 * operator's points, and a verb a user calls never reads across tenants
 * (docs/rules/tenancy.md "Crossing tenants"): the system answers it, with the serial numbers
 * alone, naming no operator and no point.
 */
export const takenSerialNumbers = verb({ actors: ["system"] }, async (ctx, serials: readonly string[], exceptPointId?: number) => {
  const found = await Promise.all(
    slices([...new Set(serials)], IN_LIST).map((slice) =>
      ctx.db
        .select({ serialNumber: points.serialNumber })
        .from(points)
        .where(
          acrossTenants(
            "serial numbers are unique across every operator: the chargers' URLs carry them alone",
            inArray(points.serialNumber, slice),
            exceptPointId === undefined ? undefined : ne(points.id, exceptPointId),
          ),
        ),
    ),
  );
  return new Set(found.flat().map((p) => p.serialNumber));
});

/** The serial numbers of `serials` that another point has, asked from a user's verb (point creation, edit, import). */
export const serialNumbersTaken = (ctx: UserCtx, serials: readonly string[], exceptPointId?: number) =>
  takenSerialNumbers(systemCtx(ctx.env, ctx.operator, "serial-number check", ctx.now), serials, exceptPointId);
