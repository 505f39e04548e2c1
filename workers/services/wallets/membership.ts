import { eq, sql } from "drizzle-orm";
import { bills, customers } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import type { MemberLevel } from "../../../domain/schemas/drivers";
import type { ParameterSettings } from "../../../domain/schemas/settings";
import { MEMBER_SOURCES, memberLevelInput } from "../../../domain/schemas/wallets";
import { owned } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { CUSTOMER_MENU, findCustomer, presentCustomer } from "../drivers/customers";
import { operatorSettings } from "../settings/parameter-settings";
import { verb } from "../verb";
import { billFrom, moneyText, movement, transactionCode } from "./ledger";

/**
 * Membership levels (docs/rules/wallets.md "Membership"): NORMAL, SILVER, GOLD, changed in any
 * direction. A paid level (SILVER, GOLD) costs its monthly fee from the parameter settings times
 * the months bought, paid from the balance alone; NORMAL is free. Each change writes a `Member`
 * bill with the levels before and after, in the batch that moves the balance and the level.
 */

/** The monthly fee of a level, in minor units. */
export function memberFee(settings: Pick<ParameterSettings, "membership">, level: MemberLevel) {
  return level === "GOLD" ? settings.membership.goldFee : level === "SILVER" ? settings.membership.silverFee : 0;
}

const MONTH_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Until when the new level is paid: a renewal adds its months to what is left of the current
 * period, a change of level starts now; NORMAL has no end.
 */
function paidUntil(current: { memberLevel: MemberLevel; memberUntil: Date | null }, level: MemberLevel, months: number, now: number) {
  if (level === "NORMAL") return null;
  const start = current.memberLevel === level && current.memberUntil ? Math.max(now, current.memberUntil.getTime()) : now;
  return new Date(start + months * MONTH_MS);
}

const notCovered = (ctx: UserCtx, settings: ParameterSettings, fee: number, balance: number) =>
  new Conflict("wallets.errors.feeAboveBalance", { fee: moneyText(ctx, settings, fee), balance: moneyText(ctx, settings, balance) });

/** PUT /customer-service/customer/{id}/member-level `{level, months?}`. */
export const setMemberLevel = verb({ menu: CUSTOMER_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = memberLevelInput.parse(raw);
  const [customer, settings] = await Promise.all([findCustomer(ctx, id), operatorSettings(ctx)]);
  const months = input.months ?? 1;
  const fee = memberFee(settings, input.level) * months;
  // The friendly pre-check; the bills' check is what holds when two changes race.
  if (customer.balance < fee) throw notCovered(ctx, settings, fee, customer.balance);
  const now = ctx.now();
  const code = transactionCode("M", now);
  const until = paidUntil(customer, input.level, months, now);
  const theCustomer = owned(ctx, customers, eq(customers.id, customer.id));
  const theBill = owned(ctx, bills, eq(bills.transactionNumber, code));
  await movement(
    ctx,
    [
      billFrom(
        sql`SELECT ${customers.operatorId}, ${customers.id}, ${fee}, ${customers.balance}, ${customers.balance} - ${fee}, ${customers.memberLevel}, ${input.level},
          'Member', 'BALANCE', 'PaySuccess', ${MEMBER_SOURCES.ADMIN}, ${code}
        FROM ${customers} WHERE ${theCustomer}`,
        now,
      ),
      ctx.db
        .update(customers)
        .set({ balance: sql`${customers.balance} - ${fee}`, memberLevel: input.level, memberUntil: until, updatedAt: new Date(now) })
        .where(owned(ctx, customers, eq(customers.id, customer.id), sql`exists (select 1 from ${bills} where ${theBill})`)),
      auditRow(ctx, {
        table: "customers",
        module: "membership",
        type: "UPDATE",
        oldData: { id, memberLevel: customer.memberLevel, memberUntil: customer.memberUntil },
        newData: { id, memberLevel: input.level, months, fee, memberUntil: until, transactionNumber: code },
      }),
    ],
    "bills_member_covered",
    async () => notCovered(ctx, settings, fee, (await findCustomer(ctx, customer.id)).balance),
  );
  return presentCustomer(await findCustomer(ctx, customer.id));
});
