import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { chargeRecords, points, transactions } from "../../../db/schema";
import { currencyDecimals } from "../../../domain/ocpi/cdr-price";
import { mainCurrencyOf, type CurrencySet, type ParameterSettings } from "../../../domain/schemas/settings";
import { outboxMessage } from "../../../domain/schemas/outbox";
import { owned } from "../../../tenants/scope";
import { sealContext, unseal } from "../../auth/sealed";
import type { SystemCtx } from "../context";
import { operatorSettings } from "../settings/parameter-settings";
import { verb } from "../verb";
import { invoiceSystemOf } from "../settings/invoice-system";
import { preAuthOf } from "../payments/capture";
import { queueReceipt } from "../mail/receipts";
import { reportError } from "../../http/report-error";
import { OUTGOING_CALL_MS, outgoingCallSignal } from "../../http/outgoing";

/**
 * What happens to a charge record once billing has settled it (docs/rules/settings.md "Bill push"
 * and "Invoice system"): it is POSTed, signed, to the operator's bill-push URL, and sent as a fiscal
 * invoice request to its invoice system, each through the outbox queue with retries. The outcome
 * (when it was accepted, the invoice number, or the last error) is written on the record.
 */

/**
 * A settled record with its transaction: deliveries are kept on the record, what the charger said
 * on the transaction. A roaming record (a partner's CDR billed to one of our drivers) has no
 * transaction: what its charger said is the CDR's, kept on the record (docs/decisions/0063-roaming-charge-records.md).
 */
const recordOf = async (ctx: SystemCtx, transactionId: number) => {
  const [row] = await ctx.db
    .select({ tx: transactions, serialNumber: points.serialNumber, record: chargeRecords })
    .from(chargeRecords)
    .leftJoin(transactions, and(eq(transactions.id, chargeRecords.transactionId), eq(transactions.operatorId, chargeRecords.operatorId)))
    .leftJoin(points, and(eq(points.id, transactions.pointId), eq(points.operatorId, chargeRecords.operatorId)))
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId)))
    .limit(1);
  if (!row || (!row.tx && !row.record.roaming)) return undefined;
  return row;
};

/** When a record was settled: its transaction's billing, or a roaming record's final price. */
const settledAt = ({ tx, record }: SettledRecord) => (tx ? tx.billedAt : record.roaming && record.pricingPhase === "FINAL" ? record.pricedAt : null);

/** Writes a delivery's outcome on the record. */
const noteOutcome = (ctx: SystemCtx, transactionId: number, outcome: SQLiteUpdateSetSource<typeof chargeRecords>) =>
  ctx.db.update(chargeRecords).set(outcome).where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId)));
type SettledRecord = NonNullable<Awaited<ReturnType<typeof recordOf>>>;

/**
 * Claims a delivery's next attempt: one statement counts the attempt and marks the delivery under
 * way, only while it is neither done nor under way. A queue may hand one message to two consumers
 * at once, or again while the first still runs (docs/testing.md "Chaos"): the one whose claim
 * fails leaves the delivery to the other, whose message is retried if it fails. A claim whose
 * worker died runs out after `CLAIM_MS`, before the queue's retry comes.
 */
async function claimAttempt(ctx: SystemCtx, transactionId: number, delivery: "billPush" | "invoice") {
  const now = ctx.now();
  const [attempts, claimedAt, done] =
    delivery === "billPush"
      ? [chargeRecords.billPushAttempts, chargeRecords.billPushClaimedAt, chargeRecords.billPushedAt]
      : [chargeRecords.invoiceAttempts, chargeRecords.invoiceClaimedAt, chargeRecords.invoiceNumber];
  const claimed = await ctx.db
    .update(chargeRecords)
    .set(delivery === "billPush" ? { billPushAttempts: sql`${attempts} + 1`, billPushClaimedAt: new Date(now) } : { invoiceAttempts: sql`${attempts} + 1`, invoiceClaimedAt: new Date(now) })
    .where(
      owned(
        ctx,
        chargeRecords,
        eq(chargeRecords.transactionId, transactionId),
        isNull(done),
        or(isNull(claimedAt), lt(claimedAt, new Date(now - CLAIM_MS))),
      ),
    )
    .returning({ id: chargeRecords.transactionId });
  return claimed.length === 1;
}

