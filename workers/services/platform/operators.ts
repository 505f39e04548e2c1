import { and, asc, eq, gt, isNull, lte, or, type SQL } from "drizzle-orm";
import { containing, startingWith } from "../../../db/like";
import { accounts, operatorDomains, operators, parameterSettings, points } from "../../../db/schema";
import { currencyFacts } from "../../../domain/currency";
import { Forbidden, NotFound } from "../../../domain/errors";
import { validityOf } from "../../../domain/operator-validity";
import {
  operatorInput,
  operatorListQuery,
  operatorStatusInput,
  operatorUpdateInput,
  type OperatorUpdateInput,
  type Validity,
} from "../../../domain/schemas/platform";
import { isSuper } from "../../../tenants/permissions";
import { settingsOf, type OperatorRow } from "../../../tenants/resolve";
import { ownedBy, ownedRows } from "../../../tenants/scope";
import { seal } from "../../auth/sealed";
import { invalidateOperatorSessions } from "../../auth/session";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";
import { registrationChanged } from "../points/charger-object";
import { slices } from "../../../db/statements";
import { assertDomainsFree, profileColumns, provision } from "./provision";
import { operatorPage } from "./operator-pages";

/**
 * Platform › Operators (`/platform-service/operator`, docs/rules/platform.md "Operators"): the
 * platform's SUPER accounts provision operators, edit them, change their edition and validity,
 * and disable them. Only the platform's own tenant has this menu; the verbs check the tenant and
 * the SUPER type as well, so a role given the code elsewhere could not use them.
 */
export const OPERATOR_MENU = "platform.operator";

/** The EIPA password's sealing purpose (workers/auth/sealed.ts). */
export const EIPA_SEAL = "operator eipa password";

export function requirePlatformSuper(ctx: UserCtx) {
  if (ctx.operator.kind !== "PLATFORM" || !isSuper(ctx.actor)) throw new Forbidden("errors.superOnly");
}

/** The platform's operators: main operators (sub-operators belong to their parents). */
const mainOperator = and(eq(operators.kind, "OPERATOR"), eq(operators.sub, 0));

/** SQL for an operator's validity at `now` (the same rule as domain/operator-validity.ts). */
function validityIs(validity: Validity, now: Date): SQL | undefined {
  const enabled = eq(operators.status, "VALID");
  const notEnded = or(isNull(operators.validUntil), gt(operators.validUntil, now));
  const begun = or(isNull(operators.validFrom), lte(operators.validFrom, now));
  switch (validity) {
    case "disabled":
      return eq(operators.status, "INVALID");
    case "expired":
      return and(enabled, lte(operators.validUntil, now));
    case "future":
      return and(enabled, notEnded, gt(operators.validFrom, now));
    case "valid":
      return and(enabled, notEnded, begun);
  }
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function present(row: OperatorRow, now: number) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    edition: row.edition,
    status: row.status,
    validity: validityOf(row, now),
    validFrom: iso(row.validFrom),
    validUntil: iso(row.validUntil),
    subscriptionAmount: row.subscriptionAmount,
    contactName: row.contactName,
    contactPhone: row.contactPhone,
    contactEmail: row.contactEmail,
    authorizedAcConnectors: row.authorizedAcConnectors,
    authorizedDcConnectors: row.authorizedDcConnectors,
    createdAt: row.createdAt.toISOString(),
  };
}

export const listOperators = verb({ menu: OPERATOR_MENU }, async (ctx, raw: unknown) => {
  requirePlatformSuper(ctx);
  const q = operatorListQuery.parse(raw);
  const now = new Date(ctx.now());
  const where = and(
    mainOperator,
    q.code ? startingWith(operators.code, q.code) : undefined,
    q.name ? containing(operators.name, q.name) : undefined,
    q.edition ? eq(operators.edition, q.edition) : undefined,
    q.validity ? validityIs(q.validity, now) : undefined,
  );
  return operatorPage(ctx, q, where, present);
});

async function findOperator(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select().from(operators).where(and(mainOperator, eq(operators.id, id))).limit(1);
  if (!row) throw new NotFound("platform.errors.operatorNotFound");
  return row;
}

/** Everything the platform sees of one operator: its row, settings, domains and owner account. */
export async function operatorDetail(ctx: UserCtx, row: OperatorRow) {
  const [settings, domains, [owner]] = await Promise.all([
    settingsOf(ctx.db, row.id),
    ctx.db.select({ domain: operatorDomains.domain }).from(operatorDomains).where(ownedBy(row.id, operatorDomains)).orderBy(asc(operatorDomains.domain)),
    ctx.db
      .select({ id: accounts.id, username: accounts.username, name: accounts.name, email: accounts.email, mustChangePassword: accounts.mustChangePassword })
      .from(accounts)
      .where(ownedBy(row.id, accounts, eq(accounts.adminType, "SUPER")))
      .orderBy(asc(accounts.id))
      .limit(1),
  ]);
  return {
    ...present(row, ctx.now()),
    chargeAccount: row.chargeAccount,
    clearingAccount: row.clearingAccount,
    cardPaymentAccount: row.cardPaymentAccount,
    paypalAccount: row.paypalAccount,
    homeUrl: row.homeUrl,
    openingHours: row.openingHours,
    eipaAccount: row.eipaAccount,
    eipaPasswordSet: Boolean(row.eipaPasswordSealed),
    joinOcpi: row.joinOcpi,
    timeZone: settings.timeZone,
    currency: settings.currencyCode,
    currencySign: settings.currencySign,
    currencyDecimals: settings.currencyDecimals,
    defaultLanguage: settings.defaultLanguage,
    domains: domains.map((d) => d.domain),
    admin: owner ?? null,
  };
}

