import { eq } from "drizzle-orm";
import { points, transactions } from "../../../../db/schema";
import type { OcpiCpoDelivery } from "../../../../domain/schemas/ocpi/cpo-sessions";
import { owned } from "../../../../tenants/scope";
import { systemCtx, type SystemCtx } from "../../context";
import { runningCostOf } from "../../pricing/running-cost";
import { dueCdrRetries } from "./cdrs";
import { dueSessionRetries, dueSessionUpdates, roamingSessionProgress } from "./sessions";

/**
 * The housekeeping run's part for our CPO side (docs/rules/ocpi.md "Sessions and CDRs we send"):
 * CDRs whose next try has come, and sessions whose push was refused, go to the push queue again;
 * running roaming sessions whose last push is a minute old or more get their energy and running
 * cost from the charger's own storage and are PATCHed when they moved. The minute trigger runs it
 * alone, so a session is updated about once a minute (workers/jobs/housekeeping.ts `MINUTE_CRON`).
 */
export async function cpoRoamingRound(env: Env, ctx: SystemCtx, actor: string) {
  const [cdrs, sessions] = await Promise.all([dueCdrRetries(ctx), dueSessionRetries(ctx)]);
  const messages = [
    ...cdrs.map((cdr) => ({ body: { kind: "ocpiCpoDelivery", operatorId: cdr.operatorId, operatorCode: cdr.operatorCode, object: "cdr", id: cdr.id } satisfies OcpiCpoDelivery })),
    ...sessions.map((s) => ({ body: { kind: "ocpiCpoDelivery", operatorId: s.operatorId, operatorCode: s.operatorCode, object: "session", id: s.id } satisfies OcpiCpoDelivery })),
  ];
  for (let i = 0; i < messages.length; i += 100) await env.PUSH.sendBatch(messages.slice(i, i + 100));
  for (const session of await dueSessionUpdates(ctx)) {
    if (session.transactionId === null) continue;
    const operatorCtx = systemCtx(env, session, actor, ctx.now);
    await sessionEnergyNow(operatorCtx, session.transactionId);
  }
}

/** A running session's energy and cost so far, from its charger's register readings, PATCHed to the eMSP when they moved. */
export async function sessionEnergyNow(ctx: SystemCtx, transactionId: number) {
  const [row] = await ctx.db
    .select({ tx: transactions, serialNumber: points.serialNumber })
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .where(owned(ctx, transactions, eq(transactions.id, transactionId), eq(transactions.status, "ACTIVE")))
    .limit(1);
  if (!row) return false;
  const { energyWh, cost, tax } = await runningCostOf(ctx, row.tx, row.serialNumber);
  return roamingSessionProgress(ctx, transactionId, { energyWh, costIncl: cost, costExcl: cost - tax });
}
