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

/**
 * A roaming CDR to bill: the `ocpi_cdrs` row a partner's CDR was stored as, billed to the driver
 * behind its token (docs/rules/ocpi.md "CDRs billed to the wallet"). Same queue as the stops.
 */
export const cdrBillingMessage = z.object({
  kind: z.literal("cdr"),
  cdrRowId: z.number().int().positive(),
  operatorId: z.number().int().positive(),
  operatorCode: z.string().min(1),
});
export type CdrBillingMessage = z.infer<typeof cdrBillingMessage>;