export const getOperator = verb({ menu: OPERATOR_MENU }, async (ctx, id: number) => {
  requirePlatformSuper(ctx);
  return operatorDetail(ctx, await findOperator(ctx, id));
});

/** The operator columns a create or an edit sets from the input. */
async function operatorColumns(ctx: UserCtx, input: OperatorUpdateInput) {
  return {
    ...profileColumns(input),
    edition: input.edition,
    validFrom: input.validFrom ?? null,
    validUntil: input.validUntil ?? null,
    subscriptionAmount: input.subscriptionAmount ?? null,
    joinOcpi: input.joinOcpi,
    ...(await eipaColumns(ctx, input)),
  };
}

/** The EIPA account, and the password sealed when one is given (blank keeps the stored one). */
export async function eipaColumns(ctx: UserCtx, input: { eipaAccount?: string; eipaPassword?: string }) {
  return {
    eipaAccount: input.eipaAccount ?? null,
    ...(input.eipaPassword ? { eipaPasswordSealed: await seal(ctx.env, `platform:${EIPA_SEAL}`, input.eipaPassword) } : {}),
  };
}

/**
 * POST /platform-service/operator: the operator, its settings, its SUPER role with its
 * edition's menus, its admin account and domains, in one batch; the admin's initial password is
 * in the answer, the only time it is shown (docs/rules/platform.md "Provisioning").
 */
export const createOperator = verb({ menu: OPERATOR_MENU, mutates: true }, async (ctx, raw: unknown) => {
  requirePlatformSuper(ctx);
  const input = operatorInput.parse(raw);
  return provision(ctx, {
    code: input.code,
    name: input.name,
    edition: input.edition,
    parentId: null,
    operator: await operatorColumns(ctx, input),
    settings: input,
    domains: input.domains,
    admin: input.admin,
    module: "platformOperator",
  });
});

/**
 * PUT /platform-service/operator/{id}. A new edition reaches its sub-operators in the same batch
 * and its users at their next request (the menu is computed per request).
 */
export const updateOperator = verb({ menu: OPERATOR_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  requirePlatformSuper(ctx);
  const before = await findOperator(ctx, id);
  const input = operatorUpdateInput.parse(raw);
  await assertDomainsFree(ctx, input.domains, id);
  const target = { operator: { id } };
  const facts = currencyFacts(input.currency);
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db.update(operators).set({ ...(await operatorColumns(ctx, input)), updatedAt: now }).where(eq(operators.id, id)),
    ctx.db
      .update(operators)
      .set({ edition: input.edition, updatedAt: now })
      .where(and(eq(operators.parentId, id), eq(operators.sub, 1))),
    ctx.db
      .update(parameterSettings)
      .set({
        timeZone: input.timeZone,
        defaultLanguage: input.defaultLanguage,
        currencyCode: input.currency,
        currencySign: input.currencySign ?? facts.sign,
        currencyDecimals: input.currencyDecimals ?? facts.decimals,
        updatedAt: now,
      })
      .where(ownedBy(id, parameterSettings)),
    ctx.db.delete(operatorDomains).where(ownedBy(id, operatorDomains)),
    ...(input.domains.length ? [ctx.db.insert(operatorDomains).values(ownedRows(target, input.domains.map((domain) => ({ domain, createdAt: now }))))] : []),
    auditRow(ctx, {
      table: "operators",
      module: "platformOperator",
      type: "UPDATE",
      oldData: { code: before.code, edition: before.edition, validFrom: before.validFrom, validUntil: before.validUntil },
      newData: { code: before.code, ...input },
    }),
  ]);
  await chargersReadValidityAgain(ctx, id);
  return operatorDetail(ctx, await findOperator(ctx, id));
});

/**
 * The operator's chargers keep its status and validity with their registration; after a change
 * they read it again at their next boot, so that boot is answered by what is true now
 * (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
async function chargersReadValidityAgain(ctx: UserCtx, operatorId: number) {
  const rows = await ctx.db.select({ operatorId: points.operatorId, serialNumber: points.serialNumber }).from(points).where(ownedBy(operatorId, points));
  for (const slice of slices(rows, 50)) await Promise.all(slice.map((point) => registrationChanged(ctx.env, point)));
}

/**
 * PUT /platform-service/operator/{id}/status: a disabled operator's users are logged out at
 * their next request and cannot log in, and its chargers are Rejected at their next boot; its
 * records stay (docs/rules/platform.md "Validity").
 */
export const setOperatorStatus = verb({ menu: OPERATOR_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  requirePlatformSuper(ctx);
  const before = await findOperator(ctx, id);
  const { status } = operatorStatusInput.parse(raw);
  await ctx.db.batch([
    ctx.db.update(operators).set({ status, updatedAt: new Date(ctx.now()) }).where(eq(operators.id, id)),
    ...(status === "INVALID" ? [invalidateOperatorSessions(ctx.db, id)] : []),
    auditRow(ctx, { table: "operators", module: "platformOperator", type: "UPDATE", oldData: { code: before.code, status: before.status }, newData: { code: before.code, status } }),
  ]);
  await chargersReadValidityAgain(ctx, id);
  return present({ ...before, status }, ctx.now());
});
