import { asc, count, eq, gte, inArray, lt } from "drizzle-orm";
import { chargeStrategies, chargeStrategyVersions } from "../../../db/schema";
import { containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { tariffOfStrategy, untranslatable, type TariffParty } from "../../../domain/ocpi/tariff-of-strategy";
import { invalidParameters, reasonOf } from "../../../domain/ocpi/wire";
import { instantOf } from "../../../domain/schemas/ocpi/common";
import { cpoListQuery, senderQuery } from "../../../domain/schemas/ocpi/cpo";
import type { OcpiTariff } from "../../../domain/schemas/ocpi/tariffs";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { ourIdentity } from "./identity";
import { pushStatesOf } from "./cpo-push";
import { publishedStrategy } from "./cpo-published";

/**
 * The tariffs we publish as a CPO (docs/rules/ocpi.md "Tariffs we publish", OCPI 2.2.1 §11): the
 * current version of each charging strategy that a public point of a published station charges
 * by, as `tariffOfStrategy` writes it; its id is the strategy's.
 */

export const TARIFF_PAGE_LIMIT = 100;
export const TARIFF_MENU = "cpo.tariff";

/** Who publishes and how: our party, the operator's language and tax. */
export async function tariffTermsOf(ctx: Ctx) {
  const [identity, settings] = await Promise.all([ourIdentity(ctx), settingsOf(ctx.db, ctx.operator.id)]);
  const party: TariffParty = { countryCode: identity.countryCode, partyId: identity.partyId, language: settings.parameters.defaultLanguage.slice(0, 2) };
  const { rate, inclusive } = settings.parameters.tax;
  return { party, tax: { rate, inclusive } };
}

async function tariffsOf(ctx: Ctx, rows: (typeof chargeStrategies.$inferSelect)[]) {
  if (rows.length === 0) return [];
  const terms = await tariffTermsOf(ctx);
  // A page is up to 100 strategies: their versions are read in slices (docs/rules/lists.md "D1's 100 parameters").
  const versions = await rowsFor(
    rows.map((r) => r.currentVersionId ?? 0),
    (slice) => ctx.db.select().from(chargeStrategyVersions).where(owned(ctx, chargeStrategyVersions, inArray(chargeStrategyVersions.id, slice))),
  );
  return rows.flatMap((s) => {
    const version = versions.find((v) => v.id === s.currentVersionId);
    if (!version) return [];
    const facts = { id: s.id, name: s.name, currency: s.currency, prices: version.prices, updatedAt: s.updatedAt.getTime() };
    return [{ tariff: tariffOfStrategy(terms.party, facts, terms.tax), untranslatable: untranslatable(version.prices) }];
  });
}

/** One published tariff, or null when its strategy is not (or no longer) published. */
export async function publishedTariff(ctx: Ctx, id: string): Promise<OcpiTariff | null> {
  if (!/^[1-9][0-9]{0,14}$/.test(id)) return null;
  const rows = await ctx.db.select().from(chargeStrategies).where(owned(ctx, chargeStrategies, publishedStrategy(ctx), eq(chargeStrategies.id, Number(id)))).limit(1);
  return (await tariffsOf(ctx, rows))[0]?.tariff ?? null;
}

/** GET /ocpi/2.2.1/cpo/tariffs (OCPI 2.2.1 §11.2.1.1): paged by strategy id, `date_from`/`date_to` on `last_updated`. */
export const listPublishedTariffsForPartner = verb({ actors: ["partner"] }, async (ctx, raw: unknown) => {
  const parsed = senderQuery.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  const q = parsed.data;
  const limit = Math.min(q.limit ?? TARIFF_PAGE_LIMIT, TARIFF_PAGE_LIMIT);
  const where = owned(
    ctx,
    chargeStrategies,
    publishedStrategy(ctx),
    q.date_from ? gte(chargeStrategies.updatedAt, new Date(instantOf(q.date_from))) : undefined,
    q.date_to ? lt(chargeStrategies.updatedAt, new Date(instantOf(q.date_to))) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(chargeStrategies).where(where).orderBy(asc(chargeStrategies.id)).limit(limit).offset(q.offset),
    ctx.db.select({ total: count() }).from(chargeStrategies).where(where),
  ]);
  return { items: (await tariffsOf(ctx, rows)).map((t) => t.tariff), total, offset: q.offset, limit };
});

/** GET /ocpi-service/cpo/tariff: the tariffs we publish, paged on the server, by name, with what OCPI cannot say of each and its delivery to each partner. */
export const listPublishedTariffs = verb({ menu: TARIFF_MENU }, async (ctx, raw: unknown) => {
  const q = cpoListQuery.parse(raw);
  const where = owned(ctx, chargeStrategies, publishedStrategy(ctx), containingIf(chargeStrategies.name, q.q));
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db.select().from(chargeStrategies).where(where).orderBy(asc(chargeStrategies.id)).limit(limit).offset(offset);
      const [tariffs, pushes] = await Promise.all([tariffsOf(ctx, rows), pushStatesOf(ctx, "tariffs", rows.map((r) => String(r.id)))]);
      return tariffs.map(({ tariff, untranslatable }) => ({
        strategyId: Number(tariff.id),
        name: tariff.tariff_alt_text?.[0]?.text ?? "",
        tariff,
        untranslatable,
        pushes: pushes.get(tariff.id) ?? [],
      }));
    },
    async () => (await ctx.db.select({ total: count() }).from(chargeStrategies).where(where))[0].total,
  );
});

/** What the strategy editor previews: our party, language and tax, so it writes the tariff as partners will read it. */
export const tariffTerms = verb({ menu: ["finance.chargeConfiguration", TARIFF_MENU] }, async (ctx) => tariffTermsOf(ctx).catch(() => null));
