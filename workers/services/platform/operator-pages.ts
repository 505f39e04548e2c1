import { asc, count, type SQL } from "drizzle-orm";
import { pageOf, type PageRequest } from "../../../db/paging";
import { operators } from "../../../db/schema";
import type { OperatorRow } from "../../../tenants/resolve";
import type { UserCtx } from "../context";

/**
 * A page of the operators `where` picks, by code, each presented as of now (docs/rules/lists.md):
 * the platform's operator list and a main operator's sub-operators.
 */
export function operatorPage<R>(ctx: UserCtx, request: PageRequest, where: SQL | undefined, present: (row: OperatorRow, now: number) => R) {
  return pageOf(
    request,
    async ({ limit, offset }) =>
      (await ctx.db.select().from(operators).where(where).orderBy(asc(operators.code), asc(operators.id)).limit(limit).offset(offset)).map((r) =>
        present(r, ctx.now()),
      ),
    async () => (await ctx.db.select({ total: count() }).from(operators).where(where))[0].total,
  );
}
