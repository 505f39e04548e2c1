import { and, asc, eq, isNull } from "drizzle-orm";
import { chargeStrategies, chargeStrategyVersions, connectors, operators, points, stations } from "../../../db/schema";
import { shownStatus } from "../../../domain/connector-status";
import { NotFound } from "../../../domain/errors";
import type { Language } from "../../../domain/languages";
import { ocpiFormatOf, ocpiPowerTypeOf, ocpiStandardOf } from "../../../domain/ocpi/connector-standard";
import { inService } from "../../../domain/operator-validity";
import { priceNow, type PricePeriod, type PublicPrice } from "../../../domain/pricing/public-price";
import { serialNumber } from "../../../domain/schemas/equipment";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, ownedBy } from "../../../tenants/scope";
import type { PublicCtx } from "../context";
import { verb } from "../verb";

/**
 * The public page of a charger and its JSON (docs/rules/public-charger.md "The charger's JSON"):
 * what anyone who scans a point's QR code may know, without a login. The operator is the point's:
 * a serial number names one point across the platform (docs/rules/equipment.md "Points").
 */

/** A connector of a point whose point is offline shows this status, as the console's lists do. */
export const OFFLINE = "Offline";

export interface PublicConnector {
  connectorId: number;
  /** OCPP ChargePointStatus as the charger last reported it; `Offline` while the point is offline. */
  status: string;
  powerKw: number;
  /** OCPI 2.2.1 ConnectorType. */
  standard: string;
  format: string;
  powerType: string;
  /** Our own standard, for the plug's name and picture. */
  plug: string;
  /** Null for a point without a strategy: it bills nothing (docs/rules/billing.md "Pricing at stop"). */
  price: PublicPrice | null;
  upcoming: PricePeriod[];
}

export interface PublicCharger {
  serialNumber: string;
  name: string;
  operatorName: string;
  operatorCode: string;
  logoUrl: string | null;
  currency: string;
  currencySign: string;
  currencyDecimals: number;
  timeZone: string;
  defaultLanguage: Language;
  decimalSeparator: "." | "," | null;
  station: { name: string; address: string };
  contact: { phone: string | null; email: string | null; homeUrl: string | null };
  /** Whether the point may be used now: enabled by its operator. */
  enabled: boolean;
  online: boolean;
  connectors: PublicConnector[];
}

/**
 * GET /public-service/charger/{serialNumber}: the point, its live connector statuses and the price
 * a session started now would be billed by, from the strategy version the start would record
 * (docs/rules/pricing.md "Price shown is price billed"). An unknown serial number, or the point of
 * an operator out of service, is 404.
 */
export const publicCharger = verb({ actors: ["public"] }, async (ctx: PublicCtx, rawSerial: unknown): Promise<PublicCharger> => {
  // A text that cannot be a serial number names no point: not found, like an unknown one.
  const parsed = serialNumber.safeParse(rawSerial);
  if (!parsed.success) throw new NotFound("publicCharger.errors.notFound");
  const [found] = await ctx.db
    .select({ point: points, operator: operators, station: stations, prices: chargeStrategyVersions.prices })
    .from(points)
    .innerJoin(operators, eq(operators.id, points.operatorId))
    .leftJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
    // The strategy's current version: the one a start records now (docs/decisions/0022-strategies-are-versioned.md).
    .leftJoin(chargeStrategies, and(eq(chargeStrategies.id, points.chargeStrategyId), eq(chargeStrategies.operatorId, points.operatorId), isNull(chargeStrategies.deletedAt)))
    .leftJoin(chargeStrategyVersions, and(eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId), eq(chargeStrategyVersions.operatorId, points.operatorId)))
    .where(acrossTenants("a serial number names one point across the platform: the public page finds its operator by it", eq(points.serialNumber, parsed.data)))
    .limit(1);
  if (!found || found.operator.kind === "PLATFORM" || !inService(found.operator, ctx.now())) throw new NotFound("publicCharger.errors.notFound");
  const { point, operator, station, prices } = found;
  const [settings, own] = await Promise.all([
    settingsOf(ctx.db, point.operatorId),
    ctx.db.select().from(connectors).where(ownedBy(point.operatorId, connectors, eq(connectors.pointId, point.id))).orderBy(asc(connectors.connectorNo)),
  ]);
  const currency = mainCurrencyOf(settings.parameters);
  const timeZone = station?.timeZone || settings.timeZone;
  const tax = settings.parameters.tax;
  const priced = prices ? priceNow({ prices, timeZone, tax: { rate: tax.rate, inclusive: tax.inclusive }, currencyDecimals: currency.decimals }, ctx.now()) : null;
  return {
    serialNumber: point.serialNumber,
    name: point.name,
    operatorName: operator.name,
    operatorCode: operator.code,
    logoUrl: operator.logoKey ? `/user-service/file/show?key=${encodeURIComponent(operator.logoKey)}` : null,
    currency: currency.code,
    currencySign: currency.sign,
    currencyDecimals: currency.decimals,
    timeZone,
    defaultLanguage: settings.parameters.defaultLanguage,
    decimalSeparator: settings.parameters.decimalSeparator,
    station: { name: station?.name ?? "", address: station?.address ?? "" },
    contact: { phone: station?.servicePhone || operator.contactPhone || null, email: operator.contactEmail || null, homeUrl: operator.homeUrl || null },
    enabled: point.status === "VALID",
    online: point.online,
    connectors: own.map((c) => ({
      connectorId: c.connectorNo,
      status: shownStatus(point.online, c.status) ?? OFFLINE,
      powerKw: c.powerW / 1000,
      standard: ocpiStandardOf(c.standard),
      format: ocpiFormatOf(c.standard),
      powerType: ocpiPowerTypeOf(c.standard, c.powerW),
      plug: c.standard,
      price: priced?.price ?? null,
      upcoming: priced?.upcoming ?? [],
    })),
  };
});
