import { and, eq, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { chargeRecords, chargeStrategyVersions, operators, points, stations, transactions } from "../../../db/schema";
import { majorUnits, priceWith, registerSamplesOf, type PricedSession, type RegisterSample, type StatusSample } from "../../../domain/pricing";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned } from "../../../tenants/scope";
import { reportError } from "../../http/report-error";
import { chargePointName } from "../../ocpp/identity";
import type { StoredSample } from "../monitoring/meter-curve";
import { billedStatements, ensureChargeRecord } from "../charge-records/lifecycle";
import type { Ctx } from "../context";
import { verb } from "../verb";
import { queueSettlement } from "./deliveries";
import { cardsFor, discountStatements } from "../discounts/billing";
import { payerOf, type Payer } from "../drivers/payer";
import { tariffOf } from "../pricing/tariffs";
import { costColumns, repricedTotalsStatement, settleStatements } from "./settlement";
import { roamingSessionPriced } from "../ocpi/cpo/cdrs";

/**
 * The billing of a stopped session (docs/rules/billing.md): the engine prices it with the strategy
 * version its transaction recorded, the record takes every cost column, and the payer's balance is
 * debited once the price is final. A strategy with an idle fee after charging is priced
 * provisionally at the stop (nothing debited) and finally at the unplug, or
 * `FINAL_PRICING_AFTER_MS` after the server billed the stop (docs/rules/billing.md "Provisional and final").
 */

/** The idle fee after charging stops counting this long after the server received the stop (server clock). */
export const FINAL_PRICING_AFTER_MS = 24 * 60 * 60 * 1000;

