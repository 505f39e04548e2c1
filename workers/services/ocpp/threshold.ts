import { and, eq, inArray, isNull } from "drizzle-orm";
import { chargeStrategies, chargeStrategyVersions, customers, points } from "../../../db/schema";
import { formatMoney } from "../../../domain/format";
import { intlLocale } from "../../../domain/languages";
import type { IdTokenInfoType } from "../../../domain/ocpp/v201/schemas";
import { driverLanguage, TARIFF_MESSAGE_MAX, type TariffMessage } from "../../../domain/pricing/tariff-message";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { translator } from "../../i18n";
import type { SystemCtx } from "../context";
import { payerOf } from "../drivers/payer";

/**
 * A strategy's `minimumThreshold` at our own chargers (docs/rules/pricing.md "Minimum threshold"):
 * the balance plus overdraft credit the paying wallet needs before a session starts, in minor
 * units, checked at Authorize and StartTransaction for a tag the registry accepts. The strategy
 * is the point's current one, the version a start would record; the wallet is the one billing
 * would debit (the holder's, or its group leader's under LEADER). Nobody behind the tag (the
 * operator's remote tag) and an operator who does not take payment from the balance
 * (`balancePayment` off: no wallet is debited) are never refused for it.
 */

/** What a refusal for the threshold tells the operator (review, log) and the driver (2.0.1 personalMessage). */
export interface ThresholdShortfall {
  /** The strategy's minimum, minor units. */
  needed: number;
  /** The paying wallet's balance plus its overdraft credit, minor units. */
  available: number;
  strategyVersionId: number;
  payerId: number;
  /** OCPP 2.0.1 MessageContentType in the driver's language (Part 2 C01: `idTokenInfo.personalMessage`). */
  message: TariffMessage;
}

/** The minimum of the strategy version a start at the point would record now; null when it asks none. */
async function thresholdAt(ctx: SystemCtx, pointId: number) {
  const [row] = await ctx.db
    .select({ versionId: chargeStrategyVersions.id, prices: chargeStrategyVersions.prices })
    .from(points)
    .innerJoin(chargeStrategies, and(eq(chargeStrategies.id, points.chargeStrategyId), eq(chargeStrategies.operatorId, points.operatorId), isNull(chargeStrategies.deletedAt)))
    .innerJoin(chargeStrategyVersions, and(eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId), eq(chargeStrategyVersions.operatorId, points.operatorId)))
    .where(owned(ctx, points, eq(points.id, pointId)))
    .limit(1);
  const needed = row?.prices.minimumThreshold ?? 0;
  return row && needed > 0 ? { needed, versionId: row.versionId } : null;
}

/**
 * Whether the wallet behind `idTag` falls short of the point's strategy's minimum; null when the
 * session may start as far as the threshold goes.
 */
export async function thresholdShortfall(ctx: SystemCtx, pointId: number, idTag: string): Promise<ThresholdShortfall | null> {
  const [threshold, payer, settings] = await Promise.all([thresholdAt(ctx, pointId), payerOf(ctx, idTag), settingsOf(ctx.db, ctx.operator.id)]);
  if (!threshold || !payer || !settings.parameters.balancePayment) return null;
  const rows = await ctx.db
    .select({ id: customers.id, balance: customers.balance, overdraftCredit: customers.overdraftCredit, country: customers.country })
    .from(customers)
    .where(owned(ctx, customers, inArray(customers.id, [payer.payerId, payer.customerId])));
  const wallet = rows.find((r) => r.id === payer.payerId);
  if (!wallet) return null;
  const available = wallet.balance + wallet.overdraftCredit;
  if (available >= threshold.needed) return null;
  const p = settings.parameters;
  const language = driverLanguage(rows.find((r) => r.id === payer.customerId)?.country, p.defaultLanguage);
  const currency = mainCurrencyOf(p);
  const style = { language, decimalSeparator: p.decimalSeparator };
  const content = translator(language)("pricing.threshold.message", {
    needed: formatMoney(threshold.needed, currency, style),
    available: formatMoney(available, currency, style),
  });
  return {
    needed: threshold.needed,
    available,
    strategyVersionId: threshold.versionId,
    payerId: payer.payerId,
    message: { format: "UTF8", language: intlLocale(language), content: content.slice(0, TARIFF_MESSAGE_MAX) },
  };
}

/**
 * A 2.0.1 answer refused for the threshold: NoCredit, the status 2.0.1 has for "valid, but not
 * enough credit" (Part 2 C01, AuthorizationStatusEnumType), with the reason on the charger's screen.
 */
export function withShortfall(info: IdTokenInfoType, shortfall: ThresholdShortfall | null): IdTokenInfoType {
  return shortfall ? { ...info, status: "NoCredit", personalMessage: shortfall.message } : info;
}
