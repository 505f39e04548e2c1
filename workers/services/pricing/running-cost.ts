import { eq } from "drizzle-orm";
import { chargeStrategyVersions, type transactions } from "../../../db/schema";
import { priceWith, registerSamplesOf } from "../../../domain/pricing/tariff";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { chargePointName } from "../../ocpp/identity";
import type { Ctx } from "../context";
import { tariffOf } from "./tariffs";

/**
 * A running session's energy and its cost so far, priced by the engine with the strategy version
 * its start recorded (docs/rules/pricing.md "Versions"), from the register readings and statuses
 * its charger's object keeps: what billing would charge if it stopped now. The ad-hoc page's
 * running cost and hold (docs/rules/payments.md "Ad-hoc payment") and the sessions we send roaming
 * partners (docs/rules/ocpi.md "Sessions and CDRs we send") read it. `cost` and `tax` are in minor
 * units; 0 for a session without a strategy.
 */
export async function runningCostOf(ctx: Ctx, tx: typeof transactions.$inferSelect, serialNumber: string) {
  const [settings, [version]] = await Promise.all([
    settingsOf(ctx.db, ctx.operator.id),
    tx.strategyVersionId === null
      ? Promise.resolve([])
      : ctx.db.select({ prices: chargeStrategyVersions.prices }).from(chargeStrategyVersions).where(owned(ctx, chargeStrategyVersions, eq(chargeStrategyVersions.id, tx.strategyVersionId))).limit(1),
  ]);
  const charger = ctx.env.CHARGE_POINT.getByName(chargePointName(tx.operatorId, serialNumber));
  const [stored, statuses] = await Promise.all([charger.meterSamples(tx.id), charger.sessionStatuses(tx.id)]);
  const samples = registerSamplesOf(stored);
  const lastWh = samples.length ? Math.max(tx.meterStartWh, samples[samples.length - 1].wh) : tx.meterStartWh;
  const energyWh = lastWh - tx.meterStartWh;
  if (!version) return { energyWh, cost: 0, tax: 0 };
  const priced = priceWith(tariffOf(settings, null, version.prices, "NORMAL"), {
    startAt: tx.startAt.getTime(),
    stopAt: Math.max(ctx.now(), tx.startAt.getTime()),
    meterStartWh: tx.meterStartWh,
    meterStopWh: lastWh,
    samples,
    statuses,
    reservationStartAt: null,
    unplugAt: null,
  });
  return { energyWh, cost: priced.totalCost, tax: priced.taxCost };
}
