import { eq, lte, ne, sql } from "drizzle-orm";
import { operators } from "../../../db/schema";
import { bills, customers } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import type { MemberLevel } from "../../../domain/schemas/drivers";
import type { ParameterSettings } from "../../../domain/schemas/settings";
import { MEMBER_EXPIRED_REMARK, MEMBER_SOURCES, memberLevelInput } from "../../../domain/schemas/wallets";
import { acrossTenants, owned } from "../../../tenants/scope";
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
export const setMemberLevel = verb({ menu: CUSTOMER_MENU, mutates: true, movesMoney: true }, async (ctx, id: number, raw: unknown) => {
  const input = memberLevelInput.parse(raw);
  const [customer, settings] = await Promise.all([findCustomer(ctx, id), operatorSettings(ctx)]);
  const months = input.months ?? 1;
  const fee = memberFee(settings, input.level) * months;
  // The friendly pre-check; the bills' check is what holds when two changes race.
  if (fee > 0 && customer.balance < fee) throw notCovered(ctx, settings, fee, customer.balance);
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
          'Member', 'BALANCE', 'PaySuccess', ${input.source ?? MEMBER_SOURCES.ADMIN}, ${code}
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

/** The paid levels whose period has ended, for the housekeeping cron; the operators they belong to. */
export const operatorsWithExpiredLevels = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .selectDistinct({ id: operators.id, code: operators.code })
    .from(customers)
    .innerJoin(operators, eq(operators.id, customers.operatorId))
    .where(acrossTenants("housekeeping finds every operator whose customers' paid levels ended", ne(customers.memberLevel, "NORMAL"), lte(customers.memberUntil, new Date(ctx.now()))))
    .limit(500),
);

/**
 * Lowers the operator's paid levels whose period has ended to NORMAL (docs/rules/wallets.md
 * "Membership"): in one batch, a `Member` bill for each (no fee, the levels before and after,
 * remark `EXPIRED`) and the level; both statements select the same customers, and the second
 * runs after the first inside the batch, so a customer is lowered exactly when its bill is written.
 */
export const expireMemberships = verb({ actors: ["system"] }, async (ctx) => {
  const now = ctx.now();
  const expired = (c: typeof customers) => owned(ctx, c, ne(c.memberLevel, "NORMAL"), lte(c.memberUntil, new Date(now)));
  const code = transactionCode("M", now);
  const [written] = await ctx.db.batch([
    ctx.db
      .insert(bills)
      .select(
        sql`select null, ${customers.operatorId}, ${customers.id}, 0, ${customers.balance}, ${customers.balance}, ${customers.memberLevel}, 'NORMAL', 'Member', 'BALANCE',
              'PaySuccess', ${MEMBER_EXPIRED_REMARK}, ${code} || '-' || ${customers.id}, null, null, 1, ${now}, ${now}
            from ${customers} where ${expired(customers)}`,
      )
      .returning({ id: bills.id }),
    ctx.db.update(customers).set({ memberLevel: "NORMAL", memberUntil: null, updatedAt: new Date(now) }).where(expired(customers)),
    auditRow(ctx, { table: "customers", module: "membership", type: "UPDATE", newData: { expiredBefore: new Date(now).toISOString(), memberLevel: "NORMAL" } }),
  ]);
  return { lowered: written.length };
});

