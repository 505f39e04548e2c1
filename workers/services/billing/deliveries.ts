import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { eq, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { chargeRecords, points, transactions } from "../../../db/schema";
import { mainCurrencyOf, type ParameterSettings } from "../../../domain/schemas/settings";
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

/**
 * What happens to a charge record once billing has settled it (docs/rules/settings.md "Bill push"
 * and "Invoice system"): it is POSTed, signed, to the operator's bill-push URL, and sent as a fiscal
 * invoice request to its invoice system, each through the outbox queue with retries. The outcome
 * (when it was accepted, the invoice number, or the last error) is written on the record.
 */

/** A receiver that hangs must not hold the queue's batch. */
const TIMEOUT_MS = 15_000;

/** A settled record with its transaction: deliveries are kept on the record, what the charger said on the transaction. */
const recordOf = async (ctx: SystemCtx, transactionId: number) => {
  const [row] = await ctx.db
    .select({ tx: transactions, serialNumber: points.serialNumber, record: chargeRecords })
    .from(chargeRecords)
    .innerJoin(transactions, eq(transactions.id, chargeRecords.transactionId))
    .innerJoin(points, eq(points.id, transactions.pointId))
    .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId)))
    .limit(1);
  return row;
};

/** Writes a delivery's outcome on the record. */
const noteOutcome = (ctx: SystemCtx, transactionId: number, outcome: SQLiteUpdateSetSource<typeof chargeRecords>) =>
  ctx.db.update(chargeRecords).set(outcome).where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId)));
type SettledRecord = NonNullable<Awaited<ReturnType<typeof recordOf>>>;

/**
 * The charge record as pushed, with its amounts in minor units of `currency`, null until priced
 * (docs/decisions/0005-money-in-minor-units.md), and the record's state as `recordStatus`.
 */
export function chargeRecordPayload(ctx: SystemCtx, { tx, serialNumber, record }: SettledRecord, settings: ParameterSettings) {
  return {
    event: "chargeRecord.settled",
    operatorCode: ctx.operator.code,
    transactionId: tx.id,
    serialNumber,
    connectorId: tx.connectorNo,
    idTag: tx.idTag,
    status: tx.status,
    startTime: tx.startAt.toISOString(),
    endTime: tx.stopAt?.toISOString() ?? null,
    stopReason: tx.stopReason,
    meterStartWh: tx.meterStartWh,
    meterStopWh: tx.meterStopWh,
    energyWh: tx.energyWh,
    durationS: tx.durationS,
    currency: mainCurrencyOf(settings),
    settledAt: tx.billedAt?.toISOString() ?? null,
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
  };
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
  if (!record?.tx.billedAt || record.record.pricingPhase === "PROVISIONAL") return [];
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
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) error = `HTTP ${response.status} ${await answerText(response)}`.trim();
  } catch (e) {
    error = failure(e);
  }
  await noteOutcome(ctx, transactionId, {
    billPushedAt: error ? null : new Date(ctx.now()),
    billPushError: error,
    billPushAttempts: sql`${chargeRecords.billPushAttempts} + 1`,
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
export function invoiceRequest(ctx: SystemCtx, { tx, serialNumber, record }: SettledRecord, settings: ParameterSettings, cashier: string) {
  const currency = mainCurrencyOf(settings);
  const total = major(record.totalCost ?? 0, currency.decimals);
  const kWh = Number(((tx.energyWh ?? 0) / 1000).toFixed(3));
  return {
    invoiceType: "Normal",
    transactionType: "Sale",
    cashier,
    invoiceNumber: `${ctx.operator.code}-${tx.id}`,
    dateAndTimeOfIssue: (tx.billedAt ?? new Date(ctx.now())).toISOString(),
    payment: [{ amount: total, paymentType: "Other" }],
    items: [
      {
        name: `EV charging ${serialNumber}/${tx.connectorNo}`,
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
      signal: AbortSignal.timeout(TIMEOUT_MS),
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
    invoiceAttempts: sql`${chargeRecords.invoiceAttempts} + 1`,
  });
  return number ? { done: true, detail: number } : { done: false, error: error ?? "unknown" };
});