/** Longer than a delivery can take (its fetch is given up after OUTGOING_CALL_MS). */
const CLAIM_MS = OUTGOING_CALL_MS + 5_000;

/**
 * The charge record as pushed, with its amounts in minor units of `currency`, null until priced
 * (docs/decisions/0005-money-in-minor-units.md), and the record's state as `recordStatus`.
 */
export function chargeRecordPayload(ctx: SystemCtx, settled: SettledRecord, settings: ParameterSettings) {
  const { tx, serialNumber, record } = settled;
  const roaming = record.roaming;
  return {
    event: "chargeRecord.settled",
    operatorCode: ctx.operator.code,
    transactionId: record.transactionId,
    // A roaming record's charger is the partner's EVSE, and its facts are the CDR's (docs/rules/settings.md "Bill push").
    serialNumber: serialNumber ?? roaming?.evseId ?? null,
    connectorId: tx?.connectorNo ?? null,
    idTag: tx?.idTag ?? record.idTag,
    status: tx?.status ?? null,
    startTime: (tx?.startAt ?? record.startAt).toISOString(),
    endTime: tx?.stopAt?.toISOString() ?? roaming?.stopAt ?? null,
    stopReason: tx?.stopReason ?? null,
    meterStartWh: tx?.meterStartWh ?? null,
    meterStopWh: tx?.meterStopWh ?? null,
    energyWh: tx?.energyWh ?? roaming?.energyWh ?? null,
    durationS: tx?.durationS ?? (roaming ? Math.max(0, Math.round((Date.parse(roaming.stopAt) - record.startAt.getTime()) / 1000)) : null),
    currency: currencyOf(record, settings),
    settledAt: settledAt(settled)?.toISOString() ?? null,
    recordStatus: record.status,
    customerId: record.customerId,
    paidBy: record.paidBy,
    strategyVersionId: record.strategyVersionId,
    unplugTime: record.unplugAt?.toISOString() ?? null,
    electricCost: record.electricCost,
    serviceCost: record.serviceCost,
    reservationCost: record.reservationCost,
    occupancyCost: record.occupancyCost,
    discountCost: record.discountCost,
    // What each discount took, in the billing order (docs/rules/discounts.md "Billing order"); their sum is `discountCost`.
    memberDiscountCost: record.memberDiscountCost,
    cardDiscountCost: record.cardDiscountCost,
    voucherCost: record.voucherCost,
    taxCost: record.taxCost,
    totalCost: record.totalCost,
    paidCost: record.paidCost,
    balanceBefore: record.balanceBefore,
    balanceAfter: record.balanceAfter,
    // Where a partner's driver-facing session took place, for a roaming record; null otherwise.
    roaming: roaming
      ? { partner: roaming.platformName, countryCode: roaming.countryCode, partyId: roaming.partyId, cdrId: roaming.cdrId, locationName: roaming.locationName, address: roaming.address, city: roaming.city, evseId: roaming.evseId }
      : null,
  };
}

/** A record's currency: the operator's main one, or a roaming record's CDR's other one (docs/rules/ocpi.md "CDRs billed to the wallet"). */
function currencyOf(record: SettledRecord["record"], settings: ParameterSettings): CurrencySet {
  const main = mainCurrencyOf(settings);
  return record.roaming && record.currency !== main.code ? { code: record.currency, sign: record.currency, decimals: currencyDecimals(record.currency) } : main;
}

/**
 * The signature a receiver checks: hex HMAC-SHA-256, under the operator's signature key, of
 * `<timestamp>.<body>`, so that a captured push cannot be replayed with another time.
 */
