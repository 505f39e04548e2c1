import { and, asc, eq, like, or } from "drizzle-orm";
import { operators } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { operatorByCode, settingsOf, type OperatorRow } from "../../../tenants/resolve";
import type { Ctx, PublicCtx } from "../context";

/** What a login page may show of an operator: branding, never settings or contacts. */
function loginFacts(operator: OperatorRow, defaultLanguage: string) {
  return {
    operatorCode: operator.code,
    name: operator.name,
    logoUrl: operator.logoKey ? `/user-service/file/show?key=${encodeURIComponent(operator.logoKey)}` : null,
    sub: operator.sub,
    defaultLanguage,
  };
}

/** GET /user-service/operator/login/info/{operatorCode}. */
export async function loginInfo(ctx: PublicCtx, code: string) {
  const operator = await operatorByCode(ctx.db, code);
  if (!operator || operator.status !== "VALID") throw new NotFound("errors.operatorNotFound");
  const settings = await settingsOf(ctx.db, operator.id);
  return loginFacts(operator, settings.defaultLanguage);
}

/**
 * GET /user-service/operator/homepage?keyword=: the operator picker of /homePage and
 * /carrierList. It answers only to a keyword (code or name prefix), at most ten operators,
 * so that the list of tenants is not handed to anyone who asks.
 */
export async function homepageOperators(ctx: PublicCtx, keyword: string | undefined) {
  const term = keyword?.trim();
  if (!term) return [];
  const rows = await ctx.db
    .select()
    .from(operators)
    .where(
      and(
        eq(operators.status, "VALID"),
        eq(operators.kind, "OPERATOR"),
        or(like(operators.code, `${term.replace(/[%_]/g, "")}%`), like(operators.name, `${term.replace(/[%_]/g, "")}%`)),
      ),
    )
    .orderBy(asc(operators.code))
    .limit(10);
  return rows.map((o) => loginFacts(o, "en"));
}

/** GET /user-service/person/operator/info: the logged-in operator's branding and info. */
export async function operatorInfo(ctx: Ctx) {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  return {
    ...loginFacts(ctx.operator, settings.defaultLanguage),
    edition: ctx.operator.edition,
    validUntil: ctx.operator.validUntil?.toISOString() ?? null,
    contactName: ctx.operator.contactName,
    contactPhone: ctx.operator.contactPhone,
    contactEmail: ctx.operator.contactEmail,
    homeUrl: ctx.operator.homeUrl,
    timeZone: settings.timeZone,
  };
}

/** GET /user-service/person/operator/support/currency (SPEC.md §3: sign, code, decimals). */
export async function supportedCurrency(ctx: Ctx) {
  const s = await settingsOf(ctx.db, ctx.operator.id);
  return [{ code: s.currencyCode, sign: s.currencySign, decimals: s.currencyDecimals }];
}

/** GET /user-service/person/operator/area-code. */
export async function areaCodes(ctx: Ctx) {
  const s = await settingsOf(ctx.db, ctx.operator.id);
  return s.areaCodes;
}
