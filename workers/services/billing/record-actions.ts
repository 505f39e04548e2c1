import { eq, inArray } from "drizzle-orm";
import { chargeRecords } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import type { ChargeRecordState } from "../../../domain/schemas/records";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { visible } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { findRecord, presentRecord } from "../charge-records/charge-records";
import type { UserCtx } from "../context";
import { admits, verb } from "../verb";
import { billSession } from "./billing";
import { payerOf } from "../drivers/payer";
import { settleStatements } from "./settlement";

/**
 * The operator's actions on a charge record (docs/rules/billing.md "Record actions"), none with a
 * body, each with an operation-log row: settle, mark complete, mark abnormal, manual unplug, retry
 * a failed payment. Only the finance screen operates; a state an action does not apply to is 409.
 */
const ACTION = { menu: ["finance.chargeRecord"], mutates: true } as const;
/** Settle, retry and unplug debit a wallet (docs/rules/input.md "Idempotency keys"). */
const DEBIT = { ...ACTION, movesMoney: true } as const;

/** The states each action applies to; the console offers an action only where it applies. */
export const RECORD_ACTION_FROM = {
  settle: ["CHARGE_COMPLETE", "RECORD_UNSETTLED"],
  complete: ["CHARGE_COMPLETE", "RECORD_UNSETTLED", "PAY_FAIL", "ABNORMAL"],
  abnormal: ["CHARGING", "CHARGE_COMPLETE", "RECORD_UNSETTLED", "PAY_FAIL"],
  unplug: ["CHARGE_COMPLETE"],
  retry: ["PAY_FAIL"],
} as const satisfies Record<string, readonly ChargeRecordState[]>;
export type RecordAction = keyof typeof RECORD_ACTION_FROM;
export const RECORD_ACTIONS = Object.keys(RECORD_ACTION_FROM) as RecordAction[];

const appliesTo = (action: RecordAction, status: ChargeRecordState) => (RECORD_ACTION_FROM[action] as readonly ChargeRecordState[]).includes(status);

/**
 * The actions a record offers now: its state allows them, and a manual unplug only while a
 * provisional price awaits the car leaving. None when the actor may not operate records.
 */
export function recordActionsOf(ctx: UserCtx, record: { status: ChargeRecordState; pricingPhase: string | null; unplugAt: string | null }): RecordAction[] {
  if (!admits(completeRecord.access, ctx)) return [];
  return RECORD_ACTIONS.filter(
    (action) => appliesTo(action, record.status) && (action !== "unplug" || (record.pricingPhase === "PROVISIONAL" && record.unplugAt === null)),
  );
}

const logged = (ctx: UserCtx, id: number, action: string, from: string, to: string) =>
  auditRow(ctx, { table: "charge_records", module: "chargeRecord", type: "UPDATE", oldData: { id, status: from }, newData: { id, status: to, action } });

async function answer(ctx: UserCtx, id: number) {
  return presentRecord(await findRecord(ctx, id));
}

/** Moves a record from one of `from` to `to`, with its log row, in one batch. */
async function markAs(ctx: UserCtx, rawId: unknown, action: "complete" | "abnormal", to: ChargeRecordState) {
  const from: ChargeRecordState[] = [...RECORD_ACTION_FROM[action]];
  const { record } = await findRecord(ctx, rawId);
  if (!appliesTo(action, record.status)) throw new Conflict("billing.errors.wrongState", { status: record.status });
  const id = record.transactionId;
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(chargeRecords)
      .set({ status: to, updatedAt: new Date(ctx.now()) })
      .where(visible(ctx, chargeRecords, chargeRecords.pointId, eq(chargeRecords.transactionId, id), inArray(chargeRecords.status, from)))
      .returning({ id: chargeRecords.transactionId }),
    logged(ctx, id, action, record.status, to),
  ]);
  if (updated.length === 0) throw new Conflict("billing.errors.wrongState", { status: record.status });
  return answer(ctx, id);
}