export function billPushSignature(key: string, timestamp: string, body: string): string {
  return encodeHexLowerCase(hmac(SHA256, new TextEncoder().encode(key), new TextEncoder().encode(`${timestamp}.${body}`)));
}

export const BILL_PUSH_HEADERS = { signature: "X-Plugdesk-Signature", timestamp: "X-Plugdesk-Timestamp", delivery: "X-Plugdesk-Delivery" } as const;

/**
 * Puts the deliveries a settled record still needs on the outbox queue: the bill push when the
 * operator has a URL, the invoice when its invoice system is enabled, the capture of a session
 * pre-authorised on a card. Called by billing each time
 * it meets the record; a record whose deliveries were already tried is not queued again.
 */
export async function queueSettlement(ctx: SystemCtx, transactionId: number) {
  const [record, settings, invoice, preAuth] = await Promise.all([recordOf(ctx, transactionId), operatorSettings(ctx), invoiceSystemOf(ctx), preAuthOf(ctx, transactionId)]);
  // A provisional price is not what the driver pays: the push waits for the final one (docs/rules/billing.md "Provisional and final").
  if (!record || !settledAt(record) || record.record.pricingPhase === "PROVISIONAL") return [];
  const base = { operatorId: ctx.operator.id, operatorCode: ctx.operator.code, transactionId };
  const queued = [
    // A session pre-authorised on a card is paid by capturing it (docs/rules/payments.md "Sessions paid by card").
    ...(preAuth?.status === "AUTHORISED" ? [{ kind: "capture" as const, ...base }] : []),
    ...(settings.billPush.url && !record.record.billPushedAt && record.record.billPushAttempts === 0 ? [{ kind: "billPush" as const, ...base }] : []),
    ...(invoice?.enabled && !record.record.invoiceNumber && record.record.invoiceAttempts === 0 ? [{ kind: "invoice" as const, ...base }] : []),
  ].map((m) => outboxMessage.parse(m));
  if (queued.length) await ctx.env.OUTBOX.sendBatch(queued.map((body) => ({ body })));
  // The driver's receipt (docs/rules/settings.md "Receipts by mail"): a mail must never fail billing.
  const receipt = await queueReceipt(ctx, record.record).catch((error: unknown) => {
    reportError("receipt", error, { transactionId });
    return false;
  });
  return [...queued.map((m) => m.kind), ...(receipt ? (["receipt"] as const) : [])];
}

export type DeliveryOutcome = { done: true; detail?: string } | { done: false; error: string };

const answerText = async (response: Response) => (await response.text().catch(() => "")).slice(0, 300);
const failure = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** The outbox consumer's bill push of one record. `done: false` asks for a retry. */
export const pushChargeRecord = verb({ actors: ["system"] }, async (ctx, transactionId: number): Promise<DeliveryOutcome> => {
  const [record, settings] = await Promise.all([recordOf(ctx, transactionId), operatorSettings(ctx)]);
  const { url, signatureKey } = settings.billPush;
  // Gone, already accepted, or the operator stopped pushing since: nothing to do.
  if (!record || record.record.billPushedAt || !url || !signatureKey) return { done: true, detail: "skipped" };
  if (!(await claimAttempt(ctx, transactionId, "billPush"))) return { done: true, detail: "another delivery has it" };
  const key = await unseal(ctx.env, sealContext(ctx.operator.id, "billPush.signatureKey"), signatureKey);
  const body = JSON.stringify(chargeRecordPayload(ctx, record, settings));
  const timestamp = String(Math.floor(ctx.now() / 1000));
  let error: string | null = null;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        [BILL_PUSH_HEADERS.timestamp]: timestamp,
        [BILL_PUSH_HEADERS.signature]: `sha256=${billPushSignature(key, timestamp, body)}`,
        // The same on every attempt: a receiver that saw it already can drop a retry.
        [BILL_PUSH_HEADERS.delivery]: `${ctx.operator.code}-${transactionId}`,
      },
      body,
      signal: outgoingCallSignal(),
    });
    if (!response.ok) error = `HTTP ${response.status} ${await answerText(response)}`.trim();
  } catch (e) {
    error = failure(e);
  }
  await noteOutcome(ctx, transactionId, {
    billPushedAt: error ? null : new Date(ctx.now()),
    billPushError: error,
    billPushClaimedAt: null,
  });
  return error ? { done: false, error } : { done: true };
});

