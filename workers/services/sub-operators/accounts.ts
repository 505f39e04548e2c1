import { and, asc, count, eq, or } from "drizzle-orm";
import { containing } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { operators } from "../../../db/schema";
import { Forbidden, NotFound } from "../../../domain/errors";
import { validityOf } from "../../../domain/operator-validity";
import {
  financeQuery,
  operatorStatusInput,
  subOperatorInfoInput,
  subOperatorInput,
  subOperatorAccountsQuery,
  subOperatorUpdateInput,
} from "../../../domain/schemas/platform";
import { settingsOf, type OperatorRow } from "../../../tenants/resolve";
import { invalidateOperatorSessions } from "../../auth/session";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { profileColumns, provision } from "../platform/provision";
import { periodSums } from "../statements/sums";
import { verb } from "../verb";
import { operatorPage } from "../platform/operator-pages";

/**
 * Sub-operator management (docs/rules/platform.md "Sub-operators"): a main operator creates its
 * sub-operators on /SubOperator/operatorAcount (add, edit, detail, enable), sees each one's
 * sessions and revenue on /SubOperator/operatorFinance; a sub-operator edits its own info on
 * /suboperators/subOperatorInfo. These menus exist only for operator codes starting with 0PL
 * (tenants/menu-catalogue.ts, docs/rules/access.md "Menus are permissions").
 */
export const SUB_ACCOUNT_MENU = "subOperator.account";
export const SUB_FINANCE_MENU = "subOperator.finance";
export const SUB_INFO_MENU = "sub.system.info";

/** Only a main operator has sub-operators. */
function requireParent(ctx: UserCtx) {
  if (ctx.operator.sub === 1) throw new Forbidden();
}

const ofParent = (ctx: UserCtx) => and(eq(operators.parentId, ctx.operator.id), eq(operators.sub, 1));

const iso = (d: Date | null) => d?.toISOString() ?? null;

const present = (row: OperatorRow, now: number) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  status: row.status,
  validity: validityOf(row, now),
  validFrom: iso(row.validFrom),
  validUntil: iso(row.validUntil),
  contactName: row.contactName,
  contactPhone: row.contactPhone,
  contactEmail: row.contactEmail,
  chargeAccount: row.chargeAccount,
  clearingAccount: row.clearingAccount,
  cardPaymentAccount: row.cardPaymentAccount,
  paypalAccount: row.paypalAccount,
  homeUrl: row.homeUrl,
  openingHours: row.openingHours,
  createdAt: row.createdAt.toISOString(),
});

/** One of this operator's sub-operators; anyone else's is 404. */
async function findSub(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select().from(operators).where(and(ofParent(ctx), eq(operators.id, id))).limit(1);
  if (!row) throw new NotFound("monitoring.errors.subOperatorNotFound");
  return row;
}

export const listSubOperators = verb({ menu: SUB_ACCOUNT_MENU }, async (ctx, raw: unknown) => {
  requireParent(ctx);
  const q = subOperatorAccountsQuery.parse(raw);
  const where = and(
    ofParent(ctx),
    q.name ? or(containing(operators.name, q.name), containing(operators.code, q.name)) : undefined,
    q.status ? eq(operators.status, q.status) : undefined,
  );
  return operatorPage(ctx, q, where, present);
});

export const getSubOperator = verb({ menu: SUB_ACCOUNT_MENU }, async (ctx, id: number) => {
  requireParent(ctx);
  return present(await findSub(ctx, id), ctx.now());
});

/**
 * POST /user-service/sub-operator: the sub-operator, its settings (the parent's time zone,
 * currency and language), a SUPER role and its first account with an initial password shown
 * once, in one batch; it has its parent's edition.
 */
export const createSubOperator = verb({ menu: SUB_ACCOUNT_MENU, mutates: true }, async (ctx, raw: unknown) => {
  requireParent(ctx);
  const input = subOperatorInput.parse(raw);
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  return provision(ctx, {
    code: input.code,
    name: input.name,
    edition: ctx.operator.edition,
    parentId: ctx.operator.id,
    operator: { ...profileColumns(input), validFrom: input.validFrom ?? null, validUntil: input.validUntil ?? null },
    settings: {
      defaultLanguage: settings.parameters.defaultLanguage,
      timeZone: settings.timeZone,
      currency: settings.currencyCode,
      currencySign: settings.currencySign,
      currencyDecimals: settings.currencyDecimals,
    },
    domains: [],
    admin: input.admin,
    module: "subOperator",
  });
});

