import { z } from "zod";

/**
 * The outbox queue's messages (docs/rules/settings.md "The outbox queue",
 * docs/decisions/0037-one-outbox-queue-for-outgoing-deliveries.md): a mail, a charge record for the
 * bill-push URL, a charge record for the invoice system, or a session's card pre-authorisation
 * or capture (docs/rules/payments.md "Sessions paid by card"). Each names its operator, so the
 * consumer delivers as the system acting for that operator; a mail carries its rendered text
 * sealed, since it may hold an initial password.
 */
const operator = { operatorId: z.number().int().positive(), operatorCode: z.string().min(1) };

export const outboxMessage = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mail"), ...operator, sealed: z.string().min(1) }),
  z.object({ kind: z.literal("billPush"), ...operator, transactionId: z.number().int().positive() }),
  z.object({ kind: z.literal("invoice"), ...operator, transactionId: z.number().int().positive() }),
  z.object({ kind: z.literal("authorise"), ...operator, transactionId: z.number().int().positive() }),
  z.object({ kind: z.literal("capture"), ...operator, transactionId: z.number().int().positive() }),
  // The driver's receipt of a settled record, rendered when delivered (docs/rules/settings.md "Receipts by mail").
  z.object({ kind: z.literal("receipt"), ...operator, transactionId: z.number().int().positive() }),
]);
export type OutboxMessage = z.infer<typeof outboxMessage>;

/** Seconds before the next attempt: doubling from 30 s, at most an hour. */
export const retryDelayS = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
