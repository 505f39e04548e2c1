import { and, eq, isNull, sql } from "drizzle-orm";
import { chargeRecords, chargeStrategies, chargeStrategyVersions, customers, idTags, points, rfCards, stations, transactions } from "../../../db/schema";
import type { Language } from "../../../domain/languages";
import type { StrategyPrices, Tariff } from "../../../domain/pricing";
import { driverLanguage, type TariffDisplay } from "../../../domain/pricing/tariff-message";
import { mainCurrencyOf, type ParameterSettings } from "../../../domain/schemas/settings";
import { settingsOf, type Settings } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import type { Ctx, SystemCtx } from "../context";
import { sameTag } from "../drivers/registry";
import { payerOf, type Payer } from "../drivers/payer";
import { verb } from "../verb";

/**
 * The tariff a session is priced by (docs/rules/pricing.md "The engine"): a strategy version's
 * prices with the operator's settings that price with them. Billing prices a stopped session with
 * it; a 2.0.1 charger's object takes one when a transaction starts, for its running and final cost
 * (OCPP 2.0.1 Part 2 I02–I03), and shows the point's current one before charging (I01).
 */

/**
 * The payment discount of the payer's membership level, from the parameter settings
 * (docs/rules/settings.md "Parameter settings"): the first of the discounts
 * (docs/rules/discounts.md "Billing order").
 */
export function memberDiscountOf(p: ParameterSettings, level: Payer["memberLevel"]) {
  return level === "GOLD" ? p.membership.goldDiscount : level === "SILVER" ? p.membership.silverDiscount : 0;
}

/** The engine's settings for a session at a station, priced by `prices`, paid by a member of `level`. */
export function tariffOf(settings: Settings, stationTimeZone: string | null, prices: StrategyPrices, level: Payer["memberLevel"]): Tariff {
  const p = settings.parameters;
  const discount = memberDiscountOf(p, level);
  return {
    prices,
    timeZone: stationTimeZone || settings.timeZone,
    currencyDecimals: mainCurrencyOf(p).decimals,
    tax: { rate: p.tax.rate, inclusive: p.tax.inclusive },
    discountPercent: discount > 0 ? String(discount) : null,
  };
}

/** How the tariff is shown to a driver: the currency, the tax mark and the decimal separator. */
function displayOf(settings: Settings, prices: StrategyPrices, timeZone: string): TariffDisplay {
  const p = settings.parameters;
  return {
    prices,
    currency: mainCurrencyOf(p),
    timeZone,
    tax: { rate: p.tax.rate, inclusive: p.tax.inclusive, mark: p.tax.mark },
    decimalSeparator: p.decimalSeparator,
  };
}

/** The country of the customer behind a tag (its card's holder, else the customer the tag names), for the driver's language. */
function customerCountry(ctx: Ctx, idTag: string) {
  const card = ctx.db.select({ id: rfCards.customerId }).from(rfCards).where(owned(ctx, rfCards, sameTag(rfCards.idTag, idTag))).limit(1);
  const tag = ctx.db.select({ id: idTags.customerId }).from(idTags).where(owned(ctx, idTags, sameTag(idTags.idTag, idTag))).limit(1);
  return sql<string | null>`(${ctx.db
    .select({ country: customers.country })
    .from(customers)
    .where(owned(ctx, customers, eq(customers.id, sql`coalesce((${card}), (${tag}))`)))
    .limit(1)})`;
}

/** What a driver is shown before charging at a point: its tariff's display and the driver's language. */
export interface PriceBeforeCharging {
  display: TariffDisplay;
  language: Language;
}

/**
 * The price a point charges by now (I01): its strategy's current version, the station's time zone
 * and the country of the customer behind the tag, in one query beside the operator's settings;
 * null for a point without a strategy.
 */
export const priceBeforeCharging = verb({ actors: ["system"] }, async (ctx: SystemCtx, pointId: number, idTag: string): Promise<PriceBeforeCharging | null> => {
  const [[row], settings] = await Promise.all([
    ctx.db
      .select({ prices: chargeStrategyVersions.prices, stationTimeZone: stations.timeZone, country: customerCountry(ctx, idTag) })
      .from(points)
      .innerJoin(chargeStrategies, and(eq(chargeStrategies.id, points.chargeStrategyId), eq(chargeStrategies.operatorId, points.operatorId), isNull(chargeStrategies.deletedAt)))
      .innerJoin(chargeStrategyVersions, and(eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId), eq(chargeStrategyVersions.operatorId, points.operatorId)))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .where(owned(ctx, points, eq(points.id, pointId)))
      .limit(1),
    settingsOf(ctx.db, ctx.operator.id),
  ]);
  if (!row) return null;
  return {
    display: displayOf(settings, row.prices, row.stationTimeZone || settings.timeZone),
    language: driverLanguage(row.country, settings.parameters.defaultLanguage),
  };
});

/** What a 2.0.1 charger's object keeps of a running transaction to price it as billing will. */
export interface TransactionTariff {
  tariff: Tariff;
  /** When the reservation the session used began (its idle fee before charging). */
  reservationStartAt: number | null;
  display: TariffDisplay;
  language: Language;
}

/**
 * The tariff of a transaction just started (I02): the strategy version it recorded at its start
 * (docs/decisions/0022-strategies-are-versioned.md), the station's time zone, the reservation its
 * record names, the operator's settings and the payer's membership discount, as billing reads them;
 * null when the transaction has no version (a point without a strategy).
 */
export const transactionTariff = verb({ actors: ["system"] }, async (ctx: SystemCtx, transactionId: number, idTag: string): Promise<TransactionTariff | null> => {
  const [[row], settings, payer] = await Promise.all([
    ctx.db
      .select({
        prices: chargeStrategyVersions.prices,
        stationTimeZone: stations.timeZone,
        reservationStartAt: chargeRecords.reservationStartAt,
        country: customerCountry(ctx, idTag),
      })
      .from(transactions)
      .innerJoin(
        chargeStrategyVersions,
        and(eq(chargeStrategyVersions.id, transactions.strategyVersionId), eq(chargeStrategyVersions.operatorId, transactions.operatorId)),
      )
      .leftJoin(points, eq(points.id, transactions.pointId))
      .leftJoin(stations, eq(stations.id, points.stationId))
      .leftJoin(chargeRecords, eq(chargeRecords.transactionId, transactions.id))
      .where(owned(ctx, transactions, eq(transactions.id, transactionId)))
      .limit(1),
    settingsOf(ctx.db, ctx.operator.id),
    payerOf(ctx, idTag),
  ]);
  if (!row) return null;
  const tariff = tariffOf(settings, row.stationTimeZone, row.prices, payer?.memberLevel ?? "NORMAL");
  return {
    tariff,
    reservationStartAt: row.reservationStartAt?.getTime() ?? null,
    display: displayOf(settings, row.prices, tariff.timeZone),
    language: driverLanguage(row.country, settings.parameters.defaultLanguage),
  };
});
