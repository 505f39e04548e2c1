import { eq, isNull, ne, or, sql } from "drizzle-orm";
import { chargeStrategies, ocppReviews, points, transactions } from "../../../db/schema";
import { batchOf } from "../../../db/statements";
import { type AuthorizationStatus } from "../../../domain/ocpp";
import { settingsOf } from "../../../tenants/resolve";
import { owned, ownedRow } from "../../../tenants/scope";
import { openRecordStatements } from "../charge-records/lifecycle";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { queueAuthorisation } from "../payments/capture";
import { bindAdHocStart } from "../payments/ad-hoc";
import { registryFacts } from "../drivers/registry";
import { system } from "./charger-scope";
import { NOT_ACCEPTED, notAcceptedRecords } from "./transaction-reviews";
import { tagInfo, idTagInfoOf } from "./tag-answers";
import { roamingSessionStarted } from "../ocpi/cpo/sessions";

/**
 * A charger's transactions start and stop in D1 before its answer, with their charge records in
 * the same batch (docs/rules/ocpp.md "Transactions", docs/rules/records.md "Record states").
 */

/** The charger's own point, within its operator (kept local: the tenancy check reads each module's own filters). */
const ofPoint = (ctx: SystemCtx, pointId: number) => owned(ctx, points, eq(points.id, pointId));

export interface StartFacts {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
  reservationId?: number;
  /**
   * An OCPP 2.0.1 charger's own transaction id (E01): the start is then found again by it, not by
   * its tag, meter and time (docs/decisions/0078-one-charger-model-two-protocols.md).
   */
  chargerTransactionId?: string;
}

/** The current version of the strategy a point charges by (none when it has none). */
function currentVersionOf(ctx: SystemCtx, pointId: number) {
  return ctx.db
    .select({ id: chargeStrategies.currentVersionId })
    .from(chargeStrategies)
    .where(
      owned(
        ctx,
        chargeStrategies,
        isNull(chargeStrategies.deletedAt),
        eq(chargeStrategies.id, ctx.db.select({ id: points.chargeStrategyId }).from(points).where(ofPoint(ctx, pointId))),
      ),
    )
    .limit(1);
}

/**
 * StartTransaction (OCPP 1.6 §6.46): always an integer transactionId, also for a refused tag;
 * the same id for a repeated identical start, found through the unique index. A charger whose
 * boot was not Accepted gets an id too, drawn from the same sequence, but its record is ABNORMAL
 * from the start (`notAccepted`, with a review row): never active, never billed, and its tag is
 * not made busy (OCPP 1.6 §4.2).
 */
