import { z } from "zod";

/**
 * A billing job: one per StopTransaction. It names the operator, so the consumer prices the
 * transaction as the system acting for that operator (docs/architecture.md "Jobs").
 */
export const billingMessage = z.object({
  transactionId: z.number().int().positive(),
  operatorId: z.number().int().positive(),
  operatorCode: z.string().min(1),
});
export type BillingMessage = z.infer<typeof billingMessage>;
