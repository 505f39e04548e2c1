import { ocppReviews } from "../../../db/schema";
import { ownedRow } from "../../../tenants/scope";
import { verb } from "../verb";
import { system } from "./charger-scope";

/**
 * A register reading beyond the connector's power over the time since the previous one
 * (domain/ocpp/resilience.ts `meterJumped`): kept for review, which lists the session as suspect
 * (docs/rules/monitoring.md "Suspect sessions").
 */
export const recordMeterJump = verb(
  system,
  async (ctx, pointId: number, transactionId: number, detail: { connectorId: number; fromWh: number; toWh: number; seconds: number; powerW: number }) => {
    await ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId, kind: "METER_JUMP" as const, transactionId, detail }));
  },
);
