import { eq, sql } from "drizzle-orm";
import { chargeRecords, customers, mailSettings, receiptMails } from "../../../db/schema";
import { outboxMessage } from "../../../domain/schemas/outbox";
import { owned, ownedRow } from "../../../tenants/scope";
import { payerOf } from "../drivers/payer";
import { adHocOfTransaction } from "../payments/ad-hoc";
import { recordRows } from "../charge-records/charge-records";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { linkOriginOf, mailTransportOf } from "./mail-settings";
import { renderMail } from "./templates";
import { deliver, MailRefused } from "./transport";

/**
 * Receipts by mail (docs/rules/settings.md "Receipts by mail"): when billing settles a priced
 * record whose driver (the customer behind the tag) has an e-mail, and the operator has a mail
 * server, the receipt goes out through the outbox queue, once per record. Billing only queues a
 * message naming the record; the consumer renders and sends it, so billing never waits on mail.
 */

/** Addresses left by an erased customer (docs/rules/maintenance.md "Account deletion") are not mailed. */
export const mailable = (email: string | null | undefined): email is string => Boolean(email) && !email!.endsWith("@invalid");

async function driverEmail(ctx: SystemCtx, customerId: number | null, idTag: string, transactionId: number) {
  // An ad-hoc session's receipt goes to the address the driver gave on the charger's page, if any (docs/rules/payments.md "Ad-hoc payment").
  const adHoc = await adHocOfTransaction(ctx, transactionId);
  if (adHoc) return mailable(adHoc.email) ? adHoc.email : null;
  const id = customerId ?? (await payerOf(ctx, idTag))?.customerId ?? null;
  if (id === null) return null;
  const [customer] = await ctx.db.select({ email: customers.email }).from(customers).where(owned(ctx, customers, eq(customers.id, id))).limit(1);
  return mailable(customer?.email) ? customer.email : null;
}

const stateOf = async (ctx: SystemCtx, transactionId: number) =>
  (await ctx.db.select().from(receiptMails).where(owned(ctx, receiptMails, eq(receiptMails.transactionId, transactionId))).limit(1))[0];

/**
 * Billing's half, for a settled record: queues the receipt when it is due and was never queued.
 * The row is written after the message is sent, so a failed send is tried again when billing is
 * retried; a message sent twice is mailed once (the consumer checks the row).
 */
export async function queueReceipt(
  ctx: SystemCtx,
  record: { transactionId: number; customerId: number | null; idTag: string; totalCost: number | null },
): Promise<boolean> {
  if (record.totalCost === null) return false;
  const [server] = await ctx.db.select({ type: mailSettings.type }).from(mailSettings).where(owned(ctx, mailSettings)).limit(1);
  if (!server || (await stateOf(ctx, record.transactionId))) return false;
  if (!(await driverEmail(ctx, record.customerId, record.idTag, record.transactionId))) return false;
  await ctx.env.OUTBOX.send(outboxMessage.parse({ kind: "receipt", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, transactionId: record.transactionId }));
  await ctx.db
    .insert(receiptMails)
    .values(ownedRow(ctx, { transactionId: record.transactionId, createdAt: new Date(ctx.now()) }))
    .onConflictDoNothing();
  return true;
}

/** Writes the outcome of an attempt on the receipt's row. */
function noteAttempt(ctx: SystemCtx, transactionId: number, outcome: { to?: string; sentAt?: Date; error: string | null }) {
  return ctx.db
    .insert(receiptMails)
    .values(ownedRow(ctx, { transactionId, ...outcome, attempts: 1, createdAt: new Date(ctx.now()) }))
    .onConflictDoUpdate({ target: [receiptMails.operatorId, receiptMails.transactionId], set: { ...outcome, attempts: sql`${receiptMails.attempts} + 1` } });
}

export type ReceiptOutcome = { done: true; detail: string } | { done: false; error: string };

/** The outbox consumer's half: renders the receipt in the operator's language and sends it, once. */
export const mailReceipt = verb({ actors: ["system"] }, async (ctx: SystemCtx, transactionId: number): Promise<ReceiptOutcome> => {
  const state = await stateOf(ctx, transactionId);
  if (state?.sentAt) return { done: true, detail: "already sent" };
  const transport = await mailTransportOf(ctx);
  if (!transport) return { done: true, detail: "no mail server" };
  const [row] = await recordRows(ctx, owned(ctx, chargeRecords, eq(chargeRecords.transactionId, transactionId))).limit(1);
  const to = row && row.record.totalCost !== null ? await driverEmail(ctx, row.record.customerId, row.record.idTag, transactionId) : null;
  if (!row || !to) {
    await noteAttempt(ctx, transactionId, { error: "no e-mail address" });
    return { done: true, detail: "no e-mail address" };
  }
  const origin = await linkOriginOf(ctx);
  const mail = await renderMail(ctx, {
    to,
    template: "receipt",
    params: {
      transactionId,
      station: row.stationName ?? row.pointName ?? row.serialNumber ?? "",
      energyWh: row.transaction?.energyWh ?? 0,
      amount: row.record.totalCost!,
      startedAt: row.record.startAt.toISOString(),
      ...(origin && { receiptUrl: `${origin}/tourist/chargingRecordDetails/${row.record.receiptToken}` }),
    },
  });
  try {
    await deliver(transport, mail);
  } catch (error) {
    if (!(error instanceof MailRefused)) throw error;
    await noteAttempt(ctx, transactionId, { error: error.message });
    return { done: false, error: error.message };
  }
  await noteAttempt(ctx, transactionId, { to, sentAt: new Date(ctx.now()), error: null });
  return { done: true, detail: to };
});
