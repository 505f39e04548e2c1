import { and, asc, eq, or } from "drizzle-orm";
import { startingWith } from "../../../db/like";
import { operators } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { operatorByCode, operatorByHost, settingsOf, type OperatorRow } from "../../../tenants/resolve";
import { verb } from "../verb";

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
export const loginInfo = verb({ actors: ["public"] }, async (ctx, code: string) => {
  const operator = await operatorByCode(ctx.db, code);
  if (!operator || operator.status !== "VALID") throw new NotFound("errors.operatorNotFound");
  const settings = await settingsOf(ctx.db, operator.id);
  return loginFacts(operator, settings.defaultLanguage);
});

/**
 * The operator whose own domain a request came through, if any: the console's `/` is then its
 * login page (docs/rules/tenancy.md "Operator domains").
 */
export const domainOperator = verb({ actors: ["public"] }, async (ctx, host: string) => operatorByHost(ctx.db, host));

/**
 * GET /user-service/operator/homepage?keyword=: the operator picker of /homePage and
 * /carrierList. It answers only to a keyword (code or name prefix), at most ten operators,
 * so that the list of tenants is not handed to anyone who asks.
 */
export const homepageOperators = verb({ actors: ["public"] }, async (ctx, keyword: string | undefined) => {
  const term = keyword?.trim();
  if (!term) return [];
  const rows = await ctx.db
    .select()
    .from(operators)
    .where(
      and(
        eq(operators.status, "VALID"),
        eq(operators.kind, "OPERATOR"),
        or(startingWith(operators.code, term), startingWith(operators.name, term)),
      ),
    )
    .orderBy(asc(operators.code))
    .limit(10);
  return rows.map((o) => loginFacts(o, "en"));
});

/** GET /user-service/person/operator/info: the logged-in operator's branding and info. */
export const operatorInfo = verb({ menu: "session", beforePasswordChange: true }, async (ctx) => {
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
});

/**
 * GET /user-service/person/operator/support/currency: the operator's one to three currency sets
 * (code, sign, decimals), the main currency first (docs/rules/settings.md "Parameter settings").
 */
export const supportedCurrency = verb({ menu: "session", beforePasswordChange: true }, async (ctx) => {
  const { parameters } = await settingsOf(ctx.db, ctx.operator.id);
  const main = mainCurrencyOf(parameters);
  return [main, ...parameters.currencies.filter((c) => c.code !== main.code)];
});

/** GET /user-service/person/operator/area-code. */
export const areaCodes = verb({ menu: "session", beforePasswordChange: true }, async (ctx) => {
  const s = await settingsOf(ctx.db, ctx.operator.id);
  return s.areaCodes;
});