/** What the engine needs of one transaction, read in one query. */
async function sessionOf(ctx: Ctx, transactionId: number) {
  const [row] = await ctx.db
    .select({
      tx: transactions,
      record: chargeRecords,
      serialNumber: points.serialNumber,
      stationTimeZone: stations.timeZone,
      prices: chargeStrategyVersions.prices,
    })
    .from(transactions)
    .leftJoin(chargeRecords, eq(chargeRecords.transactionId, transactions.id))
    .leftJoin(points, eq(points.id, transactions.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .leftJoin(
      chargeStrategyVersions,
      and(eq(chargeStrategyVersions.id, transactions.strategyVersionId), eq(chargeStrategyVersions.operatorId, transactions.operatorId)),
    )
    .where(owned(ctx, transactions, eq(transactions.id, transactionId)))
    .limit(1);
  return row;
}
type Session = NonNullable<Awaited<ReturnType<typeof sessionOf>>>;

/**
 * The session's energy register readings and the connector statuses reported while it ran, from
 * the charger's own storage (its Durable Object).
 */
async function chargerHistory(ctx: Ctx, s: Session): Promise<{ samples: RegisterSample[]; statuses: StatusSample[] }> {
  if (!s.serialNumber) return { samples: [], statuses: [] };
  const charger = ctx.env.CHARGE_POINT.getByName(chargePointName(s.tx.operatorId, s.serialNumber));
  const [stored, statuses]: [StoredSample[], StatusSample[]] = await Promise.all([charger.meterSamples(s.tx.id), charger.sessionStatuses(s.tx.id)]);
  return { samples: registerSamplesOf(stored), statuses };
}

/**
 * Prices a stopped session with what is known now. `finalAt`: when a provisional price turns
 * final without an unplug (the idle fee after charging counts until then).
 */
async function priceOf(ctx: Ctx, s: Session, payer: Payer | null, finalAt: number | null): Promise<PricedSession | null> {
  if (!s.prices || s.tx.stopAt === null || s.tx.meterStopWh === null) return null;
  const stopAt = s.tx.stopAt.getTime();
  const [settings, { samples, statuses }, cards] = await Promise.all([
    settingsOf(ctx.db, ctx.operator.id),
    chargerHistory(ctx, s),
    payer ? cardsFor(ctx, payer.payerId, stopAt) : Promise.resolve([]),
  ]);
  const unplugAt = s.record?.unplugAt?.getTime() ?? finalAt;
  // The same tariff a 2.0.1 charger's object took at the start for its running cost (workers/services/pricing/tariffs.ts).
  return priceWith(
    tariffOf(settings, s.stationTimeZone, s.prices, payer?.memberLevel ?? "NORMAL"),
    {
      startAt: s.tx.startAt.getTime(),
      stopAt: s.tx.stopAt.getTime(),
      meterStartWh: s.tx.meterStartWh,
      meterStopWh: s.tx.meterStopWh,
      samples,
      statuses,
      reservationStartAt: s.record?.reservationStartAt?.getTime() ?? null,
      unplugAt: unplugAt === null ? null : Math.max(unplugAt, s.tx.stopAt.getTime()),
    },
    cards,
  );
}

/** The record's new price: its cost columns, the version and the customer, and whether it is final. */
function pricedColumns(ctx: Ctx, s: Session, priced: PricedSession, payer: Payer | null) {
  return {
    ...costColumns(priced),
    strategyVersionId: s.tx.strategyVersionId,
    customerId: payer?.customerId ?? null,
    pricingPhase: priced.provisional ? ("PROVISIONAL" as const) : ("FINAL" as const),
    pricedAt: new Date(ctx.now()),
    updatedAt: new Date(ctx.now()),
  };
}

/**
 * The final price to the OCPP 2.0.1 charger the session ran on (Part 2 I03): a CostUpdated with
 * the record's total under the charger's own transaction id, so that what its screen shows last is
 * the receipt's amount to the minor unit, discounts and the idle fee after charging included. The
 * charger's object sends it after this call returns, and again on the charger's next connection
 * when it could not take it: billing never waits on the charger (docs/rules/pricing.md "Running and final cost").
 */
async function finalCostToCharger(ctx: Ctx, s: Session, priced: PricedSession, decimals: number) {
  if (!s.serialNumber || s.tx.chargerTransactionId === null) return;
  const charger = ctx.env.CHARGE_POINT.getByName(chargePointName(s.tx.operatorId, s.serialNumber));
  // The record is priced whatever becomes of the message: a failed call is reported, not retried.
  await charger.finalCost(s.tx.chargerTransactionId, majorUnits(priced.totalCost, decimals)).catch((e: unknown) => reportError("final cost to the charger", e, { transactionId: s.tx.id }));
}

/**
 * The first billing of a stop: the record's price, the daily totals (with the record's new total
 * as revenue), CHARGE_COMPLETE and `billed_at`, each conditioned on the transaction not being billed
 * yet; then, when the price is final, the debit. One batch: all of it or nothing.
 */
async function billStop(ctx: Ctx, s: Session) {
  const tx = s.tx;
  const energyWh = Math.max(0, tx.meterStopWh! - tx.meterStartWh);
  const durationS = Math.max(0, Math.round((tx.stopAt!.getTime() - tx.startAt.getTime()) / 1000));
  // A partner's driver pays through its eMSP: priced by our tariff, never a wallet (docs/rules/billing.md "Roaming at our chargers").
  const payer = s.record?.roamingPlatformId ? null : await payerOf(ctx, tx.idTag);
  const [settings, priced] = await Promise.all([settingsOf(ctx.db, ctx.operator.id), priceOf(ctx, s, payer, null)]);
  const unbilled = owned(ctx, transactions, eq(transactions.id, tx.id), isNull(transactions.billedAt));
  // An unpriced record (a point without a strategy) still keeps the customer behind the tag
  // (docs/rules/billing.md "Pricing at stop").
  const price = ctx.db
    .update(chargeRecords)
    .set(priced ? pricedColumns(ctx, s, priced, payer) : { customerId: payer?.customerId ?? null, updatedAt: new Date(ctx.now()) })
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, tx.id), sql`exists (select 1 from ${transactions} where ${unbilled})`));
  const before = [
    ctx.db.update(transactions).set({ energyWh, durationS }).where(unbilled),
    price,
    ...billedStatements(ctx, { transactionId: tx.id, startAt: tx.startAt, energyWh, durationS }, settings.timeZone),
  ] as const;
  const results = await ctx.db.batch([
    ...before,
    ctx.db.update(transactions).set({ billedAt: new Date(ctx.now()) }).where(unbilled).returning({ id: transactions.id }),
    ...(priced && !priced.provisional ? [...discountStatements(ctx, tx.id, priced), ...settleStatements(ctx, tx.id, payer, settings.parameters.balancePayment)] : []),
  ]);
  const stamped = results[before.length] as { id: number }[];
  if (stamped.length > 0 && priced && !priced.provisional) await finalCostToCharger(ctx, s, priced, mainCurrencyOf(settings.parameters).decimals);
  return { billed: stamped.length > 0, energyWh, durationS, priced };
}

/**
 * The final pricing of a provisional record: at the unplug, or once `FINAL_PRICING_AFTER_MS` has
 * passed since billing (then the idle fee after charging counts until that instant). The day's
 * revenue gains the difference, the record its final price, and the payer is debited; every
 * statement is conditioned on the record still being provisional, so it happens once.
 */
