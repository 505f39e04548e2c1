import { count, inArray } from "drizzle-orm";
import { banners, customerGroups, customers, points, stations } from "../../db/schema";
import { IN_LIST, slices } from "../../db/statements";
import { owned } from "../../tenants/scope";
import type { UserCtx } from "./context";

/**
 * How many of `ids` are the operator's own rows, counted in slices for D1's 100 parameters
 * (docs/rules/lists.md "D1's 100 parameters"). A list naming another operator's id counts short
 * and is refused as not found (docs/rules/tenancy.md "Another tenant's id").
 */
export async function ownedCount(ctx: UserCtx, table: typeof stations | typeof points | typeof customers | typeof customerGroups | typeof banners, ids: readonly number[]) {
  let found = 0;
  for (const slice of slices([...new Set(ids)], IN_LIST)) {
    const [{ n }] = await ctx.db.select({ n: count() }).from(table).where(owned(ctx, table, inArray(table.id, slice)));
    found += n;
  }
  return found;
}
