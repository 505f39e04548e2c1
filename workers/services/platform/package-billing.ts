import { eq, inArray, sql } from "drizzle-orm";
import { groupBy } from "../../../db/paging";
import { packageBills, points, pricePackages } from "../../../db/schema";
import { slices } from "../../../db/statements";
import { allocateConnectors, dayCharge, utcDay } from "../../../domain/price-package";
import { acrossTenants, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { advanceStates, effectivePackages, recomputeQuota } from "./price-packages";

/** A bill row binds 12 values; 8 rows stay under D1's 100 parameters (docs/rules/lists.md). */
const BILL_ROWS = 8;

/**
 * The daily package run (docs/rules/platform.md "Daily billing"), as the platform's system
 * actor: packages move to the state their dates give (and their operators' quotas follow), then
 * every effective package bills the UTC day of the run for the enabled connectors allotted to
 * it. A bill is unique per package and day, so a second run of the same day bills nothing more.
 */
export const billPackagesForDay = verb({ actors: ["system"] }, async (ctx: SystemCtx) => {
  const changed = await advanceStates(ctx);
  for (const ids of slices(changed, 50)) await ctx.db.batch(ids.map((id) => recomputeQuota(ctx.db, id)) as never);

  const packages = await effectivePackages(ctx);
  const enabled = await ctx.db
    .select({
      operatorId: points.operatorId,
      ac: sql<number>`COALESCE(SUM(CASE WHEN ${points.type} = 'AC' THEN ${points.connectorCount} END), 0)`,
      dc: sql<number>`COALESCE(SUM(CASE WHEN ${points.type} <> 'AC' THEN ${points.connectorCount} END), 0)`,
    })
    .from(points)
    .where(
      acrossTenants(
        "the daily run counts the enabled connectors of every operator with an effective package",
        eq(points.status, "VALID"),
        inArray(points.operatorId, ctx.db.select({ id: pricePackages.operatorId }).from(pricePackages).where(acrossTenants("the operators that have an effective package, whichever they are", eq(pricePackages.status, "effective")))),
      ),
    )
    .groupBy(points.operatorId);
  const enabledOf = new Map(enabled.map((e) => [e.operatorId, { AC: Number(e.ac), DC: Number(e.dc) }]));

  const day = utcDay(ctx.now());
  let billed = 0;
  for (const [operatorId, list] of groupBy(packages, (p) => p.operatorId)) {
    const rows = allocateConnectors(list, enabledOf.get(operatorId) ?? { AC: 0, DC: 0 }).map(({ pkg, ac, dc }) => {
      const acAmount = dayCharge(pkg.acPrice, ac, pkg.currencyDecimals);
      const dcAmount = dayCharge(pkg.dcPrice, dc, pkg.currencyDecimals);
      return { packageId: pkg.id, day, acConnectors: ac, dcConnectors: dc, acAmount, dcAmount, amount: acAmount + dcAmount, currency: pkg.currency };
    });
    const tenant = { operator: { id: operatorId } };
    const results = await ctx.db.batch(
      slices(rows, BILL_ROWS).map((slice) => ctx.db.insert(packageBills).values(ownedRows(tenant, slice)).onConflictDoNothing().returning({ id: packageBills.id })) as never,
    );
    billed += (results as { id: number }[][]).reduce((n, r) => n + r.length, 0);
  }
  if (billed > 0 || changed.length > 0) {
    await auditRow(ctx, { table: "package_bills", module: "pricePackage", type: "CREATE", newData: { day, billed, packagesChanged: changed.length } });
  }
  return { day, billed, operatorsChanged: changed.length };
});