async function billFinal(ctx: Ctx, s: Session, now: boolean) {
  const billedAt = s.tx.billedAt!.getTime();
  const due = now ? Math.min(ctx.now(), billedAt + FINAL_PRICING_AFTER_MS) : billedAt + FINAL_PRICING_AFTER_MS;
  if (s.record?.unplugAt === null && ctx.now() < due) return { billed: false as const, reason: "awaitingUnplug" as const };
  const payer = s.record?.roamingPlatformId ? null : await payerOf(ctx, s.tx.idTag);
  const [settings, priced] = await Promise.all([settingsOf(ctx.db, ctx.operator.id), priceOf(ctx, s, payer, due)]);
  if (!priced) return { billed: false as const, reason: "notPriced" as const };
  await ctx.db.batch([
    repricedTotalsStatement(ctx, { transactionId: s.tx.id, pointId: s.tx.pointId, startAt: s.tx.startAt }, priced.totalCost, settings.timeZone),
    ctx.db
      .update(chargeRecords)
      .set({ ...pricedColumns(ctx, s, priced, payer), pricingPhase: "FINAL" })
      .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, s.tx.id), eq(chargeRecords.pricingPhase, "PROVISIONAL"))),
    ...discountStatements(ctx, s.tx.id, priced),
    ...settleStatements(ctx, s.tx.id, payer, settings.parameters.balancePayment),
  ]);
  await finalCostToCharger(ctx, s, priced, mainCurrencyOf(settings.parameters).decimals);
  return { billed: true as const, final: true as const, priced };
}

/**
 * Prices and settles one stopped transaction; see `billTransaction`. Shared by the job and the
 * record actions; `finalNow`: a provisional price turns final now (a settlement the operator starts).
 */
export async function billSession(ctx: Ctx, transactionId: number, finalNow = false) {
  let s = await sessionOf(ctx, transactionId);
  if (!s || s.tx.meterStopWh === null || s.tx.stopAt === null) return { billed: false as const, reason: "notStopped" as const };
  if (!s.record) {
    await ensureChargeRecord(ctx as never, transactionId);
    s = (await sessionOf(ctx, transactionId))!;
  }
  if (s.tx.billedAt === null) {
    const { billed, energyWh, durationS, priced } = await billStop(ctx, s);
    if (!billed) return { billed: false as const, reason: "alreadyBilled" as const };
    // An unplug that reached D1 while this job priced the stop found no provisional record to
    // queue: read the record again after the batch and price it finally now, so it never waits
    // for the cron. An unplug landing after this read finds the record provisional and queues it
    // itself (docs/rules/billing.md "Provisional and final").
    if (priced?.provisional) {
      const after = await sessionOf(ctx, transactionId);
      if (after?.record?.pricingPhase === "PROVISIONAL" && after.record.unplugAt !== null) return billFinal(ctx, after, false);
    }
    return { billed: true as const, energyWh, durationS, totalCost: priced?.totalCost ?? null, provisional: priced?.provisional ?? false };
  }
  if (s.record?.pricingPhase === "PROVISIONAL") return billFinal(ctx, s, finalNow);
  return { billed: false as const, reason: "alreadyBilled" as const };
}

/**
 * The billing job's verb: the stop's first billing, or the final pricing of a provisional record
 * (at the unplug, or from the cron once its time has come). Idempotent: a message delivered twice
 * changes nothing (docs/decisions/0043-one-debit-per-transaction-and-phase.md). A settled record
 * then goes to the operator's bill-push URL and invoice system through the outbox queue
 * (docs/rules/settings.md "Bill push"); a delivery that could not be queued the first time is
 * queued when the job is retried.
 */
export const billTransaction = verb({ actors: ["system"] }, async (ctx, transactionId: number) => {
  const outcome = await billSession(ctx, transactionId);
  if (outcome.reason !== "notStopped") await queueSettlement(ctx, transactionId);
  // A partner's driver's session, priced for good, becomes its CDR (docs/rules/ocpi.md "Sessions and CDRs we send").
  if (outcome.reason !== "notStopped") await roamingSessionPriced(ctx, transactionId);
  return outcome;
});

/**
 * The provisional records whose final price is due (docs/rules/billing.md "Provisional and
 * final"): unplugged, or billed at least `FINAL_PRICING_AFTER_MS` ago by the server's clock.
 * The cron looks at every operator's; each operator's pricing is its own verb call.
 */
export const dueFinalPricings = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .select({ id: chargeRecords.transactionId, operatorId: chargeRecords.operatorId, operatorCode: operators.code })
    .from(chargeRecords)
    .innerJoin(transactions, eq(transactions.id, chargeRecords.transactionId))
    .innerJoin(operators, eq(operators.id, chargeRecords.operatorId))
    .where(
      acrossTenants(
        "the cron finds every operator's provisional records due for their final price; each is priced as its own operator",
        eq(chargeRecords.pricingPhase, "PROVISIONAL"),
        or(isNotNull(chargeRecords.unplugAt), lte(transactions.billedAt, new Date(ctx.now() - FINAL_PRICING_AFTER_MS))),
      ),
    )
    .limit(500),
);
