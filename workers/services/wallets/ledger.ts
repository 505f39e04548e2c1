import { sql, type SQL } from "drizzle-orm";
import { d1Statement, isCheckViolation } from "../../../db/statements";
import { formatMoney } from "../../../domain/format";
import { mainCurrencyOf, type ParameterSettings } from "../../../domain/schemas/settings";
import type { UserCtx } from "../context";

/** An amount in minor units as the operator writes it, for a refusal's message ("10.00 zł"). */
export function moneyText(ctx: UserCtx, settings: ParameterSettings, minor: number) {
  return formatMoney(minor, mainCurrencyOf(settings), { language: ctx.lang, decimalSeparator: settings.decimalSeparator });
}

/** A transaction code of ours: a letter for what it is, the UTC time to the second, and 48 random bits. */
export function transactionCode(prefix: "R" | "M", now: number) {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const random = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
  return `${prefix}${new Date(now).toISOString().replace(/\D/g, "").slice(0, 14)}${random}`;
}

/**
 * A bill written from a query in the batch that moves the balance (docs/rules/wallets.md
 * "Bills"): `rows` selects, in this order, operator, customer, cost, balance before and after,
 * level before and after, type, payment method, status, remark and transaction number. The bill
 * is applied when written: its batch moves the balance.
 */
export function billFrom(rows: SQL, now: number) {
  // tenancy: `rows` is the caller's query, which carries its own tenant filter where it is written.
  return sql`INSERT INTO bills (operator_id, customer_id, cost, balance_before, balance_after, member_level_before, member_level_after, type, payment_method, status, remark, transaction_number, applied, created_at, updated_at)
    SELECT *, 1, ${now}, ${now} FROM (${rows})`;
}

/**
 * Runs the statements of one balance movement as one D1 batch; a batch that broke the schema's
 * `guard` check (a balance left below zero by a concurrent change) answers `refusal()` instead
 * (docs/decisions/0045-recharges-guarded-in-one-batch.md).
 */
export async function movement(ctx: UserCtx, statements: Parameters<typeof d1Statement>[1][], guard: string, refusal: () => Promise<Error>) {
  const d1 = ctx.env.DB;
  try {
    await d1.batch(statements.map((s) => d1Statement(d1, s)));
  } catch (error) {
    if (isCheckViolation(error, guard)) throw await refusal();
    throw error;
  }
}
