import { groupBy } from "../../db/paging";
import { sweepAdHoc } from "../services/payments/ad-hoc";
import { platformCtx, systemCtx } from "../services/context";
import { purgeExpired } from "../services/auth/expiry";
import { markSilent, silentTransactions } from "../services/ocpp/transaction-reviews";
import { billPackagesForDay } from "../services/platform/package-billing";
import { duePushItems } from "../services/driver-services/local-list-delivery";
import { expireReservations } from "../services/driver-services/reservations";
import type { LocalListPush } from "../../domain/schemas/driver-services";
import { billTransaction, dueFinalPricings } from "../services/billing/billing";
import { expireMemberships, operatorsWithExpiredLevels } from "../services/wallets/membership";
import { pendingCdrs } from "../services/ocpi/cdr-billing";
import type { CdrBillingMessage } from "../../domain/schemas/billing";
import { backfillRecordCounts, recordCountGaps } from "../services/charge-records/backfill";
import { duePullPlatforms, queueDuePulls } from "../services/ocpi/pulls";
import { lostTokenPushes } from "../services/ocpi/token-push";
import { lostCpoPushes } from "../services/ocpi/cpo-push";
import type { OcpiCpoPush } from "../../domain/schemas/ocpi/cpo";
import { cpoRoamingRound } from "../services/ocpi/cpo/rounds";
import type { OcpiTokenPush } from "../../domain/schemas/ocpi/sync";
import { slices } from "../../domain/slices";
import { reportError } from "../http/report-error";
import { DEFAULT_BUDGET, retentionOperators, runRetention, type RetentionBudget } from "../services/retention/archive";

/** The daily trigger of wrangler.toml: price packages are billed then (docs/rules/platform.md "Daily billing"). */
export const DAILY_CRON = "0 1 * * *";

/**
 * The minute trigger of wrangler.toml: only what runs while someone watches it, each round light
 * (a query for what is due, then one call per due item): roaming sessions at our chargers PATCHed
 * with their energy and cost about once a minute (docs/rules/ocpi.md "Sessions and CDRs we send"),
 * and ad-hoc sessions whose page was closed (docs/rules/payments.md "Ad-hoc payment").
 */
export const MINUTE_CRON = "* * * * *";

async function minuteRound(env: Env, ctx: Awaited<ReturnType<typeof platformCtx>>) {
  await cpoRoamingRound(env, ctx, `cron ${MINUTE_CRON}`);
  await sweepAdHoc(ctx);
}

/** A push item still waiting this long after it was queued is handed to the queue again. */
export const STALE_PUSH_MS = 10 * 60 * 1000;

/** Transactions of chargers silent this long are marked ABNORMAL (docs/rules/ocpp.md "Transactions"). */
export const SILENT_TRANSACTION_MS = 6 * 60 * 60 * 1000;

/**
 * Cron (wrangler.toml triggers), as the system: drop expired sessions, captchas and old login
 * failures; mark the transactions of long-silent chargers ABNORMAL, each operator's through its
 * own verb call so that its operation log shows what the system did; give the idle fees after
 * charging their final price once the car left or a day has passed; recount the daily record
 * counts of operators whose counts fell behind their records.
 */
export async function housekeeping(env: Env, cron: string, scheduledTime: number) {
  const now = () => scheduledTime;
  const ctx = await platformCtx(env, `cron ${cron}`, now);
  if (cron === MINUTE_CRON) return minuteRound(env, ctx);
  await purgeExpired(ctx);
  const silent = await silentTransactions(ctx, new Date(scheduledTime - SILENT_TRANSACTION_MS));
  for (const rows of groupBy(silent, (t) => t.operatorId).values()) {
    await markSilent(
      systemCtx(env, rows[0], `cron ${cron}`, now),
      rows.map((t) => t.id),
    );
  }
  if (cron === DAILY_CRON) await billPackagesForDay(ctx);
  // Paid membership levels whose period ended go back to NORMAL (docs/rules/wallets.md "Membership").
  for (const operator of await operatorsWithExpiredLevels(ctx)) {
    await expireMemberships(systemCtx(env, operator, `cron ${cron}`, now));
  }
  await driverServices(env, ctx);
  // Idle fees after charging that no unplug ended are priced for good (docs/rules/billing.md "Provisional and final").
  const due = await dueFinalPricings(ctx);
  for (const rows of groupBy(due, (r) => r.operatorId).values()) {
    const operatorCtx = systemCtx(env, rows[0], `cron ${cron}`, now);
    for (const { id } of rows) await billTransaction(operatorCtx, id);
  }
  await pendingCdrBilling(env, ctx);
  // Ad-hoc sessions whose page was closed: released, stopped at the hold, finished (docs/rules/payments.md "Ad-hoc payment").
  await sweepAdHoc(ctx);
  await backfillRecordCountsOf(env, ctx, cron);
  await roamingPulls(env, ctx, `cron ${cron}`);
  // Our CPO side: CDRs due for another try, running roaming sessions' energy (docs/rules/ocpi.md "Sessions and CDRs we send").
  await cpoRoamingRound(env, ctx, `cron ${cron}`);
  await archiveHistory(env, ctx, cron);
  console.log(`housekeeping (${cron}) done`);
}