export const updateSubOperator = verb({ menu: SUB_ACCOUNT_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  requireParent(ctx);
  const before = await findSub(ctx, id);
  const input = subOperatorUpdateInput.parse(raw);
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db
      .update(operators)
      .set({ ...profileColumns(input), validFrom: input.validFrom ?? null, validUntil: input.validUntil ?? null, updatedAt: now })
      .where(and(ofParent(ctx), eq(operators.id, id))),
    auditRow(ctx, { table: "operators", module: "subOperator", type: "UPDATE", oldData: present(before, ctx.now()), newData: { code: before.code, ...input } }),
  ]);
  return present(await findSub(ctx, id), ctx.now());
});

/** Enable or disable a sub-operator: disabling ends its sessions and refuses its logins. */
export const setSubOperatorStatus = verb({ menu: SUB_ACCOUNT_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  requireParent(ctx);
  const before = await findSub(ctx, id);
  const { status } = operatorStatusInput.parse(raw);
  await ctx.db.batch([
    ctx.db.update(operators).set({ status, updatedAt: new Date(ctx.now()) }).where(and(ofParent(ctx), eq(operators.id, id))),
    ...(status === "INVALID" ? [invalidateOperatorSessions(ctx.db, id)] : []),
    auditRow(ctx, { table: "operators", module: "subOperator", type: "UPDATE", oldData: { code: before.code, status: before.status }, newData: { code: before.code, status } }),
  ]);
  return present({ ...before, status }, ctx.now());
});

/**
 * /SubOperator/operatorFinance: each sub-operator's billed sessions, energy and revenue by cost
 * line on the devices assigned to it, in a period, summed as the statements sum them
 * (docs/rules/statements.md "Sub-operators"); `priced` says whether any of them had a price.
 */
export const subOperatorFinance = verb({ menu: SUB_FINANCE_MENU }, async (ctx, raw: unknown) => {
  requireParent(ctx);
  const q = financeQuery.parse(raw);
  const where = and(ofParent(ctx), q.name ? or(containing(operators.name, q.name), containing(operators.code, q.name)) : undefined);
  const page = await pageOf(
    q,
    ({ limit, offset }) => ctx.db.select().from(operators).where(where).orderBy(asc(operators.code), asc(operators.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(operators).where(where))[0].total,
  );
  const records = await Promise.all(
    page.records.map(async (sub) => {
      // The sub-operator's view of its parent's devices (tenants/scope.ts `visible`).
      const scope = { db: ctx.db, operator: { id: sub.id, sub: 1, parentId: ctx.operator.id } };
      const sums = await periodSums(scope, q.from?.getTime(), q.to?.getTime());
      return {
        id: sub.id,
        code: sub.code,
        name: sub.name,
        status: sub.status,
        ...sums,
        revenue: sums.pricedSessions === 0 ? null : sums.totalCost,
        priced: sums.pricedSessions > 0,
      };
    }),
  );
  return { ...page, records };
});

/** /suboperators/subOperatorInfo: the sub-operator's own record, with its parent's name. */
export const subOperatorInfo = verb({ menu: SUB_INFO_MENU }, async (ctx) => {
  if (ctx.operator.sub !== 1) throw new Forbidden();
  const [parent] = ctx.operator.parentId
    ? await ctx.db.select({ code: operators.code, name: operators.name }).from(operators).where(eq(operators.id, ctx.operator.parentId)).limit(1)
    : [];
  return { ...present(ctx.operator, ctx.now()), parent: parent ?? null };
});

/** subOperatorInfoEdit: the sub-operator changes its own contact and accounts, never its code or validity. */
export const updateSubOperatorInfo = verb({ menu: SUB_INFO_MENU, mutates: true }, async (ctx, raw: unknown) => {
  if (ctx.operator.sub !== 1) throw new Forbidden();
  const input = subOperatorInfoInput.parse(raw);
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db.update(operators).set({ ...profileColumns(input), updatedAt: now }).where(eq(operators.id, ctx.operator.id)),
    auditRow(ctx, { table: "operators", module: "subOperatorInfo", type: "UPDATE", oldData: present(ctx.operator, ctx.now()), newData: input }),
  ]);
  const [row] = await ctx.db.select().from(operators).where(eq(operators.id, ctx.operator.id)).limit(1);
  return present(row, ctx.now());
});
