import { asc } from "drizzle-orm";
import { operatorDomains } from "../../../db/schema";
import { owned } from "../../../tenants/scope";
import type { UserCtx } from "../context";

/**
 * Where the QR codes of an operator's points lead (docs/rules/public-charger.md "QR codes"): its
 * first branded domain, with the scheme and port the console was reached by (https in
 * production; a local server's port in development), else the console's own address.
 */
export async function chargePageOrigin(ctx: Pick<UserCtx, "db" | "operator" | "request">): Promise<string> {
  const [first] = await ctx.db.select({ domain: operatorDomains.domain }).from(operatorDomains).where(owned(ctx, operatorDomains)).orderBy(asc(operatorDomains.id)).limit(1);
  const reached = ctx.request.origin ? new URL(ctx.request.origin) : undefined;
  if (!first) return reached?.origin ?? "";
  if (!reached) return `https://${first.domain}`;
  return `${reached.protocol}//${first.domain}${reached.port ? `:${reached.port}` : ""}`;
}