/** Messages to a queue, at most 100 per `sendBatch` (the queue's limit). */
async function sendAll<T>(queue: Queue<T>, messages: MessageSendRequest<T>[]) {
  for (const batch of slices(messages, 100)) await queue.sendBatch(batch);
}

/** Partners' CDRs still waiting for billing go to the billing queue again (docs/rules/ocpi.md "CDRs billed to the wallet"). */
async function pendingCdrBilling(env: Env, ctx: Awaited<ReturnType<typeof platformCtx>>) {
  const pending = await pendingCdrs(ctx);
  const messages = pending.map((c) => ({ body: { kind: "cdr", cdrRowId: c.id, operatorId: c.operatorId, operatorCode: c.operatorCode } satisfies CdrBillingMessage }));
  await sendAll(env.BILLING, messages);
}

/**
 * Daily record counts for records made before the counts existed, a month per batch, resumed at
 * the next run where counts still differ (docs/decisions/0069-daily-record-counts-backfilled-by-housekeeping.md).
 */
export async function backfillRecordCountsOf(env: Env, ctx: Awaited<ReturnType<typeof platformCtx>>, cron: string) {
  for (const operator of await recordCountGaps(ctx)) {
    await backfillRecordCounts(systemCtx(env, operator, `cron ${cron}`, ctx.now));
  }
}

/**
 * Registered roaming partners' senders not pulled for a while are queued, each platform as its
 * own operator; the pages are read by the push queue (docs/rules/ocpi.md "Pulls"). Token pushes
 * waiting long after they were queued are queued again.
 */
async function roamingPulls(env: Env, ctx: Awaited<ReturnType<typeof platformCtx>>, actor: string) {
  for (const p of await duePullPlatforms(ctx)) {
    await queueDuePulls(systemCtx(env, p, actor, ctx.now), p.platformId);
  }
  // Token pushes whose message was lost go to the queue again (docs/rules/ocpi.md "Token pushes").
  const lost = await lostTokenPushes(ctx, new Date(ctx.now() - STALE_PUSH_MS));
  const messages = lost.map((p) => ({ body: { kind: "ocpiToken", pushId: p.pushId, operatorId: p.operatorId, operatorCode: p.operatorCode } satisfies OcpiTokenPush }));
  await sendAll(env.PUSH, messages);
  // So do pushes of what we publish as a CPO (docs/rules/ocpi.md "Pushes of what we publish").
  const lostPublished = await lostCpoPushes(ctx, new Date(ctx.now() - STALE_PUSH_MS));
  await sendAll(env.PUSH, lostPublished.map((p) => ({ body: { kind: "ocpiCpoPush", pushId: p.pushId, operatorId: p.operatorId, operatorCode: p.operatorCode } satisfies OcpiCpoPush })));
}

/**
 * Reservations past their expiry become finished; offline-list items whose effective time has
 * come (or whose message was lost) go to the push queue (docs/rules/driver-services.md).
 */
async function driverServices(env: Env, ctx: Awaited<ReturnType<typeof platformCtx>>) {
  const now = ctx.now();
  await expireReservations(ctx, new Date(now));
  const due = await duePushItems(ctx, new Date(now), new Date(now - STALE_PUSH_MS));
  const messages = due.map((d) => ({ body: { kind: "localList", itemId: d.itemId, operatorId: d.operatorId, operatorCode: d.operatorCode } satisfies LocalListPush }));
  await sendAll(env.PUSH, messages);
}

/**
 * History past each operator's retention goes to R2 and leaves D1 and the chargers' objects, in
 * batches within a budget per operator and run; what is left waits for the next run
 * (docs/rules/settings.md "Retention"). One operator's failure does not stop the others.
 */
export async function archiveHistory(env: Env, ctx: Awaited<ReturnType<typeof platformCtx>>, cron: string, budget: RetentionBudget = DEFAULT_BUDGET) {
  for (const operator of await retentionOperators(ctx)) {
    try {
      await runRetention(systemCtx(env, operator, `cron ${cron}`, ctx.now), budget);
    } catch (error) {
      reportError(`retention of operator ${operator.code}`, error);
    }
  }
}
