import { z } from "zod";

/**
 * A push job: one thing to send one charger without making anyone wait (docs/rules/pricing.md
 * "Price push"). It names the operator, so the consumer acts as the system for that operator
 * (docs/architecture.md "Jobs").
 */
export const pushMessage = z.object({
  kind: z.literal("price"),
  operatorId: z.number().int().positive(),
  operatorCode: z.string().min(1),
  pointId: z.number().int().positive(),
});
export type PushMessage = z.infer<typeof pushMessage>;