/** PUT …/complete: paid some other way (cash at the cashier, a transfer). */
export const completeRecord = verb(ACTION, (ctx, rawId: unknown) =>
  markAs(ctx, rawId, "complete", "RECORD_COMPLETE"),
);

/** PUT …/abnormal: a session the operator will not bill as it stands. */
export const abnormalRecord = verb(ACTION, (ctx, rawId: unknown) =>
  markAs(ctx, rawId, "abnormal", "ABNORMAL"),
);

/** Runs billing on a record the actor may see, then logs what changed. */
async function rebill(ctx: UserCtx, rawId: unknown, action: "settle" | "unplug" | "retry", run: (id: number) => Promise<unknown>) {
  const { record } = await findRecord(ctx, rawId);
  if (!appliesTo(action, record.status)) throw new Conflict("billing.errors.wrongState", { status: record.status });
  const id = record.transactionId;
  await run(id);
  const after = await answer(ctx, id);
  await ctx.db.batch([logged(ctx, id, action, record.status, after.status)]);
  return after;
}

/** PUT …/unplug: the car left now; the idle fee after charging gets its final price and is debited. */
export const unplugRecord = verb(DEBIT, (ctx, rawId: unknown) =>
  rebill(ctx, rawId, "unplug", async (id) => {
    const { record } = await findRecord(ctx, id);
    if (record.pricingPhase !== "PROVISIONAL" || record.unplugAt !== null) throw new Conflict("billing.errors.notAwaitingUnplug");
    await ctx.db
      .update(chargeRecords)
      .set({ unplugAt: new Date(ctx.now()) })
      .where(visible(ctx, chargeRecords, chargeRecords.pointId, eq(chargeRecords.transactionId, id), eq(chargeRecords.pricingPhase, "PROVISIONAL")));
    await billSession(ctx, id);
  }),
);

/**
 * A roaming record in another currency than the wallets' is recorded, never debited
 * (docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md): settle and retry refuse it.
 */
async function walletCurrency(ctx: UserCtx, record: { source: string; currency: string }) {
  if (record.source !== "OCPI") return;
  const main = mainCurrencyOf((await settingsOf(ctx.db, ctx.operator.id)).parameters);
  if (record.currency !== main.code) throw new Conflict("billing.errors.otherCurrency", { currency: record.currency, main: main.code });
}

/** The operator's parameter setting: off, a settlement or retry moves no balance (docs/rules/billing.md "Paying from the balance off"). */
const balancePaymentOf = async (ctx: UserCtx) => (await settingsOf(ctx.db, ctx.operator.id)).parameters.balancePayment;

/** PUT …/settle: price for good now (an idle fee counts until now) and debit whoever is behind the tag today. */
export const settleRecord = verb(DEBIT, (ctx, rawId: unknown) =>
  rebill(ctx, rawId, "settle", async (id) => {
    const { record } = await findRecord(ctx, id);
    if (record.pricingPhase === "PROVISIONAL") return billSession(ctx, id, true);
    if (record.pricingPhase !== "FINAL") throw new Conflict("billing.errors.notPriced");
    await walletCurrency(ctx, record);
    await ctx.db.batch(settleStatements(ctx, id, await payerOf(ctx, record.idTag), await balancePaymentOf(ctx)) as never);
  }),
);

/** PUT …/retry: a failed payment tried again with the balance of today. */
export const retryRecord = verb(DEBIT, (ctx, rawId: unknown) =>
  rebill(ctx, rawId, "retry", async (id) => {
    const { record } = await findRecord(ctx, id);
    await walletCurrency(ctx, record);
    await ctx.db.batch(settleStatements(ctx, id, await payerOf(ctx, record.idTag), await balancePaymentOf(ctx)) as never);
  }),
);

/** Each action's verb, by its name in the URL. */
export const RECORD_ACTION_VERBS = { settle: settleRecord, complete: completeRecord, abnormal: abnormalRecord, unplug: unplugRecord, retry: retryRecord } as const;