/** Minor units as the decimal number the invoice system reads. */
const major = (minor: number, decimals: number) => Number((minor / 10 ** decimals).toFixed(decimals));

/**
 * The fiscal invoice request of one record, shaped as the Serbian V-SDC / L-PFR invoice API takes
 * it (`invoiceType`, `transactionType`, `payment`, `items` with tax `labels`). The amount is the
 * record's `totalCost` (0 for a record left unpriced).
 */
export function invoiceRequest(ctx: SystemCtx, settled: SettledRecord, settings: ParameterSettings, cashier: string) {
  const { tx, serialNumber, record } = settled;
  const { decimals } = currencyOf(record, settings);
  const total = major(record.totalCost ?? 0, decimals);
  const kWh = Number(((tx?.energyWh ?? record.roaming?.energyWh ?? 0) / 1000).toFixed(3));
  // A roaming record names the partner's EVSE it charged at (docs/rules/settings.md "Invoice system").
  const where = tx ? `${serialNumber}/${tx.connectorNo}` : (record.roaming?.evseId ?? "");
  return {
    invoiceType: "Normal",
    transactionType: "Sale",
    cashier,
    invoiceNumber: `${ctx.operator.code}-${record.transactionId}`,
    dateAndTimeOfIssue: (settledAt(settled) ?? new Date(ctx.now())).toISOString(),
    payment: [{ amount: total, paymentType: "Other" }],
    items: [
      {
        name: `EV charging ${where}`,
        quantity: kWh,
        unitPrice: kWh > 0 ? Number((total / kWh).toFixed(2)) : 0,
        labels: settings.tax.mark ? [settings.tax.mark] : [],
        totalAmount: total,
      },
    ],
  };
}

/** The outbox consumer's invoice request of one record. `done: false` asks for a retry. */
export const invoiceChargeRecord = verb({ actors: ["system"] }, async (ctx, transactionId: number): Promise<DeliveryOutcome> => {
  const [record, settings, system] = await Promise.all([recordOf(ctx, transactionId), operatorSettings(ctx), invoiceSystemOf(ctx)]);
  if (!record || record.record.invoiceNumber || !system?.enabled || !system.url) return { done: true, detail: "skipped" };
  if (!(await claimAttempt(ctx, transactionId, "invoice"))) return { done: true, detail: "another delivery has it" };
  let number: string | null = null;
  let error: string | null = null;
  try {
    const response = await fetch(system.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        ...(system.account && { Authorization: `Basic ${btoa(`${system.account}:${system.password ?? ""}`)}` }),
        PAC: system.pac,
        // The same on every attempt, so the invoice system can tell a retry from a new sale.
        RequestId: `${ctx.operator.code}-${transactionId}`,
      },
      body: JSON.stringify(invoiceRequest(ctx, record, settings, system.account)),
      signal: outgoingCallSignal(),
    });
    const text = await answerText(response);
    if (!response.ok) {
      error = `HTTP ${response.status} ${text}`.trim();
    } else {
      const answer = (() => {
        try {
          return JSON.parse(text) as { invoiceNumber?: unknown };
        } catch {
          return null;
        }
      })();
      if (typeof answer?.invoiceNumber === "string" && answer.invoiceNumber) number = answer.invoiceNumber.slice(0, 100);
      else error = `No invoice number in the answer: ${text}`.slice(0, 300);
    }
  } catch (e) {
    error = failure(e);
  }
  await noteOutcome(ctx, transactionId, {
    invoiceNumber: number,
    invoicedAt: number ? new Date(ctx.now()) : null,
    invoiceError: error,
    invoiceClaimedAt: null,
  });
  return number ? { done: true, detail: number } : { done: false, error: error ?? "unknown" };
});