export const startTransaction = verb(system, async (ctx, pointId: number, start: StartFacts, chargerAccepted: boolean) => {
  const startAt = new Date(start.timestamp);
  const key =
    start.chargerTransactionId === undefined
      ? owned(
          ctx,
          transactions,
          eq(transactions.pointId, pointId),
          eq(transactions.connectorNo, start.connectorId),
          eq(transactions.idTag, start.idTag),
          eq(transactions.meterStartWh, start.meterStart),
          eq(transactions.startAt, startAt),
        )
      : owned(ctx, transactions, eq(transactions.pointId, pointId), eq(transactions.chargerTransactionId, start.chargerTransactionId));
  const [{ idTagInfo, shortfall, roaming }, [repeat], settings] = await Promise.all([
    tagInfo(ctx, pointId, start.idTag, chargerAccepted, "StartTransaction"),
    ctx.db.select({ id: transactions.id, authStatus: transactions.authStatus, status: transactions.status }).from(transactions).where(key).limit(1),
    settingsOf(ctx.db, ctx.operator.id),
  ]);
  if (repeat) {
    const status = repeat.authStatus as AuthorizationStatus;
    return { transactionId: repeat.id, idTagInfo: { ...idTagInfo, status }, repeated: true, active: repeat.status === "ACTIVE", shortfall: status === "Accepted" ? null : shortfall };
  }
  const insertTransaction = ctx.db
    .insert(transactions)
    .values(
      ownedRow(ctx, {
        pointId,
        connectorNo: start.connectorId,
        chargerTransactionId: start.chargerTransactionId ?? null,
        idTag: start.idTag,
        authStatus: idTagInfo.status,
        reservationId: start.reservationId ?? null,
        meterStartWh: start.meterStart,
        startAt,
        ...(!chargerAccepted && { status: "ABNORMAL" as const, abnormalReason: NOT_ACCEPTED }),
        // The strategy version of the point as the server receives the start, read by the insert
        // itself: a charger's timestamp never chooses it (docs/decisions/0022-strategies-are-versioned.md).
        strategySnapshot: { takenAt: new Date(ctx.now()).toISOString() },
        strategyVersionId: sql<number | null>`(${currentVersionOf(ctx, pointId)})`,
      }),
    )
    .onConflictDoNothing()
    .returning({ id: transactions.id, pointId: transactions.pointId });
  // Its charge record, in the operator's currency, in the same batch: the record finds the
  // transaction by the start's unique key, so neither row ever stands without the other
  // (docs/rules/records.md "Record states"). A repeat races to the same rows and changes nothing.
  const sameStart = ctx.db.select({ id: transactions.id }).from(transactions).where(key).limit(1);
  const opened = {
    transactionId: sql<number>`(${sameStart})`,
    pointId,
    connectorNo: start.connectorId,
    idTag: start.idTag,
    chargerTransactionId: start.chargerTransactionId,
    startAt,
    abnormal: !chargerAccepted,
  };
  const [[created], , , [found]] = await ctx.db.batch([
    insertTransaction,
    ...openRecordStatements(ctx, opened, settings.currencyCode, settings.timeZone),
    sameStart,
    // An ad-hoc session's one-time tag binds this transaction to its card hold (docs/rules/payments.md "Ad-hoc payment").
    ...(idTagInfo.status === "Accepted" && chargerAccepted ? bindAdHocStart(ctx, pointId, start.idTag, sql<number>`(${sameStart})`) : []),
  ]);
  // The review rows of a refused start follow; the record is ABNORMAL from its insert on, whatever happens to them.
  if (created && !chargerAccepted) await batchOf(ctx.db, notAcceptedRecords(ctx, created));
  // A card on file is pre-authorised through the queue (docs/rules/payments.md "Sessions paid by card").
  // A partner's driver is owed by its eMSP, never pre-authorised on a card (docs/rules/ocpi.md "Partners' drivers at our chargers").
  if (created && chargerAccepted && idTagInfo.status === "Accepted" && roaming) {
    await roamingSessionStarted(ctx, roaming, { transactionId: created.id, pointId, connectorNo: start.connectorId, startAt });
  } else if (created && chargerAccepted && idTagInfo.status === "Accepted") await queueAuthorisation(ctx, created.id);
  const transactionId = found.id;
  return { transactionId, idTagInfo, repeated: !created, active: chargerAccepted, shortfall };
});

export interface StopFacts {
  transactionId: number;
  idTag?: string;
  meterStop: number;
  timestamp: string;
  reason?: string;
}

/**
 * StopTransaction (OCPP 1.6 §6.47): closes the transaction of this point, which billing then
 * prices. A transaction started while the charger was not accepted stays as it was, with the stop
 * kept for review and nothing to bill; one that is unknown (or another point's) is recorded for
 * review. Every stop is answered normally.
 */
export const stopTransaction = verb(system, async (ctx, pointId: number, stop: StopFacts) => {
  // The registry's word on the tag: its own session does not make it busy.
  const idTagInfo = stop.idTag ? idTagInfoOf((await registryFacts(ctx, pointId, stop.idTag)).tag, { chargerAccepted: true, busy: false, now: ctx.now() }) : undefined;
  const ofThisPoint = owned(ctx, transactions, eq(transactions.id, stop.transactionId), eq(transactions.pointId, pointId));
  const [closed] = await ctx.db
    .update(transactions)
    .set({
      meterStopWh: stop.meterStop,
      stopAt: new Date(stop.timestamp),
      stopReason: stop.reason ?? "Local",
      status: "COMPLETED",
    })
    .where(
      owned(
        ctx,
        transactions,
        ofThisPoint,
        ne(transactions.status, "COMPLETED"),
        or(isNull(transactions.abnormalReason), ne(transactions.abnormalReason, NOT_ACCEPTED)),
      ),
    )
    .returning({ id: transactions.id, connectorNo: transactions.connectorNo });
  if (closed) return { known: true as const, billable: true, connectorId: closed.connectorNo, idTagInfo };
  const [already] = await ctx.db
    .select({ connectorNo: transactions.connectorNo, abnormalReason: transactions.abnormalReason })
    .from(transactions)
    .where(ofThisPoint)
    .limit(1);
  if (already?.abnormalReason === NOT_ACCEPTED) {
    await ctx.db
      .insert(ocppReviews)
      .values(ownedRow(ctx, { pointId, kind: "ABNORMAL" as const, transactionId: stop.transactionId, detail: { reason: NOT_ACCEPTED, stop: { ...stop } } }));
    return { known: true as const, billable: false, connectorId: already.connectorNo, idTagInfo };
  }
  if (already) return { known: true as const, billable: true, connectorId: already.connectorNo, idTagInfo, repeated: true };
  await ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId, kind: "UNKNOWN_STOP" as const, transactionId: stop.transactionId, detail: { ...stop } }));
  return { known: false as const, idTagInfo };
});
